import type { Role } from "../../contract/policy.ts";
import {
  type AudienceTicket,
  type AudienceViewer,
  mayReadTicket,
  readsEveryTicket,
} from "../../contract/ticket_audience.ts";
import type { AuthInfo } from "../context.ts";
import type { Database } from "../../db/client.ts";
import { assertRecord } from "../auth/policy.ts";
import { ticketActNeeds, ticketReadNeeds } from "../../contract/record_policy.ts";
import { userQueueIds } from "../users/repository.ts";
import { ticketPlacement } from "./repository.ts";

/**
 * Who is looking at tickets: the audience rule's viewer (contract/ticket_audience.ts) with the
 * company and roles the policy table needs. Built once per request from the verified token plus
 * the user's queues.
 */
export type Viewer = AudienceViewer & {
  companyId: number;
  /** The caller's roles, for the policy table (server/auth/policy.ts assertAllowed). */
  roles: readonly Role[];
  /** The user's own queues. */
  queueIds: number[];
};

export async function viewerOf(db: Database, auth: AuthInfo): Promise<Viewer> {
  return {
    companyId: auth.companyId,
    userId: auth.userId,
    isAdmin: readsEveryTicket(auth.roles),
    roles: auth.roles,
    queueIds: auth.queueIds ?? await userQueueIds(db, auth.companyId, auth.userId),
    allTicket: auth.user.allTicket === "enable",
    restrictedSession: auth.restricted !== undefined || auth.enrolling === true,
  };
}

/** A ticket as rows and views have it (isGroup a flag in rows, a boolean in views). */
export type Placed = {
  userId: number | null;
  queueId: number | null;
  status: string;
  isGroup: boolean | number;
};

function audienceTicket(ticket: Placed): AudienceTicket {
  return { ...ticket, isGroup: ticket.isGroup === true || ticket.isGroup === 1 };
}

/**
 * Reading one ticket (GET /api/tickets/:id, its messages, notes, media, the socket's
 * joinChatBox): the audience rule, mayReadTicket. Otherwise 'Acesso não permitido'
 * (seeds/000 section 5).
 */
export function canRead(viewer: Viewer, ticket: Placed): boolean {
  return mayReadTicket(viewer, audienceTicket(ticket));
}

/** canRead asserted as the record rule ticketReadNeeds: 403 ERR_NO_PERMISSION otherwise. */
export function assertCanRead(viewer: Viewer, ticket: Placed): void {
  assertRecord(viewer, ticketReadNeeds(viewer, audienceTicket(ticket)));
}

/**
 * Changing a ticket (transitions, sending, tags): reading it, then the record rule
 * ticketActNeeds (contract/record_policy.ts): another attendant's ticket is left to them and to
 * "ticket:act-any".
 */
export function assertCanAct(viewer: Viewer, ticket: Placed): void {
  assertCanRead(viewer, ticket);
  assertRecord(viewer, ticketActNeeds(viewer, ticket));
}

/**
 * May this caller follow a ticket's chat (the socket's joinChatBox) or fetch its media? canRead
 * of a ticket of the caller's company (another company's: no).
 */
export async function canViewTicket(
  db: Database,
  auth: AuthInfo,
  ticketId: number,
): Promise<boolean> {
  const ticket = await ticketPlacement(db, auth.companyId, ticketId);
  if (!ticket) return false;
  return canRead(await viewerOf(db, auth), ticket);
}
