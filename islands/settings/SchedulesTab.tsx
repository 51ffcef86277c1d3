import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { useWeekCheck, WeeklyHoursEditor } from "../lib/hours/WeeklyHoursEditor.tsx";
import { useFormSubmit } from "../lib/list/form_submit.ts";
import {
  type EditableDay,
  tidyWeek,
  toEntries,
  weekFrom,
  type WorkingHoursEntry,
} from "../../contract/working_hours.ts";
import { Button } from "../lib/ui/Button.tsx";

type Company = { id: number; schedules: WorkingHoursEntry[] };

/**
 * The Horarios tab of /settings (seeds/001 section 2), shown while working hours are managed per
 * company: the company's week, saved with PUT /api/companies/:id/schedules.
 */
export function SchedulesTab({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const [week, setWeek] = useState<EditableDay[] | null>(null);
  const hours = useWeekCheck(week ?? [], setWeek);
  const form = useFormSubmit({
    validate: hours.check,
    send: () =>
      api.put<Company>(`/companies/${companyId}/schedules`, {
        schedules: toEntries(tidyWeek(week ?? [])),
      }, { quiet: true }),
    onDone: (company) => setWeek(weekFrom(company.schedules)),
    successKey: "settings.schedules.saved",
    admin: true,
  });

  useEffect(() => {
    api.get<Company>(`/companies/${companyId}`)
      .then((company) => setWeek(weekFrom(company.schedules)))
      .catch(() => setWeek(weekFrom(null)));
  }, [companyId]);

  return (
    <section className="card settings-card" aria-labelledby="settings-schedules-title">
      <h2 id="settings-schedules-title" className="settings-card-title">
        {t("settings.schedules.title")}
      </h2>
      <p className="settings-card-hint">{t("settings.schedules.hint")}</p>
      {week
        ? (
          <form onSubmit={form.onSubmit} noValidate>
            <WeeklyHoursEditor {...hours.editor} />
            <div className="settings-actions">
              <Button
                variant="primary"
                type="submit"
                loading={form.saving}
                data-testid="schedules-save"
              >
                {t("common.save")}
              </Button>
            </div>
          </form>
        )
        : <div className="skeleton settings-skeleton" aria-busy="true" />}
    </section>
  );
}
