import type { Role } from "../../contract/policy.ts";
import type { AuthInfo } from "../context.ts";
import type { Database } from "../../db/client.ts";
import { forbidden } from "../errors.ts";
import { userQueueIds } from "../users/repository.ts";
import { ticketPlacement, userInQueue } from "./repository.ts";

/**
 * Who is looking at tickets, with what the visibility rules need (seeds/000 section 6).
 * Built once per request from the verified token plus the user's queues.
 */
export type Viewer = {
  companyId: number;
  userId: number;
  /** Admins see every ticket (visibility; what they may do is read from `roles`). */
  isAdmin: boolean;
  /** The caller's roles, for the policy table (server/auth/policy.ts assertAllowed). */
  roles: readonly Role[];
  /** The user's own queues. */
  queueIds: number[];
  /** users.allTicket 'enable': pending tickets of every queue appear in their notifications. */
  allTicket: boolean;
};

export async function viewerOf(db: Database, auth: AuthInfo): Promise<Viewer> {
  return {
    companyId: auth.companyId,
    userId: auth.userId,
    isAdmin: auth.profile === "admin",
    roles: auth.roles,
    queueIds: auth.queueIds ?? await userQueueIds(db, auth.companyId, auth.userId),
    allTicket: auth.user.allTicket === "enable",
  };
}

type Placed = { userId: number | null; queueId: number | null; status?: string };

/**
 * Reading one ticket (GET /api/tickets/:id, its messages, notes, the socket's joinChatBox):
 * admins read every ticket; a user reads a ticket that is theirs, has no queue, or sits in one of
 * their queues. Otherwise 'Acesso não permitido' (seeds/000 section 5). The same rule as
 * canViewTicket.
 */
export function canRead(viewer: Viewer, ticket: Placed): boolean {
  if (viewer.isAdmin || ticket.userId === viewer.userId || ticket.queueId === null) return true;
  return viewer.queueIds.includes(ticket.queueId);
}

export function assertCanRead(viewer: Viewer, ticket: Placed): void {
  if (!canRead(viewer, ticket)) throw forbidden();
}

/**
 * Changing a ticket (transitions, sending, tags): besides reading it, a user may act on a ticket
 * that is theirs or unassigned, or reopen a closed one; another attendant's ticket is left to
 * them and to admins.
 */
export function assertCanAct(viewer: Viewer, ticket: Placed): void {
  assertCanRead(viewer, ticket);
  if (viewer.isAdmin || ticket.status === "closed") return;
  if (ticket.userId !== null && ticket.userId !== viewer.userId) throw forbidden();
}

/**
 * May this caller follow a ticket's chat (the socket's joinChatBox) or fetch its media? The same
 * rule as canRead, without loading the viewer: the ticket is in the caller's company, and a
 * non-admin sees it only if it is theirs, has no queue, or is in one of their queues (seeds/000
 * section 5 'Acesso não permitido').
 */
export async function canViewTicket(
  db: Database,
  auth: AuthInfo,
  ticketId: number,
): Promise<boolean> {
  const ticket = await ticketPlacement(db, auth.companyId, ticketId);
  if (!ticket) return false;
  if (auth.profile === "admin" || ticket.userId === auth.userId || ticket.queueId === null) {
    return true;
  }
  return await userInQueue(db, auth.companyId, auth.userId, ticket.queueId);
}
