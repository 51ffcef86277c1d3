/**
 * Who may see a ticket, decided here once (issue 42). Server and browser both read it:
 * - the API's reads and writes (server/tickets/access.ts `canRead`, `assertCanRead`);
 * - socket delivery (server/realtime/delivery.ts `hearsTicket`: its audience), hence push too;
 * - the lists, the notifications bell and the kanban board, which are VIEWS of what one may read
 *   (`inTicketList`, `inNotifications`, `onKanbanBoard`): each starts from `mayReadTicket` and
 *   narrows it. Their SQL (server/tickets/list_conditions_repository.ts, server/kanban/repository.ts) is
 *   proven equal to these by tests/api/ticket_audience_property_test.ts, and the islands
 *   (tickets/list_state.ts, kanban/board_state.ts, lib/ticket_notify.ts) call them directly.
 *
 * The promise: whoever may read a ticket hears its events, and nobody else.
 *
 * The rule (seeds/000 sections 5 and 6), for a viewer of the ticket's company:
 * - a restricted session (a late company's billing-only session, a session that must turn on
 *   two-factor first) reads no ticket;
 * - admins (the "ticket:see-all" line of contract/policy.ts: the admin profile; the super flag by
 *   itself grants nothing here) read every ticket;
 * - anyone reads their own tickets (assigned to them), whatever the queue: a ticket transferred
 *   to them stays theirs;
 * - anyone reads a ticket without a queue;
 * - anyone reads every ticket of their queues, whoever it is assigned to ("Opening a ticket whose
 *   queue is not among the user's queues is refused": one in their queues is not). A queue's
 *   supervisors (user_queues.supervisor) are members of it: the same rule, no more;
 * - users.allTicket 'enable' ("the notifications list includes pending tickets") also reads the
 *   unassigned pending tickets of every queue, never a group's (notifications are never raised
 *   for groups);
 * - nobody else. Company settings change none of this (none of seeds/000's settings is about
 *   visibility); tenancy (the company) is the caller's, checked by every query before this.
 */
import { allows, type Role, rolesOf } from "./policy.ts";

/** Who is looking: what the rule reads of a user (server and browser build it the same way). */
export type AudienceViewer = {
  userId: number;
  /** Reads every ticket of the company (`readsEveryTicket` of the caller's roles). */
  isAdmin: boolean;
  /** The user's own queues (their memberships; supervision is a mark on one of them). */
  queueIds: readonly number[];
  /** users.allTicket 'enable'. */
  allTicket: boolean;
  /** A billing-only or enrolling session: reads nothing. */
  restrictedSession?: boolean;
};

/** What the rule reads of a ticket (a row, a view, a socket payload: they all have it). */
export type AudienceTicket = {
  userId: number | null;
  queueId: number | null;
  status: string;
  isGroup: boolean;
};

/** Does this caller read every ticket of their company? The policy table's "ticket:see-all". */
export function readsEveryTicket(roles: readonly Role[]): boolean {
  return allows(roles, "ticket:see-all");
}

/** Why a viewer may read a ticket, or null: the rule above, one clause each. */
export type ReadReason = "admin" | "owner" | "noQueue" | "queue" | "allTicket";

export function readReason(viewer: AudienceViewer, ticket: AudienceTicket): ReadReason | null {
  if (viewer.restrictedSession) return null;
  if (viewer.isAdmin) return "admin";
  if (ticket.userId === viewer.userId) return "owner";
  if (ticket.queueId === null) return "noQueue";
  if (viewer.queueIds.includes(ticket.queueId)) return "queue";
  if (allTicketReads(viewer, ticket)) return "allTicket";
  return null;
}

/** May this viewer read (and so hear) this ticket? */
export function mayReadTicket(viewer: AudienceViewer, ticket: AudienceTicket): boolean {
  return readReason(viewer, ticket) !== null;
}

/** allTicket 'enable': the unassigned pending tickets of every queue, never a group's. */
function allTicketReads(viewer: AudienceViewer, ticket: AudienceTicket): boolean {
  return viewer.allTicket && !ticket.isGroup && ticket.status === "pending" &&
    ticket.userId === null;
}

/** In one of these queues, or in none. */
function inQueuesOrNone(ticket: AudienceTicket, queueIds: readonly number[]): boolean {
  return ticket.queueId === null || queueIds.includes(ticket.queueId);
}

/** GET /api/tickets (not the notifications): what a list asks for. */
export type TicketListView = {
  /** The list's status; undefined for every status (the search tab). */
  status?: string;
  /** The show-all switch (seeds/000 section 6), honoured for admins only. */
  showAll: boolean;
  /** The queues selected and sent; undefined: the viewer's own (a user with every queue on). */
  queueIds?: readonly number[];
};

/**
 * Which readable tickets a ticket list shows (seeds/000 section 6; Whaticket's lists):
 * - show-all (admins): every ticket, narrowed by the selected queues (or without a queue);
 * - otherwise the viewer's own tickets (in the selected queues or none; with no selection,
 *   whatever their queue) and the unassigned ones in the selected queues that are the viewer's
 *   (admins: any selected) or without a queue. Another attendant's ticket is readable (by link)
 *   but not listed.
 */
export function inTicketList(
  viewer: AudienceViewer,
  ticket: AudienceTicket,
  view: TicketListView,
): boolean {
  if (!mayReadTicket(viewer, ticket)) return false;
  if (view.status !== undefined && ticket.status !== view.status) return false;
  const selected = view.queueIds;
  if (view.showAll && viewer.isAdmin) return selected ? inQueuesOrNone(ticket, selected) : true;
  if (ticket.userId === viewer.userId) return selected ? inQueuesOrNone(ticket, selected) : true;
  if (ticket.userId !== null) return false;
  const queues = selected
    ? (viewer.isAdmin ? selected : selected.filter((id) => viewer.queueIds.includes(id)))
    : viewer.queueIds;
  return inQueuesOrNone(ticket, queues);
}

/**
 * The notifications (the bell, GET /api/tickets?withUnreadMessages=true; seeds/000 section 6),
 * never a group's: unread tickets that are the viewer's, or unassigned in one of the viewer's
 * queues (admins too: their own queues) or without one; with allTicket, every unassigned pending
 * ticket too, read or not. A new message raises a notification for these tickets only.
 */
export function inNotifications(
  viewer: AudienceViewer,
  ticket: AudienceTicket & { unread: boolean },
  status?: string,
): boolean {
  if (!mayReadTicket(viewer, ticket) || ticket.isGroup) return false;
  if (status !== undefined && ticket.status !== status) return false;
  if (ticket.unread) {
    if (ticket.userId === viewer.userId) return true;
    if (ticket.userId === null && inQueuesOrNone(ticket, viewer.queueIds)) return true;
  }
  return allTicketReads(viewer, ticket);
}

/**
 * The kanban board (seeds/001 section 2): tickets not closed; admins every one (in the chosen
 * queues or none); a user those that are theirs or nobody's, in their queues (narrowed by the
 * chosen ones) or without a queue.
 */
export function onKanbanBoard(
  viewer: AudienceViewer,
  ticket: AudienceTicket,
  queueIds?: readonly number[],
): boolean {
  if (!mayReadTicket(viewer, ticket)) return false;
  if (ticket.status !== "open" && ticket.status !== "pending") return false;
  if (viewer.isAdmin) return queueIds ? inQueuesOrNone(ticket, queueIds) : true;
  if (ticket.userId !== null && ticket.userId !== viewer.userId) return false;
  const queues = (queueIds ?? viewer.queueIds).filter((id) => viewer.queueIds.includes(id));
  return inQueuesOrNone(ticket, queues);
}

/** The viewer of a signed-in user as the browser knows them (contract/types.ts SessionUser). */
export function viewerOfUser(user: {
  id: number;
  profile: string;
  super: boolean;
  allTicket: string;
  queues: readonly { id: number }[];
  restricted?: string;
}): AudienceViewer {
  return {
    userId: user.id,
    isAdmin: readsEveryTicket(rolesOf(user)),
    queueIds: user.queues.map((q) => q.id),
    allTicket: user.allTicket === "enable",
    restrictedSession: user.restricted !== undefined,
  };
}
