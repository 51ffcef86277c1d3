import { useTranslation } from "react-i18next";

const CELL = 24;
const LEFT = 40;
const TOP = 16;

/** Conversations created per weekday (rows, Sunday first) and local hour (columns). */
export function Heatmap({ cells }: { cells: number[][] }) {
  const { t } = useTranslation();
  const max = Math.max(1, ...cells.flat());
  const days = t("reports.weekdays").split(",");
  return (
    <figure className="reports-chart" data-testid="reports-heatmap">
      <svg
        viewBox={`0 0 ${LEFT + 24 * CELL} ${TOP + 7 * CELL}`}
        role="img"
        aria-label={t("reports.heatmapLabel")}
        className="reports-heatmap"
      >
        {[0, 6, 12, 18].map((h) => (
          <text key={h} x={LEFT + h * CELL} y={TOP - 4} className="reports-axis">{h}h</text>
        ))}
        {cells.map((hours, day) => (
          <g key={day}>
            <text x={0} y={TOP + day * CELL + CELL * 0.7} className="reports-axis">
              {days[day]}
            </text>
            {hours.map((n, hour) => (
              <rect
                key={hour}
                x={LEFT + hour * CELL}
                y={TOP + day * CELL}
                width={CELL - 2}
                height={CELL - 2}
                className="reports-heat"
                fillOpacity={n ? 0.15 + 0.85 * (n / max) : 0.04}
              >
                <title>{`${days[day]} ${hour}h: ${n}`}</title>
              </rect>
            ))}
          </g>
        ))}
      </svg>
    </figure>
  );
}
