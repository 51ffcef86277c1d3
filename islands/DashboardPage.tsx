import { useCallback, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { api } from "./lib/api.ts";
import { daysUntil, useUser } from "./lib/session.ts";
import { toast } from "./lib/toast.ts";
import { Button } from "./lib/ui/Button.tsx";
import { Select } from "./lib/ui/Select.tsx";
import { languageOf, LOCALE_TAGS } from "./lib/i18n.ts";
import {
  defaultFilter,
  type Filter,
  type FilterType,
  formatMinutes,
  PERIODS,
  queryOf,
  starsOf,
  switchType,
} from "./dashboard/dashboard_filter.ts";
import { HourlyChart } from "./dashboard/HourlyChart.tsx";
import type { DashboardAnswer } from "../contract/people_types.ts";
import { icon } from "./lib/ui/icon.tsx";

const CalendarClock = icon("calendar-clock");
const Star = icon("star");

export type DashboardPageProps = Record<string, never>;

/** / (seeds/000 section 2 'Dashboard (admin)'). Attendants are sent to their tickets. */
export default function DashboardPage(_props: DashboardPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell
      title={t("dashboard.title")}
    >
      <Dashboard />
    </AppShell>
  );
}

const COUNTERS = [
  ["supportPending", "count"],
  ["supportHappening", "count"],
  ["supportFinished", "count"],
  ["leads", "count"],
  ["avgSupportTime", "minutes"],
  ["avgWaitTime", "minutes"],
] as const;

const NO_PERIOD = "0";

function Dashboard() {
  const { t, i18n } = useTranslation();
  const user = useUser();
  const [filter, setFilter] = useState<Filter>(() => defaultFilter(new Date()));
  const [data, setData] = useState<DashboardAnswer | null>(null);
  const [loading, setLoading] = useState(false);
  const [unset, setUnset] = useState(false);
  const dateFormat = new Intl.DateTimeFormat(LOCALE_TAGS[languageOf(i18n)], { timeZone: "UTC" });
  const showDate = (iso: string) => dateFormat.format(new Date(`${iso.slice(0, 10)}T00:00:00Z`));

  const run = useCallback((f: Filter) => {
    const query = queryOf(f);
    if (!query) {
      // seeds/000 section 5 'Dashboard filter'.
      setUnset(true);
      toast.error(t("dashboard.needsFilter"));
      return;
    }
    setUnset(false);
    setLoading(true);
    api.get<DashboardAnswer>("/dashboard", { query }).then(setData).catch(() => {})
      .finally(() => setLoading(false));
  }, [t]);

  useEffect(() => run(filter), []);

  const days = daysUntil(user.company.dueDate);

  return (
    <div className="dashboard" data-testid="dashboard">
      <div className="dashboard-top">
        <section className="card due-card" data-testid="due-card">
          <CalendarClock size={28} aria-hidden="true" />
          <div>
            <h2>{t("dashboard.dueDate")}</h2>
            <strong>
              {user.company.dueDate ? showDate(user.company.dueDate) : t("dashboard.noDueDate")}
            </strong>
            {days !== null && days >= 0
              ? <small>{t("dashboard.dueDateDays", { count: days })}</small>
              : null}
          </div>
        </section>
        <form
          className="card dashboard-filter"
          onSubmit={(e) => {
            e.preventDefault();
            run(filter);
          }}
        >
          <div className="field">
            <label>{t("dashboard.filterType")}</label>
            <Select
              label={t("dashboard.filterType")}
              value={filter.type}
              onValueChange={(v) => setFilter((f) => switchType(f, v as FilterType))}
              options={[
                { value: "date", label: t("dashboard.byDate") },
                { value: "period", label: t("dashboard.byPeriod") },
              ]}
            />
          </div>
          {filter.type === "date"
            ? (
              <>
                <div className="field">
                  <label htmlFor="dash-from">{t("dashboard.dateFrom")}</label>
                  <input
                    id="dash-from"
                    type="date"
                    className="input"
                    value={filter.dateFrom}
                    onChange={(e) => setFilter((f) => ({ ...f, dateFrom: e.target.value }))}
                  />
                </div>
                <div className="field">
                  <label htmlFor="dash-to">{t("dashboard.dateTo")}</label>
                  <input
                    id="dash-to"
                    type="date"
                    className="input"
                    value={filter.dateTo}
                    onChange={(e) => setFilter((f) => ({ ...f, dateTo: e.target.value }))}
                  />
                </div>
              </>
            )
            : (
              <div className="field">
                <label>{t("dashboard.period")}</label>
                <Select
                  label={t("dashboard.period")}
                  value={String(filter.days ?? NO_PERIOD)}
                  onValueChange={(v) =>
                    setFilter((f) => ({ ...f, days: v === NO_PERIOD ? null : Number(v) }))}
                  options={[
                    { value: NO_PERIOD, label: t("dashboard.periodNone") },
                    ...PERIODS.map((p) => ({
                      value: String(p),
                      label: t("dashboard.periodDays", { count: p }),
                    })),
                  ]}
                />
              </div>
            )}
          <Button variant="primary" type="submit" loading={loading}>{t("dashboard.filter")}</Button>
        </form>
      </div>
      {unset
        ? (
          <div className="alert alert-warning" data-testid="filter-unset">
            {t("dashboard.needsFilter")}
          </div>
        )
        : null}

      <section className="dashboard-counters" data-testid="counters">
        {COUNTERS.map(([key, kind]) => (
          <div className="card counter" key={key} data-counter={key}>
            <span className="counter-label">{t(`dashboard.counters.${key}`)}</span>
            <strong className="counter-value" data-testid={`counter-${key}`}>
              {data
                ? kind === "count" ? data.counters[key] : formatMinutes(data.counters[key])
                : "–"}
            </strong>
          </div>
        ))}
      </section>
      {data
        ? (
          <p className="dashboard-range">
            {t("dashboard.range", { from: showDate(data.range.from), to: showDate(data.range.to) })}
          </p>
        )
        : null}

      <section className="card dashboard-chart">
        <h2>{t("dashboard.todayTickets")}</h2>
        {/* Scrolls sideways on a phone: focusable, so a keyboard scrolls it too. */}
        <div className="chart-scroll" tabIndex={0} aria-label={t("dashboard.todayTickets")}>
          <HourlyChart
            hourly={data?.hourly ?? Array.from({ length: 24 }, (_, hour) => ({ hour, count: 0 }))}
          />
        </div>
      </section>

      <section className="card dashboard-attendants">
        <h2>{t("dashboard.attendants")}</h2>
        <div className="table-scroll" tabIndex={0} aria-label={t("dashboard.attendants")}>
          <table className="dash-table" data-testid="attendants">
            <thead>
              <tr>
                <th>{t("dashboard.attendant")}</th>
                <th>{t("dashboard.rating")}</th>
                <th>{t("dashboard.avgSupportTime")}</th>
                <th>{t("dashboard.status")}</th>
              </tr>
            </thead>
            <tbody>
              {(data?.attendants ?? []).map((a) => {
                const stars = starsOf(a.rating);
                return (
                  <tr key={a.id} data-testid="attendant-row">
                    <td>{a.name}</td>
                    <td>
                      <span
                        className="stars"
                        role="img"
                        aria-label={t("dashboard.ratingOf", { value: stars })}
                        data-stars={stars}
                      >
                        {[1, 2, 3].map((i) => (
                          <Star
                            key={i}
                            size={16}
                            aria-hidden="true"
                            className={i <= stars ? "star on" : "star"}
                          />
                        ))}
                      </span>
                    </td>
                    <td>{formatMinutes(a.avgSupportTime)}</td>
                    <td>
                      <span className={a.online ? "presence on" : "presence"}>
                        {a.online ? t("dashboard.online") : t("dashboard.offline")}
                      </span>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
        {data && data.attendants.length === 0
          ? <div className="empty-state">{t("dashboard.noAttendants")}</div>
          : null}
      </section>
    </div>
  );
}
