import { useTranslation } from "react-i18next";
import type { DayReportRow } from "../../contract/report_types.ts";
import { formatDay } from "../lib/clock.ts";
import { languageOf, LOCALE_TAGS } from "../lib/i18n.ts";

/** "1 h 05 min", "4 min", "—": a median a manager reads at a glance (as the exports write it). */
export { durationText as duration } from "../../contract/report_types.ts";

const WIDTH = 720;
const HEIGHT = 180;
/** Days named under the chart at most (the first and the last always). */
const DAY_MARKS = 6;

/** The days the x axis names: evenly spread, the first and the last included. */
function markedDays(rows: DayReportRow[]): string[] {
  if (rows.length <= DAY_MARKS) return rows.map((r) => r.day);
  const step = (rows.length - 1) / (DAY_MARKS - 1);
  return Array.from({ length: DAY_MARKS }, (_, i) => rows[Math.round(i * step)].day);
}

/**
 * Opened and resolved per day, two bars a day (our own SVG: no chart library in the page), with
 * its axes (issue 50 item 5): counts on the left, days under it and the period in the reader's
 * date format. The axes are HTML beside the stretched SVG, so their text is never distorted.
 */
export function DayChart({ rows }: { rows: DayReportRow[] }) {
  const { t, i18n } = useTranslation();
  const lng = LOCALE_TAGS[languageOf(i18n)];
  const max = Math.max(1, ...rows.map((r) => Math.max(r.opened, r.resolved)));
  const step = WIDTH / Math.max(1, rows.length);
  const bar = Math.max(1, step / 2 - 1);
  const h = (n: number) => (n / max) * HEIGHT;
  const counts = max % 2 === 0 ? [max, max / 2, 0] : [max, 0];
  return (
    <figure className="reports-chart" data-testid="reports-chart">
      <div className="reports-plot">
        <div className="reports-y" data-testid="reports-chart-y">
          {counts.map((n) => <span key={n}>{n}</span>)}
        </div>
        <svg
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          role="img"
          aria-label={t("reports.chartLabel")}
          preserveAspectRatio="none"
        >
          {rows.map((r, i) => (
            <g key={r.day}>
              <title>{`${r.day}: ${r.opened} / ${r.resolved}`}</title>
              <rect
                x={i * step}
                y={HEIGHT - h(r.opened)}
                width={bar}
                height={h(r.opened)}
                className="reports-bar-opened"
              />
              <rect
                x={i * step + bar}
                y={HEIGHT - h(r.resolved)}
                width={bar}
                height={h(r.resolved)}
                className="reports-bar-resolved"
              />
            </g>
          ))}
        </svg>
        <div className="reports-x" data-testid="reports-chart-x">
          {markedDays(rows).map((day) => <span key={day}>{formatDay(day, lng, true)}</span>)}
        </div>
      </div>
      <figcaption>
        <span className="reports-key-opened">{t("reports.opened")}</span>
        <span className="reports-key-resolved">{t("reports.resolved")}</span>
        {rows.length
          ? (
            <span data-testid="reports-period">
              {`${formatDay(rows[0].day, lng)} — ${formatDay(rows[rows.length - 1].day, lng)}`}
            </span>
          )
          : null}
      </figcaption>
    </figure>
  );
}
