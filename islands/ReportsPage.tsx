import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { PAGE_DENIED_REDIRECT } from "../contract/policy.ts";
import { api } from "./lib/api.ts";
import { canReadReports } from "./lib/permissions.ts";
import { downloadFile } from "./lib/download.ts";
import { useLookup } from "./lib/use_lookup.ts";
import { Button } from "./lib/ui/Button.tsx";
import { toast } from "./lib/toast.ts";
import { ALL, FilterBar, namedOptions, useFilters } from "./lib/filters/FilterBar.tsx";
import { chosenParams, monthToDate } from "./lib/filters/filter_values.ts";
import type {
  AttendantReportRow,
  DayReportRow,
  HeatmapAnswer,
  ReportAnswer,
  ReportFigures,
  SummaryAnswer,
} from "../contract/report_types.ts";
import { DayChart, duration } from "./reports/DayChart.tsx";
import { Heatmap } from "./reports/Heatmap.tsx";
import { icon } from "./lib/ui/icon.tsx";

const Download = icon("download");

export type ReportsPageProps = Record<string, never>;

/**
 * /reports (issue 27): a period (up to 12 months) and filters; opened and resolved per day as a
 * chart; the attendants' table; each table as XLSX or CSV.
 */
export default function ReportsPage(_props: ReportsPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell
      title={t("reports.title")}
      guard={{
        allow: canReadReports,
        message: "errors.noPermissionPage",
        redirectTo: PAGE_DENIED_REDIRECT,
      }}
    >
      <Reports />
    </AppShell>
  );
}

type Named = { id: number; name: string };
type Filters = {
  dateFrom: string;
  dateTo: string;
  queueId: string;
  userId: string;
  whatsappId: string;
  tagId: string;
};

function queryOf(f: Filters): string {
  return new URLSearchParams({
    dateFrom: f.dateFrom,
    dateTo: f.dateTo,
    ...chosenParams(f, ["queueId", "userId", "whatsappId", "tagId"]),
  }).toString();
}

function Reports() {
  const { t } = useTranslation();
  const state = useFilters<Filters>(() => {
    const month = monthToDate(new Date());
    return {
      dateFrom: month.from,
      dateTo: month.to,
      queueId: ALL,
      userId: ALL,
      whatsappId: ALL,
      tagId: ALL,
    };
  });
  const [days, setDays] = useState<DayReportRow[] | null>(null);
  const [people, setPeople] = useState<AttendantReportRow[] | null>(null);
  const [totals, setTotals] = useState<ReportFigures | null>(null);
  const [heat, setHeat] = useState<number[][] | null>(null);
  const users = useLookup<Named>("/users/list", "");
  const queues = useLookup<Named>("/queue", "");
  const connections = useLookup<Named>("/whatsapp", "");
  const tags = useLookup<Named>("/tags/list", "");
  const query = queryOf(state.filters);
  useEffect(() => {
    let live = true;
    Promise.all([
      api.get<ReportAnswer<"days">>(`/reports/days?${query}`),
      api.get<ReportAnswer<"attendants">>(`/reports/attendants?${query}`),
      api.get<SummaryAnswer>(`/reports/summary?${query}`),
      api.get<HeatmapAnswer>(`/reports/heatmap?${query}`),
    ]).then(([d, a, s, h]) => {
      if (!live) return;
      setDays(d.rows);
      setPeople(a.rows);
      setTotals(s.totals);
      setHeat(h.cells);
    }).catch(() => {}); // the api client already toasted
    return () => {
      live = false;
    };
  }, [query]);
  const choice = (key: keyof Filters, label: string, items: Named[]) => ({
    key,
    label,
    all: t("reports.all"),
    options: namedOptions(items),
  });
  const download = (table: string, format: string) =>
    void downloadFile(`/reports/${table}.${format}?${query}`, `${table}.${format}`)
      .catch((error) => toast.error(error));
  return (
    <div className="reports">
      <FilterBar
        testId="reports"
        state={state}
        period={[["dateFrom", t("reports.from")], ["dateTo", t("reports.to")]]}
        choices={[
          choice("queueId", t("reports.queue"), queues.items),
          choice("userId", t("reports.attendant"), users.items),
          choice("whatsappId", t("reports.connection"), connections.items),
          choice("tagId", t("reports.tag"), tags.items),
        ]}
      />
      {totals && (
        <dl className="reports-totals" data-testid="reports-totals">
          {([
            ["opened", String(totals.opened)],
            ["resolved", String(totals.resolved)],
            ["reopened", String(totals.reopened)],
            ["waiting", duration(totals.waitingMedianSeconds)],
            ["firstResponse", duration(totals.firstResponseMedianSeconds)],
            ["resolution", duration(totals.resolutionMedianSeconds)],
            ["ratings", `${totals.ratings[1]} / ${totals.ratings[2]} / ${totals.ratings[3]}`],
          ] as const).map(([key, value]) => (
            <div key={key} className="card">
              <dt>{t(`reports.${key}`)}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      )}
      <section className="card reports-card">
        <h2>{t("reports.perDay")}</h2>
        {days ? <DayChart rows={days} /> : <div className="skeleton reports-skeleton" />}
        <div className="reports-exports">
          <Button onClick={() => download("days", "xlsx")} data-testid="reports-days-xlsx">
            <Download size={16} aria-hidden="true" /> XLSX
          </Button>
          <Button onClick={() => download("days", "csv")}>
            <Download size={16} aria-hidden="true" /> CSV
          </Button>
        </div>
      </section>
      <section className="card reports-card">
        <h2>{t("reports.heatmap")}</h2>
        {heat ? <Heatmap cells={heat} /> : <div className="skeleton reports-skeleton" />}
      </section>
      <section className="card reports-card">
        <h2>{t("reports.perAttendant")}</h2>
        {/* Scrolls sideways on a phone: focusable so a keyboard can scroll it. */}
        <div
          className="reports-table"
          tabIndex={0}
          role="region"
          aria-label={t("reports.perAttendant")}
        >
          <table data-testid="reports-attendants">
            <thead>
              <tr>
                <th>{t("reports.attendant")}</th>
                <th>{t("reports.opened")}</th>
                <th>{t("reports.resolved")}</th>
                <th>{t("reports.firstResponse")}</th>
                <th>{t("reports.resolution")}</th>
                <th>{t("reports.ratings")}</th>
              </tr>
            </thead>
            <tbody>
              {(people ?? []).map((r) => (
                <tr key={r.userId}>
                  <td>{r.name}</td>
                  <td>{r.opened}</td>
                  <td>{r.resolved}</td>
                  <td>{duration(r.firstResponseMedianSeconds)}</td>
                  <td>{duration(r.resolutionMedianSeconds)}</td>
                  <td>{`${r.ratings[1]} / ${r.ratings[2]} / ${r.ratings[3]}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div className="reports-exports">
          <Button
            onClick={() => download("attendants", "xlsx")}
            data-testid="reports-attendants-xlsx"
          >
            <Download size={16} aria-hidden="true" /> XLSX
          </Button>
          <Button onClick={() => download("attendants", "csv")}>
            <Download size={16} aria-hidden="true" /> CSV
          </Button>
          <Button onClick={() => download("queues", "xlsx")}>
            <Download size={16} aria-hidden="true" /> {t("reports.perQueue")} XLSX
          </Button>
          <Button onClick={() => download("tags", "xlsx")}>
            <Download size={16} aria-hidden="true" /> {t("reports.perTag")} XLSX
          </Button>
        </div>
      </section>
    </div>
  );
}
