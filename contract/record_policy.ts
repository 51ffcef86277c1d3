/**
 * Record rules, beside the role table (contract/policy.ts; issue 42): who may act on THIS record.
 * The table says which roles may do an action at all; a record rule reads the caller and the
 * record and answers which of the table's lines must still be held: none when the record itself
 * lets the caller in (their own note, their own ticket), else the line that lets others in
 * ("ticket-note:delete-any"). So a change of the table reaches these rules too, and the server
 * (`assertRecord` of server/auth/policy.ts, which also applies a billing-only session's limits) and
 * the browser (`granted`) read the same answer. Who may SEE a ticket is the audience rule,
 * contract/ticket_audience.ts; acting on a ticket starts from it.
 */
import { type Action, allows, type Role } from "./policy.ts";
import { type AudienceTicket, type AudienceViewer, mayReadTicket } from "./ticket_audience.ts";

/** The table's lines a record rule still asks for; empty: the record lets the caller in. */
export type Needs = readonly Action[];

const NOTHING: Needs = [];

/** Does a caller holding these roles pass what a record rule asks for? */
export function granted(roles: readonly Role[], needs: Needs): boolean {
  return needs.every((action) => allows(roles, action));
}

// Tickets.

/**
 * Reading a ticket (GET /api/tickets/:id, its messages, notes, media, the socket's joinChatBox):
 * the audience rule decides; a ticket it keeps from the caller asks "ticket:outside-audience",
 * which no role holds (admins, the rule's "ticket:see-all", are already let in by it).
 */
export function ticketReadNeeds(viewer: AudienceViewer, ticket: AudienceTicket): Needs {
  return mayReadTicket(viewer, ticket) ? NOTHING : ["ticket:outside-audience"];
}

/**
 * Acting on a ticket (transitions, sending, tags, lanes), once it is readable: a ticket that is
 * the caller's, nobody's, or closed (a reopen) needs nothing more; another attendant's is left to
 * them and to "ticket:act-any".
 */
export function ticketActNeeds(
  caller: { userId: number },
  ticket: { userId: number | null; status: string },
): Needs {
  if (ticket.status === "closed" || ticket.userId === null || ticket.userId === caller.userId) {
    return NOTHING;
  }
  return ["ticket:act-any"];
}

/** May this viewer act on this ticket? Read it (the audience rule), then ticketActNeeds. */
export function mayActOnTicket(
  viewer: AudienceViewer,
  roles: readonly Role[],
  ticket: AudienceTicket,
): boolean {
  return mayReadTicket(viewer, ticket) && granted(roles, ticketActNeeds(viewer, ticket));
}

/** Writing in a ticket (a send, a forward into it): acting on it, while it is open. */
export function mayWriteInTicket(
  viewer: AudienceViewer,
  roles: readonly Role[],
  ticket: AudienceTicket,
): boolean {
  return ticket.status === "open" && mayActOnTicket(viewer, roles, ticket);
}

/** Opening a ticket in a queue (POST /api/tickets): one of the caller's, or "ticket:any-queue". */
export function ticketQueueNeeds(caller: { queueIds: readonly number[] }, queueId: number): Needs {
  return caller.queueIds.includes(queueId) ? NOTHING : ["ticket:any-queue"];
}

/** Opening a ticket for someone: for oneself (or nobody) nothing; another, "ticket:assign-any". */
export function ticketAssignNeeds(caller: { userId: number }, userId: number | null): Needs {
  return userId === null || userId === caller.userId ? NOTHING : ["ticket:assign-any"];
}

// Notes, quick answers, schedules, sessions.

/** A record kept by its owner: the owner needs nothing, anyone else `line`. */
function ownerOr(caller: { userId: number }, owner: number | null, line: Action): Needs {
  return owner === caller.userId ? NOTHING : [line];
}

/** Removing a ticket's note: its author, or "ticket-note:delete-any". */
export function noteDeleteNeeds(caller: { userId: number }, note: { userId: number | null }) {
  return ownerOr(caller, note.userId, "ticket-note:delete-any");
}

/**
 * Reading a quick answer: one's own, a general one (not a queue's), one of one's queues; any
 * other needs "quick-message:manage-any".
 */
export function quickMessageReadNeeds(
  caller: { userId: number; queueIds: readonly number[] },
  q: { userId: number | null; queueId: number | null; geral: boolean },
): Needs {
  if (q.userId === caller.userId) return NOTHING;
  if (q.queueId === null ? q.geral : caller.queueIds.includes(q.queueId)) return NOTHING;
  return ["quick-message:manage-any"];
}

/** Changing a quick answer: one's own, or "quick-message:manage-any". */
export function quickMessageChangeNeeds(caller: { userId: number }, q: { userId: number | null }) {
  return ownerOr(caller, q.userId, "quick-message:manage-any");
}

/** Naming a queue in a quick answer: one's own queue, or "quick-message:manage-any". */
export function quickMessageQueueNeeds(
  caller: { queueIds: readonly number[] },
  queueId: number | null | undefined,
): Needs {
  if (queueId === null || queueId === undefined || caller.queueIds.includes(queueId)) {
    return NOTHING;
  }
  return ["quick-message:manage-any"];
}

/** A scheduled message: one's own, or "schedule:manage-any". */
export function scheduleNeeds(caller: { userId: number }, s: { userId: number | null }) {
  return ownerOr(caller, s.userId, "schedule:manage-any");
}

// Reports.

/**
 * Reading the reports (issue 27) beyond "report:read", the gate every user passes: a supervisor
 * of some queue (user_queues.supervisor, issue 26; never the client's word) reads those queues
 * and needs nothing more; anyone else needs "report:read-all" (every queue). The server asserts
 * it (server/reports/scope.ts), the menu and the page ask it (islands/lib/permissions.ts).
 */
export function reportScopeNeeds(supervisedQueueIds: readonly number[]): Needs {
  return supervisedQueueIds.length > 0 ? NOTHING : ["report:read-all"];
}

// Internal chats, users.

/** Renaming, re-peopling or deleting an internal chat: its owner ("chat:manage-any" is nobody's). */
export function chatChangeNeeds(caller: { userId: number }, chat: { ownerId: number | null }) {
  return ownerOr(caller, chat.ownerId, "chat:manage-any");
}

/** Editing a user: oneself needs nothing more; anyone else, "user:manage". */
export function userEditNeeds(caller: { userId: number }, target: { id: number }): Needs {
  return ownerOr(caller, target.id, "user:manage");
}

/**
 * What only another user may do to one (a profile, the super flag, deleting the account): on
 * oneself "user:own-access", which no role holds; on another, `line`.
 */
export function userAccessNeeds(
  caller: { userId: number },
  target: { id: number },
  line: Action,
): Needs {
  return target.id === caller.userId ? ["user:own-access"] : [line];
}

/** Ending a sign-in session: one's own; another's, "session:manage-any" (a super user's, also "user:manage-super"). */
export function sessionEndNeeds(
  caller: { userId: number },
  session: { userId: number; userSuper: boolean },
): Needs {
  if (session.userId === caller.userId) return NOTHING;
  return session.userSuper ? ["session:manage-any", "user:manage-super"] : ["session:manage-any"];
}
