import { useTranslation } from "react-i18next";
import type { DayReportRow } from "../../contract/report_types.ts";

/** "1 h 05 min", "4 min", "—": a median a manager reads at a glance. */
export function duration(seconds: number | null): string {
  if (seconds === null) return "—";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, "0")} min`;
}

const WIDTH = 720;
const HEIGHT = 180;

/** Opened and resolved per day, two bars a day (our own SVG: no chart library in the page). */
export function DayChart({ rows }: { rows: DayReportRow[] }) {
  const { t } = useTranslation();
  const max = Math.max(1, ...rows.map((r) => Math.max(r.opened, r.resolved)));
  const step = WIDTH / Math.max(1, rows.length);
  const bar = Math.max(1, step / 2 - 1);
  const h = (n: number) => (n / max) * (HEIGHT - 20);
  return (
    <figure className="reports-chart" data-testid="reports-chart">
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
      <figcaption>
        <span className="reports-key-opened">{t("reports.opened")}</span>
        <span className="reports-key-resolved">{t("reports.resolved")}</span>
        <span>{`${rows[0]?.day ?? ""} — ${rows.at(-1)?.day ?? ""}`}</span>
      </figcaption>
    </figure>
  );
}
