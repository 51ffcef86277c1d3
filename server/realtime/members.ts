import type { Hub, Member } from "./hub.ts";

/**
 * Keeps live sockets in step with changes to their user: a socket captures the user's profile
 * and queues when it opens (they filter ticket events), so an admin changing them, or deleting
 * the user, must reach the sockets already open.
 */
export function updateUserMembers(
  hub: Hub,
  companyId: number,
  userId: number,
  patch: { profile?: "admin" | "user"; queueIds?: number[]; allTicket?: boolean },
) {
  for (const member of [...hub.members()]) {
    if (member.companyId !== companyId || member.userId !== userId) continue;
    // Ticket and message events are filtered per member at publish time (realtime/publish.ts),
    // so the new queues and allTicket apply to the very next event, in every room it joined.
    if (patch.queueIds) member.queueIds = [...patch.queueIds];
    if (patch.allTicket !== undefined) member.allTicket = patch.allTicket;
    if (patch.profile && patch.profile !== member.profile) {
      member.profile = patch.profile;
      if (patch.profile === "admin") hub.join(member, { kind: "admins" });
      else hub.leave(member, { kind: "admins" });
    }
  }
}

/** Closes the sockets that `which` picks (they are removed from every room at once). */
function closeMembers(hub: Hub, which: (member: Member) => boolean, reason: string) {
  for (const member of [...hub.members()]) {
    if (!which(member)) continue;
    try {
      member.socket.close(4001, reason);
    } catch {
      // already closed
    }
    hub.remove(member);
  }
}

/** Closes every socket of a user (deleted, or sessions ended by a password change). */
export function disconnectUser(hub: Hub, companyId: number, userId: number, reason: string) {
  closeMembers(hub, (m) => m.companyId === companyId && m.userId === userId, reason);
}

/** Closes the sockets of one session (ended by its user or an admin; issue 30). */
export function disconnectSession(
  hub: Hub,
  companyId: number,
  sessionId: number,
  reason: string,
) {
  closeMembers(hub, (m) => m.companyId === companyId && m.sessionId === sessionId, reason);
}

/**
 * A company's plan changed (another plan, or its plan edited): its open sockets take the new
 * flags at once, so gated channels stop (or start) reaching them without a reconnect.
 */
export function setCompanyFlags(hub: Hub, companyId: number, flags: ReadonlySet<string>) {
  for (const member of hub.members()) {
    if (member.companyId === companyId) member.flags = new Set(flags);
  }
}

/** Closes every socket of a company (it was deactivated or deleted). */
export function disconnectCompany(hub: Hub, companyId: number, reason: string) {
  closeMembers(hub, (m) => m.companyId === companyId, reason);
}
