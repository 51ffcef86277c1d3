import type { ContactRef, Ticket, TicketStatus } from "../../contract/ticket_types.ts";
import { type AudienceViewer, inTicketList } from "../../contract/ticket_audience.ts";

/**
 * One ticket list's state and its live rules (seeds/000 section 4 'Live list behaviour'):
 * - a ticket update is added (at the top) or replaced (in place) when the ticket is in the list's
 *   view of the audience rule (`inTicketList`, contract/ticket_audience.ts: the server's own
 *   list rule) and its 'no queue' choice; otherwise it leaves the list (its queue is not
 *   selected, it went to another attendant, or to another status);
 * - a delete event removes it;
 * - a new message moves it to the top, marked unread; updateUnread resets unread to 0;
 * - a contact update refreshes the contact on its tickets;
 * - issue 28: the user's pinned tickets stay first (a pin or unpin from any of their tabs moves
 *   them); socket payloads carry no `pinned` (it is per user), so a ticket keeps its own.
 * The search tab cannot judge a text or tag match on the client: it only replaces and removes.
 */
export type ListScope = {
  /** The list's status; undefined for the search tab. */
  status?: TicketStatus;
  /** Who looks (contract/ticket_audience.ts viewerOfUser). */
  viewer: AudienceViewer;
  /** Admins' show-all switch (seeds/000 section 6: tickets-manager:showall). */
  showAll: boolean;
  /** Selected queues. */
  queueIds: number[];
  /** Whether tickets without a queue are selected. */
  noQueue: boolean;
  /** Every queue on offer is selected (the user's own tickets then show whatever their queue). */
  allQueues: boolean;
  /** "full": adds and removes as above; "replace": the search tab. */
  live: "full" | "replace";
};

export type ListState = {
  tickets: Ticket[];
  /** The server's count, kept in step with live additions and removals. */
  count: number;
  hasMore: boolean;
  /** The last page loaded (0 before the first answer). */
  page: number;
  loading: boolean;
  /**
   * Live events received since the current read started. The read may have been answered from
   * a moment before some of them (an event can overtake the answer of a read made before its
   * change): they are applied again on top of the page.
   */
  replay?: ListAction[];
};

export const EMPTY_LIST: ListState = {
  tickets: [],
  count: 0,
  hasMore: false,
  page: 0,
  loading: true,
};

export type ListAction =
  | { type: "loading" }
  | {
    type: "page";
    page: number;
    tickets: Ticket[];
    count?: number;
    hasMore: boolean;
    /** An overtaken read's answer, shown while the newer read runs (it keeps the replay). */
    overtaken?: boolean;
  }
  | { type: "update"; ticket: Ticket }
  | { type: "message"; ticket: Ticket; fromMe: boolean }
  | { type: "unread"; ticketId: number }
  | { type: "delete"; ticketId: number }
  | { type: "contact"; contact: ContactRef }
  | { type: "pin"; ticketId: number; pinned: boolean };

/** A ticket from a socket event, with the pin this list knows for it. */
function keepPin(state: ListState, ticket: Ticket): Ticket {
  const known = state.tickets.find((t) => t.id === ticket.id)?.pinned;
  return { ...ticket, pinned: known ?? ticket.pinned ?? false };
}

/** Pinned tickets first, each group in its own order (the server's, then live moves). */
function pinnedFirst(state: ListState): ListState {
  const tickets = state.tickets;
  const firstUnpinned = tickets.findIndex((t) => !t.pinned);
  if (firstUnpinned === -1 || !tickets.slice(firstUnpinned).some((t) => t.pinned)) return state;
  return {
    ...state,
    tickets: [...tickets.filter((t) => t.pinned), ...tickets.filter((t) => !t.pinned)],
  };
}

/**
 * Whether a ticket belongs in this list under the live rules: the server's list rule with the
 * queues the list sends (a user with every queue selected sends none: their own apply), and the
 * 'no queue' choice, which only the client applies.
 */
export function belongs(ticket: Ticket, scope: ListScope): boolean {
  if (ticket.queueId === null && !scope.noQueue) return false;
  const sendsQueues = scope.viewer.isAdmin || !scope.allQueues;
  return inTicketList(scope.viewer, ticket, {
    status: scope.status,
    showAll: scope.showAll,
    queueIds: sendsQueues ? scope.queueIds : undefined,
  });
}

function without(state: ListState, id: number): ListState {
  const index = state.tickets.findIndex((t) => t.id === id);
  if (index === -1) return state;
  return {
    ...state,
    tickets: state.tickets.filter((t) => t.id !== id),
    count: Math.max(0, state.count - 1),
  };
}

function toTop(state: ListState, ticket: Ticket): ListState {
  const present = state.tickets.some((t) => t.id === ticket.id);
  return {
    ...state,
    tickets: [ticket, ...state.tickets.filter((t) => t.id !== ticket.id)],
    count: present ? state.count : state.count + 1,
  };
}

export function listReducer(scope: ListScope) {
  const live = liveReducer(scope);
  // A search keeps the server's order (pins included).
  const arrange = scope.live === "full" ? pinnedFirst : (state: ListState) => state;
  return (state: ListState, action: ListAction): ListState => {
    switch (action.type) {
      case "loading":
        return { ...state, loading: true, replay: [] };
      case "page": {
        // Tickets without a queue come with every page: the 'no queue' choice is applied here.
        const fresh = action.tickets.filter((t) => t.queueId !== null || scope.noQueue);
        const tickets = action.page === 1 ? fresh : [
          ...state.tickets,
          ...fresh.filter((t) => !state.tickets.some((o) => o.id === t.id)),
        ];
        const dropped = action.tickets.length - fresh.length;
        const count = Math.max(
          tickets.length,
          (action.count ?? tickets.length) - (action.page === 1 ? dropped : 0),
        );
        let next: ListState = {
          tickets,
          count,
          hasMore: action.hasMore,
          page: action.page,
          loading: false,
        };
        for (const event of state.replay ?? []) next = live(next, event);
        if (action.overtaken) return { ...arrange(next), loading: true, replay: state.replay };
        return arrange(next);
      }
      default: {
        const next = arrange(live(state, action));
        return state.replay ? { ...next, replay: [...state.replay, action] } : next;
      }
    }
  };
}

/** The live rules: what one socket event does to a list. */
function liveReducer(scope: ListScope) {
  return (state: ListState, action: ListAction): ListState => {
    switch (action.type) {
      case "loading":
      case "page":
        return state;
      case "pin": {
        if (!state.tickets.some((t) => t.id === action.ticketId)) return state;
        return {
          ...state,
          tickets: state.tickets.map((t) =>
            t.id === action.ticketId ? { ...t, pinned: action.pinned } : t
          ),
        };
      }
      case "update": {
        const ticket = keepPin(state, action.ticket);
        const index = state.tickets.findIndex((t) => t.id === ticket.id);
        if (scope.live === "replace") {
          if (index === -1) return state;
          const tickets = state.tickets.slice();
          tickets[index] = ticket;
          return { ...state, tickets };
        }
        if (!belongs(ticket, scope)) return without(state, ticket.id);
        if (index === -1) return toTop(state, ticket);
        const tickets = state.tickets.slice();
        tickets[index] = ticket;
        return { ...state, tickets };
      }
      case "message": {
        const present = state.tickets.some((t) => t.id === action.ticket.id);
        if (scope.live === "replace" && !present) return state;
        if (scope.live === "full" && !belongs(action.ticket, scope)) {
          return without(state, action.ticket.id);
        }
        const unread = action.fromMe
          ? action.ticket.unreadMessages
          : Math.max(1, action.ticket.unreadMessages);
        return toTop(state, { ...keepPin(state, action.ticket), unreadMessages: unread });
      }
      case "unread": {
        if (!state.tickets.some((t) => t.id === action.ticketId && t.unreadMessages !== 0)) {
          return state;
        }
        return {
          ...state,
          tickets: state.tickets.map((t) =>
            t.id === action.ticketId ? { ...t, unreadMessages: 0 } : t
          ),
        };
      }
      case "delete":
        return without(state, action.ticketId);
      case "contact": {
        const contact = action.contact;
        if (!state.tickets.some((t) => t.contactId === contact.id)) return state;
        return {
          ...state,
          tickets: state.tickets.map((t) =>
            t.contactId === contact.id ? { ...t, contact: { ...t.contact, ...contact } } : t
          ),
        };
      }
    }
  };
}
