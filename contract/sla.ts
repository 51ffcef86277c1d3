import type { TicketView } from "./ticket_types.ts";

/**
 * How a ticket stands against its queue's service-level targets (issue 26), as the ticket list
 * and header show it. The server is the judge of a breach (slaBreachedAt, recorded once by the
 * distribution job): red means recorded. Otherwise the time left to the next target still ahead;
 * amber when that is within SLA_WARN_MS. A first response already given leaves its instant in
 * the past without a breach: the resolution target is then the next one. A resolution clock
 * stopped while waiting on the customer (resolutionPausedAt) is not counting down: "paused", with
 * what was left of it when it stopped.
 */
export type SlaLevel = "ok" | "warn" | "late" | "paused";

export type SlaState = { level: SlaLevel; dueAt: string | null; leftMs: number };

/** Amber from this close to the target. */
export const SLA_WARN_MS = 15 * 60_000;

type SlaFields = Pick<
  TicketView,
  "status" | "firstResponseDueAt" | "resolutionDueAt" | "slaBreachedAt" | "resolutionPausedAt"
>;

export function slaState(ticket: SlaFields, now: number): SlaState | null {
  if (ticket.status === "closed") return null;
  if (ticket.slaBreachedAt) return { level: "late", dueAt: null, leftMs: 0 };
  const paused = ticket.resolutionPausedAt ?? null;
  const ahead = [ticket.firstResponseDueAt, paused ? null : ticket.resolutionDueAt]
    .filter((due): due is string => typeof due === "string")
    .map((due) => Date.parse(due))
    .filter((ms) => ms > now)
    .sort((a, b) => a - b);
  if (ahead.length === 0) {
    if (!paused || !ticket.resolutionDueAt) return null;
    const leftMs = Math.max(0, Date.parse(ticket.resolutionDueAt) - Date.parse(paused));
    return { level: "paused", dueAt: null, leftMs };
  }
  const leftMs = ahead[0] - now;
  return {
    level: leftMs <= SLA_WARN_MS ? "warn" : "ok",
    dueAt: new Date(ahead[0]).toISOString(),
    leftMs,
  };
}

/** "2h 05m", "12m", "<1m": the time left, for a badge. */
export function formatLeft(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "<1m";
  const hours = Math.floor(minutes / 60);
  if (hours === 0) return `${minutes}m`;
  const days = Math.floor(hours / 24);
  if (days > 0) return `${days}d ${hours % 24}h`;
  return `${hours}h ${String(minutes % 60).padStart(2, "0")}m`;
}

/**
 * Tickets by time left: the closest target first, breached ones before them, none last. The
 * user's pinned tickets stay first (issue 28; the server's page puts them there), each group in
 * this order.
 */
export function byTimeLeft<T extends SlaFields & { id: number; pinned?: boolean }>(
  tickets: T[],
  now: number,
): T[] {
  const rank = (t: T) => {
    const state = slaState(t, now);
    if (!state) return Number.POSITIVE_INFINITY;
    return state.level === "late" ? Number.NEGATIVE_INFINITY : state.leftMs;
  };
  return [...tickets].sort((a, b) =>
    Number(b.pinned === true) - Number(a.pinned === true) || rank(a) - rank(b) || b.id - a.id
  );
}
