import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { adminSubmitDelay } from "../lib/form_delay.ts";
import { WeeklyHoursEditor } from "../lib/hours/WeeklyHoursEditor.tsx";
import {
  type EditableDay,
  type HoursProblem,
  tidyWeek,
  toEntries,
  weekFrom,
  weekProblems,
  type WorkingHoursEntry,
} from "../../contract/working_hours.ts";
import { toast } from "../lib/toast.ts";
import { Button } from "../lib/ui/Button.tsx";

type Company = { id: number; schedules: WorkingHoursEntry[] };

/**
 * The Horarios tab of /settings (seeds/001 section 2), shown while working hours are managed per
 * company: the company's week, saved with PUT /api/companies/:id/schedules.
 */
export function SchedulesTab({ companyId }: { companyId: number }) {
  const { t } = useTranslation();
  const [week, setWeek] = useState<EditableDay[] | null>(null);
  const [problems, setProblems] = useState<Record<string, HoursProblem>>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    api.get<Company>(`/companies/${companyId}`)
      .then((company) => setWeek(weekFrom(company.schedules)))
      .catch(() => setWeek(weekFrom(null)));
  }, [companyId]);

  const submit = async () => {
    if (!week) return;
    const days = tidyWeek(week);
    setWeek(days);
    const found = weekProblems(days);
    setProblems(found);
    if (Object.keys(found).length) return;
    setSaving(true);
    try {
      await adminSubmitDelay();
      const company = await api.put<Company>(`/companies/${companyId}/schedules`, {
        schedules: toEntries(days),
      });
      setWeek(weekFrom(company.schedules));
      toast.success({ key: "settings.schedules.saved" });
    } catch {
      // The api client showed why.
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="card settings-card" aria-labelledby="settings-schedules-title">
      <h2 id="settings-schedules-title" className="settings-card-title">
        {t("settings.schedules.title")}
      </h2>
      <p className="settings-card-hint">{t("settings.schedules.hint")}</p>
      {week
        ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
            noValidate
          >
            <WeeklyHoursEditor
              value={week}
              onChange={(next) => {
                setWeek(next);
                if (Object.keys(problems).length) setProblems(weekProblems(next));
              }}
              problems={problems}
            />
            <div className="settings-actions">
              <Button
                variant="primary"
                type="submit"
                loading={saving}
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
