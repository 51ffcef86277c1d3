import type { Hub } from "./hub.ts";

/**
 * Keeps live sockets in step with changes to their user: a socket captures the user's profile
 * and queues when it opens (they filter ticket events), so an admin changing them, or deleting
 * the user, must reach the sockets already open, on every process (Hub.change: through Redis
 * with REDIS_URL; the work itself is Hub's #apply).
 */
export function updateUserMembers(
  hub: Hub,
  companyId: number,
  userId: number,
  patch: { profile?: "admin" | "user"; queueIds?: number[]; allTicket?: boolean },
) {
  hub.change({ op: "user", companyId, userId, patch });
}

/** Closes every socket of a user (deleted, or sessions ended by a password change). */
export function disconnectUser(hub: Hub, companyId: number, userId: number, reason: string) {
  hub.change({ op: "closeUser", companyId, userId, reason });
}

/** Closes the sockets of one session (ended by its user or an admin; issue 30). */
export function disconnectSession(
  hub: Hub,
  companyId: number,
  sessionId: number,
  reason: string,
) {
  hub.change({ op: "closeSession", companyId, sessionId, reason });
}

/**
 * A company's plan changed (another plan, or its plan edited): its open sockets take the new
 * flags at once, so gated channels stop (or start) reaching them without a reconnect.
 */
export function setCompanyFlags(hub: Hub, companyId: number, flags: ReadonlySet<string>) {
  hub.change({ op: "flags", companyId, flags: [...flags] });
}

/** Closes every socket of a company (it was deactivated or deleted). */
export function disconnectCompany(hub: Hub, companyId: number, reason: string) {
  hub.change({ op: "closeCompany", companyId, reason });
}
