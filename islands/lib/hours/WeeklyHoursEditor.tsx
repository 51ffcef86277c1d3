import { useTranslation } from "react-i18next";
import { CLOSED, type HoursProblem, isClosed, type WorkingHoursEntry } from "./working_hours.ts";

/** Hours a day gets when it is switched from closed to open. */
const OPENING = { startTime: "08:00", endTime: "18:00" };

/**
 * The week's working hours as a table: per day an open switch and start/end times (HH:MM).
 * Used by the queue dialog ('Horários de Atendimento') and the settings' Horarios tab.
 * Controlled: `value` is the whole week (see weekFrom), `problems` come from weekProblems.
 */
export function WeeklyHoursEditor(
  { value, onChange, problems = {}, disabled }: {
    value: WorkingHoursEntry[];
    onChange: (week: WorkingHoursEntry[]) => void;
    problems?: Record<string, HoursProblem>;
    disabled?: boolean;
  },
) {
  const { t } = useTranslation();
  const set = (weekdayEn: string, patch: Partial<WorkingHoursEntry>) =>
    onChange(value.map((e) => e.weekdayEn === weekdayEn ? { ...e, ...patch } : e));

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
        {value.map((entry) => {
          const closed = isClosed(entry);
          const day = t(`hours.weekdays.${entry.weekdayEn}`);
          const problem = problems[entry.weekdayEn];
          const errorId = `hours-${entry.weekdayEn}-error`;
          return (
            <tr key={entry.weekdayEn} data-day={entry.weekdayEn} data-closed={closed || undefined}>
              <th scope="row">{day}</th>
              <td>
                <label className="hours-switch">
                  <input
                    type="checkbox"
                    role="switch"
                    checked={!closed}
                    disabled={disabled}
                    aria-label={t("hours.openOn", { day })}
                    data-testid={`hours-${entry.weekdayEn}-open`}
                    onChange={(e) =>
                      set(
                        entry.weekdayEn,
                        e.target.checked ? OPENING : { startTime: CLOSED, endTime: CLOSED },
                      )}
                  />
                  <span className="hours-switch-track" aria-hidden="true" />
                </label>
              </td>
              {closed
                ? (
                  <td colSpan={2} className="hours-closed">
                    {t("hours.closed")}
                  </td>
                )
                : (
                  <>
                    <td>
                      <input
                        className="input hours-time"
                        type="time"
                        step={60}
                        required
                        value={entry.startTime}
                        disabled={disabled}
                        aria-label={t("hours.startOn", { day })}
                        aria-invalid={problem === "invalidStart" || problem === "endBeforeStart"
                          ? true
                          : undefined}
                        aria-describedby={problem ? errorId : undefined}
                        data-testid={`hours-${entry.weekdayEn}-start`}
                        onChange={(e) => set(entry.weekdayEn, { startTime: e.target.value })}
                      />
                    </td>
                    <td>
                      <input
                        className="input hours-time"
                        type="time"
                        step={60}
                        required
                        value={entry.endTime}
                        disabled={disabled}
                        aria-label={t("hours.endOn", { day })}
                        aria-invalid={problem === "invalidEnd" || problem === "endBeforeStart"
                          ? true
                          : undefined}
                        aria-describedby={problem ? errorId : undefined}
                        data-testid={`hours-${entry.weekdayEn}-end`}
                        onChange={(e) =>
                          set(entry.weekdayEn, { endTime: e.target.value })}
                      />
                      {problem
                        ? (
                          <span id={errorId} className="field-error hours-error" role="alert">
                            {t(`hours.errors.${problem}`)}
                          </span>
                        )
                        : null}
                    </td>
                  </>
                )}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
