import { Fragment, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type EditableDay,
  type HoursProblem,
  normaliseTime,
  OPENING,
  tidyWeek,
  weekProblems,
} from "../../../contract/working_hours.ts";

/**
 * The check of a week being edited (the queue dialog's hours, the settings' Horarios): `check`
 * tidies the typed times and answers the form's error for the week (`schedules`: its first
 * problem), showing each day's problem in the editor until the week is right.
 */
export function useWeekCheck(week: EditableDay[], setWeek: (week: EditableDay[]) => void) {
  const [problems, setProblems] = useState<Record<string, HoursProblem>>({});
  return {
    check: (): Record<string, string> => {
      const days = tidyWeek(week);
      setWeek(days);
      const found = weekProblems(days);
      setProblems(found);
      const first = Object.values(found)[0];
      return first ? { schedules: `hours.errors.${first}` } : {};
    },
    editor: {
      value: week,
      onChange: (next: EditableDay[]) => {
        setWeek(next);
        if (Object.keys(problems).length) setProblems(weekProblems(next));
      },
      problems,
    },
  };
}

/**
 * The week's working hours as a table: per day an open switch and start/end times typed as HH:MM
 * (text, not the browser's time picker: its 12/24-hour format follows the browser, not the page).
 * Used by the queue dialog ('Horários de Atendimento') and the settings' Horarios tab.
 * Controlled: `value` is the whole week (weekFrom), `problems` come from weekProblems.
 */
export function WeeklyHoursEditor(
  { value, onChange, problems = {}, disabled }: {
    value: EditableDay[];
    onChange: (week: EditableDay[]) => void;
    problems?: Record<string, HoursProblem>;
    disabled?: boolean;
  },
) {
  const { t } = useTranslation();
  const set = (weekdayEn: string, patch: Partial<EditableDay>) =>
    onChange(value.map((d) => d.weekdayEn === weekdayEn ? { ...d, ...patch } : d));

  const timeInput = (day: EditableDay, field: "startTime" | "endTime", label: string) => {
    const problem = problems[day.weekdayEn];
    const wrong = problem === "endBeforeStart" ||
      (field === "startTime" ? problem === "invalidStart" : problem === "invalidEnd");
    return (
      <input
        className="input hours-time"
        inputMode="numeric"
        autoComplete="off"
        placeholder="HH:MM"
        maxLength={5}
        value={day[field]}
        disabled={disabled}
        aria-label={label}
        aria-invalid={wrong || undefined}
        aria-describedby={problem ? `hours-${day.weekdayEn}-error` : undefined}
        data-testid={`hours-${day.weekdayEn}-${field === "startTime" ? "start" : "end"}`}
        onChange={(e) => set(day.weekdayEn, { [field]: e.target.value })}
        onBlur={(e) => {
          const tidy = normaliseTime(e.target.value);
          if (tidy !== day[field]) set(day.weekdayEn, { [field]: tidy });
        }}
      />
    );
  };

  return (
    <table className="hours-table" data-testid="hours-editor">
      <thead>
        <tr>
          <th scope="col">{t("hours.day")}</th>
          <th scope="col">{t("hours.open")}</th>
          <th scope="col">{t("hours.start")}</th>
          <th scope="col">{t("hours.end")}</th>
        </tr>
      </thead>
      <tbody>
        {value.map((day) => {
          const name = t(`hours.weekdays.${day.weekdayEn}`);
          // A closed day has no times to be wrong. An open day's problem shows on a row of its
          // own across the table: in the end column it ran past a phone's dialog (issue 50.8).
          const problem = day.open ? problems[day.weekdayEn] : undefined;
          return (
            <Fragment key={day.weekdayEn}>
              <tr
                data-day={day.weekdayEn}
                data-closed={!day.open || undefined}
                data-problem={problem ? true : undefined}
              >
                <th scope="row">{name}</th>
                <td>
                  <label className="hours-switch">
                    <input
                      type="checkbox"
                      role="switch"
                      checked={day.open}
                      disabled={disabled}
                      aria-label={t("hours.openOn", { day: name })}
                      data-testid={`hours-${day.weekdayEn}-open`}
                      onChange={(e) =>
                        set(
                          day.weekdayEn,
                          e.target.checked && day.startTime === day.endTime
                            ? { open: true, ...OPENING }
                            : { open: e.target.checked },
                        )}
                    />
                    <span className="hours-switch-track" aria-hidden="true" />
                  </label>
                </td>
                {day.open
                  ? (
                    <>
                      <td>{timeInput(day, "startTime", t("hours.startOn", { day: name }))}</td>
                      <td>{timeInput(day, "endTime", t("hours.endOn", { day: name }))}</td>
                    </>
                  )
                  : <td colSpan={2} className="hours-closed">{t("hours.closed")}</td>}
              </tr>
              {problem
                ? (
                  <tr className="hours-problem">
                    <td colSpan={4}>
                      <span
                        id={`hours-${day.weekdayEn}-error`}
                        className="field-error hours-error"
                        role="alert"
                      >
                        {t(`hours.errors.${problem}`)}
                      </span>
                    </td>
                  </tr>
                )
                : null}
            </Fragment>
          );
        })}
      </tbody>
    </table>
  );
}
