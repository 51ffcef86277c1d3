import { useTranslation } from "react-i18next";
import { DEFAULT_ANNOUNCEMENT_PRIORITY } from "../../contract/team_types.ts";
import { PRIORITY_CLASS } from "../lib/shell/priority.ts";

/** seeds/002 section 9: 1 red (high), 2 orange (medium), 3 grey (low). */
export function PriorityBadge({ priority }: { priority: number }) {
  const { t } = useTranslation();
  const p = PRIORITY_CLASS[priority] ? priority : DEFAULT_ANNOUNCEMENT_PRIORITY;
  return (
    <span className={`people-badge ${PRIORITY_CLASS[p]}`} data-priority={p}>
      {t(`announcements.priorities.${p}`)}
    </span>
  );
}
