/**
 * Web Push (issue 42): what a user may be told with the tab closed, what the service worker
 * receives, and the choices and devices the security dialog shows. Server and browser read it.
 */

/** The kinds of push, each switched on or off by the user. */
export const PUSH_KINDS = ["newTicket", "message", "transfer", "sla", "chat"] as const;
export type PushKind = typeof PUSH_KINDS[number];

/** The decrypted payload the service worker (static/sw.js) shows; `url` opens on a click. */
export type PushPayload = {
  kind: PushKind;
  title: string;
  body: string;
  /** A path of this app (`/tickets/<uuid>`, `/chats/<uuid>`). */
  url: string;
  /** Notifications of one ticket or chat replace each other. */
  tag: string;
};

/** GET /api/push/key. */
export type PushKeyAnswer = { publicKey: string };

/** One device of the user (GET /api/push/subscriptions). */
export type PushDeviceView = {
  id: number;
  userAgent: string | null;
  createdAt: string;
  lastSentAt: string | null;
  /** Made by the session asking. */
  current: boolean;
};

/** The user's choices (GET/PUT /api/push/preferences); quiet hours in the company's time zone. */
export type PushPreferences = {
  kinds: PushKind[];
  /** The message's text on the lock screen; off: "Nova mensagem de <contato>". */
  showText: boolean;
  /** HH:MM, both or neither; a range past midnight (22:00-07:00) is allowed. */
  quietStart: string | null;
  quietEnd: string | null;
};

export const DEFAULT_PUSH_PREFERENCES: PushPreferences = {
  kinds: [...PUSH_KINDS],
  showText: false,
  quietStart: null,
  quietEnd: null,
};

/** Whether `hhmm` (the wall clock now) falls in the quiet hours [start, end). */
export function inQuietHours(prefs: PushPreferences, hhmm: string): boolean {
  const { quietStart: start, quietEnd: end } = prefs;
  if (start === null || end === null || start === end) return false;
  return start < end ? hhmm >= start && hhmm < end : hhmm >= start || hhmm < end;
}
