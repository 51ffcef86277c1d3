/**
 * The length and format rules of the specification's forms, written once: the forms check them
 * before sending (messages are i18n keys under "people.validation") and the routes' zod schemas
 * are built from the same LIMITS (server/http/fields.ts), so the browser and the server cannot
 * disagree. Plain functions rather than zod in the browser: they cost the page nothing.
 */
export type Limit = { min: number; max: number };

export const LIMITS = {
  /** seeds/000 section 5: users, contacts, connections; seeds/001 section 5: queues. */
  name: { min: 2, max: 50 },
  /** seeds/000 section 5 and seeds/001 'Signup'. */
  password: { min: 5, max: 50 },
  /** seeds/000 section 5 'Contact form'. */
  contactNumber: { min: 8, max: 50 },
  /** seeds/001 section 5 'Queue': colour 3 to 9 characters. */
  color: { min: 3, max: 9 },
  /** seeds/001 section 5 'Tag': at least 3 ('Mensagem muito curta'). */
  tagName: { min: 3, max: 60 },
  /** seeds/001 section 5 'Quick message': shortcode required. */
  shortcode: { min: 1, max: 60 },
  /** seeds/001 section 5 'Schedule': body at least 5 ('Mensagem muito curta'). */
  scheduleBody: { min: 5, max: 10_000 },
  /** seeds/002 section 5 'Chat dialog': title required. */
  chatTitle: { min: 1, max: 100 },
  /** seeds/002 section 5 'Chat message': not blank; the maximum is ours (ERR_MESSAGE_TOO_LONG). */
  chatMessage: { min: 1, max: 4_000 },
  /** seeds/002 section 5 'Announcement': title and text required ('Obrigatório'). */
  announcementTitle: { min: 1, max: 200 },
  announcementText: { min: 1, max: 5_000 },
  /** Issue 16: a webhook's URL. */
  url: { min: 1, max: 2000 },
  /** Issue 26: a user's capacity (open tickets distribution gives them). */
  maxOpenTickets: { min: 1, max: 1000 },
  /** Issue 26: a queue's service-level targets, in business minutes (a year of 24 h days). */
  slaMinutes: { min: 1, max: 525_600 },
  /** Issue 50 item 17: the company's `distributionOfflineMinutes` (0: never take back). */
  offlineMinutes: { min: 0, max: 9999 },
  /** Issue 28: tickets one user may pin to the top of their lists (ERR_PIN_LIMIT past it). */
  pinnedTickets: { min: 0, max: 10 },
  /** Issue 28: the search inside a conversation (GET /api/messages/:ticketId/search). */
  conversationSearch: { min: 1, max: 200 },
  /** Issue 28: the greeting sent when an attendant accepts a ticket (setting). */
  greetingAccepted: { min: 0, max: 500 },
  /** Issue 28: one forward's messages (a 50-message forward fits) and contacts. */
  forwardMessages: { min: 1, max: 100 },
  forwardContacts: { min: 1, max: 20 },
  /** Issue 28: an edited text (WhatsApp's own maximum for a text). */
  editedText: { min: 1, max: 65_536 },
} as const satisfies Record<string, Limit>;

/** Issue 28: WhatsApp lets a sent text be edited for this long (ERR_EDIT_WINDOW_EXPIRED after). */
export const EDIT_WINDOW_MINUTES = 15;

export { RULE_TEXTS, ruleKey } from "./rule_texts.ts";

/** At most this many participants in one internal chat (ours: keeps a chat's fan-out bounded). */
export const CHAT_MAX_USERS = 200;

export type Rule = (value: string) => string | null;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function length(limit: Limit, required = true): Rule {
  const { min, max } = limit;
  return (value) => {
    const v = value.trim();
    if (!v) return required ? "people.validation.required" : null;
    if (v.length < min) return "people.validation.tooShort";
    if (v.length > max) return "people.validation.tooLong";
    return null;
  };
}

export function email(required: boolean): Rule {
  return (value) => {
    const v = value.trim();
    if (!v) return required ? "people.validation.required" : null;
    return EMAIL.test(v) ? null : "people.validation.invalidEmail";
  };
}

/** A whole number within the limit; empty is allowed unless required (issue 26's numbers). */
export function wholeNumber(limit: Limit, required = false): Rule {
  return (value) => {
    const v = value.trim();
    if (!v) return required ? "people.validation.required" : null;
    if (!/^\d+$/.test(v) || Number(v) < limit.min || Number(v) > limit.max) {
      return "people.validation.wholeNumber";
    }
    return null;
  };
}

/** Field name -> first failing rule's key, for the fields that fail. */
export function check(
  values: Record<string, string>,
  rules: Record<string, Rule>,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [field, rule] of Object.entries(rules)) {
    const message = rule(values[field] ?? "");
    if (message) errors[field] = message;
  }
  return errors;
}
