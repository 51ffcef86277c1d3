import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { formatLeft, slaState } from "../../contract/sla.ts";
import type { Ticket } from "../../contract/ticket_types.ts";
import { icon } from "../lib/ui/icon.tsx";

const Timer = icon("timer");

/** How often the badges re-read the clock (minutes are what they show). */
const TICK_MS = 30_000;

/** The current time, refreshed every TICK_MS while mounted. */
export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * Time left to the ticket's next service-level target (issue 26): neutral, amber when close, red
 * once the breach is recorded; "paused" while the resolution clock waits on the customer. Nothing for a ticket without targets.
 */
export function SlaBadge({ ticket, now }: { ticket: Ticket; now: number }) {
  const { t } = useTranslation();
  const state = slaState(ticket, now);
  if (!state) return null;
  const left = formatLeft(state.leftMs);
  const text = state.level === "late"
    ? t("tickets.sla.late")
    : state.level === "paused"
    ? t("tickets.sla.paused")
    : left;
  return (
    <span
      className={`sla-badge sla-${state.level}`}
      data-testid="ticket-sla"
      data-level={state.level}
      title={state.level === "late"
        ? t("tickets.sla.lateHint")
        : state.level === "paused"
        ? t("tickets.sla.pausedHint", { time: left })
        : t("tickets.sla.left", { time: text })}
    >
      <Timer size={11} aria-hidden="true" />
      {text}
    </span>
  );
}
