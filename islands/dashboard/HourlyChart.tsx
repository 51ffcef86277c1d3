import { useTranslation } from "react-i18next";

/**
 * Today's tickets in 24 hourly buckets (seeds/000 sections 2 and 9) as a plain SVG bar chart:
 * no chart library, so the dashboard bundle stays small.
 */
export function HourlyChart({ hourly }: { hourly: { hour: number; count: number }[] }) {
  const { t } = useTranslation();
  const width = 720;
  const height = 220;
  const left = 32;
  const bottom = 24;
  const top = 12;
  const max = Math.max(1, ...hourly.map((b) => b.count));
  // A round scale: 4 grid lines on whole numbers.
  const step = Math.max(1, Math.ceil(max / 4));
  const scaleMax = step * 4;
  const plotH = height - top - bottom;
  const slot = (width - left) / 24;
  const y = (v: number) => top + plotH - (v / scaleMax) * plotH;
  return (
    <svg
      className="hourly-chart"
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={t("dashboard.todayTickets")}
      data-testid="hourly-chart"
    >
      {[0, 1, 2, 3, 4].map((i) => (
        <g key={i}>
          <line className="grid" x1={left} x2={width} y1={y(i * step)} y2={y(i * step)} />
          <text className="axis" x={left - 6} y={y(i * step) + 4} textAnchor="end">
            {i * step}
          </text>
        </g>
      ))}
      {hourly.map((b) => {
        const h = (b.count / scaleMax) * plotH;
        const x = left + b.hour * slot + slot * 0.18;
        return (
          <g key={b.hour}>
            <rect
              className="bar"
              x={x}
              y={top + plotH - h}
              width={slot * 0.64}
              height={Math.max(0, h)}
              rx={3}
              data-count={b.count}
            >
              <title>{t("dashboard.ticketsAtHour", { count: b.count, hour: b.hour })}</title>
            </rect>
            {b.hour % 2 === 0
              ? (
                <text
                  className="axis"
                  x={left + b.hour * slot + slot / 2}
                  y={height - 6}
                  textAnchor="middle"
                >
                  {String(b.hour).padStart(2, "0")}
                </text>
              )
              : null}
          </g>
        );
      })}
    </svg>
  );
}
