import type { Message } from "../../contract/ticket_types.ts";

/**
 * The open conversation's messages: pages from GET /api/messages/:ticketId (newest page first,
 * ascending inside a page) merged with live `appMessage` events; and the timeline drawn from
 * them (seeds/000 section 2 'Ticket view': day separators and 'conversation ended/started'
 * markers between tickets of the same contact).
 */
export type MessagesState = {
  messages: Message[];
  hasMore: boolean;
  /** The oldest page loaded. */
  page: number;
  loading: boolean;
  /**
   * Issue 28: after a jump to a message (search hit, quote), the newest page loaded when it is
   * not page 1 (newer pages load as the reader scrolls down); 1 otherwise.
   */
  newest: number;
  /** The message jumped to, highlighted and scrolled into view. */
  focus: number | null;
};

export const EMPTY_MESSAGES: MessagesState = {
  messages: [],
  hasMore: false,
  page: 0,
  loading: true,
  newest: 1,
  focus: null,
};

export type MessagesAction =
  | { type: "reset" }
  | { type: "loading" }
  | { type: "page"; page: number; messages: Message[]; hasMore: boolean }
  | { type: "upsert"; message: Message }
  | { type: "jump"; page: number; messages: Message[]; hasMore: boolean; focus: number }
  | { type: "newer"; page: number; messages: Message[] }
  | { type: "focus"; focus: number };

function order(a: Message, b: Message): number {
  return a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id - b.id;
}

export function messagesReducer(state: MessagesState, action: MessagesAction): MessagesState {
  switch (action.type) {
    case "reset":
      return EMPTY_MESSAGES;
    case "loading":
      return { ...state, loading: true };
    case "page": {
      const ids = new Set(action.messages.map((m) => m.id));
      // Live messages that arrived while the page was on its way are kept (a new ticket starts
      // from "reset", so nothing of another conversation remains).
      const kept = state.messages.filter((m) => !ids.has(m.id));
      const messages = [...action.messages, ...kept].sort(order);
      return { ...state, messages, hasMore: action.hasMore, page: action.page, loading: false };
    }
    case "jump": {
      // The page around the message replaces what was shown (it may be far from page 1).
      return {
        messages: action.messages.slice().sort(order),
        hasMore: action.hasMore,
        page: action.page,
        loading: false,
        newest: action.page,
        focus: action.focus,
      };
    }
    case "newer": {
      const ids = new Set(action.messages.map((m) => m.id));
      const kept = state.messages.filter((m) => !ids.has(m.id));
      const messages = [...kept, ...action.messages].sort(order);
      return { ...state, messages, newest: Math.min(state.newest, action.page) };
    }
    case "focus":
      return { ...state, focus: action.focus };
    case "upsert": {
      const index = state.messages.findIndex((m) => m.id === action.message.id);
      if (index === -1) {
        return { ...state, messages: [...state.messages, action.message].sort(order) };
      }
      const messages = state.messages.slice();
      messages[index] = { ...messages[index], ...action.message };
      return { ...state, messages };
    }
  }
}

export type TimelineItem =
  | { kind: "day"; key: string; at: string }
  | { kind: "ended"; key: string; at: string }
  | { kind: "started"; key: string; at: string }
  | { kind: "message"; key: string; message: Message; first: boolean };

function dayOf(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
}

/**
 * The items to draw, in order: a day separator before the first message of each day; between
 * two tickets of the contact, 'conversation ended' (at the last message of the older ticket)
 * and 'conversation started' (at the first of the newer). `first` marks the first message of a
 * run from the same side, which gets the bubble's tail.
 */
export function timeline(messages: readonly Message[]): TimelineItem[] {
  const items: TimelineItem[] = [];
  let previous: Message | null = null;
  for (const message of messages) {
    if (previous && previous.ticketId !== message.ticketId) {
      items.push({ kind: "ended", key: `ended-${previous.id}`, at: previous.createdAt });
      items.push({ kind: "started", key: `started-${message.id}`, at: message.createdAt });
    }
    const newDay = !previous || dayOf(previous.createdAt) !== dayOf(message.createdAt);
    if (newDay) items.push({ kind: "day", key: `day-${message.id}`, at: message.createdAt });
    const first = newDay || !previous || previous.fromMe !== message.fromMe ||
      previous.ticketId !== message.ticketId;
    items.push({ kind: "message", key: `m-${message.id}`, message, first });
    previous = message;
  }
  return items;
}
