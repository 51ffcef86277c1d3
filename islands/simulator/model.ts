/**
 * The /simulator page's conversation model. The page acts as a contact's phone: what the contact
 * sent is kept in this browser (the server keeps it as ticket messages), what the connection sent
 * to the contact comes from GET /api/simulator/:id/sent. Pure functions, tested in
 * tests/islands/simulator_test.ts.
 */

/** Numbers show the way every page shows them (the kanban's cards too). */
export { formatPhone } from "../lib/phone.ts";

/** GET /api/simulator/:id/sent: one message the connection sent (routes/api/simulator.ts). */
export type SentItem = {
  seq: number;
  id: string;
  to: string;
  body: string;
  media: { mimetype: string; filename: string | null; size: number | null; ptt: boolean } | null;
  quotedId: string | null;
  ack: number;
  deleted: boolean;
  /** Issue 28: sent as a forward; edited since it was sent. */
  forwarded?: boolean;
  edited?: boolean;
  createdAt: string;
};

/** A message the contact sent from the simulated phone. */
export type OwnMessage = {
  /** The WhatsApp id the server stored it under (null until the answer). */
  wid: string | null;
  /** Client-side id, stable from the moment it is typed. */
  key: string;
  body: string;
  media?: { mimetype: string; filename: string; size: number; kind: MediaKind };
  quotedId?: string;
  /** ms since the epoch, this browser's clock. */
  at: number;
  /** stored: the 2xx receipt; ignored: accepted but not stored (e.g. groups ignored). */
  state: "sending" | "stored" | "ignored" | "failed";
  edited?: boolean;
  revoked?: boolean;
  /** A duplicate the server recognised (same id delivered twice). */
  duplicate?: boolean;
};

export type MediaKind = "image" | "audio" | "video" | "document";

export function mediaKind(mimetype: string): MediaKind {
  const type = mimetype.split("/")[0];
  if (type === "image" || type === "audio" || type === "video") return type;
  return "document";
}

/** One line of the chat as the phone shows it. */
export type ChatItem =
  | { side: "contact"; at: number; message: OwnMessage }
  | { side: "company"; at: number; message: SentItem };

/**
 * Both sides in one timeline, oldest first: the company's messages by the server's clock, the
 * contact's by this browser's (the two agree closely enough for a chat view).
 */
export function timeline(own: OwnMessage[], sent: SentItem[]): ChatItem[] {
  const items: ChatItem[] = [
    ...own.map((message) => ({ side: "contact" as const, at: message.at, message })),
    ...sent.map((message) => ({
      side: "company" as const,
      at: Date.parse(message.createdAt) || 0,
      message,
    })),
  ];
  return items.sort((a, b) => {
    if (a.at !== b.at) return a.at - b.at;
    if (a.side === "company" && b.side === "company") return a.message.seq - b.message.seq;
    if (a.side !== b.side) return a.side === "company" ? -1 : 1;
    return 0;
  });
}

/** The digits of a phone number as the simulator API wants them (8 to 15). */
export function phoneDigits(value: string): string {
  return value.replace(/\D/g, "");
}

export function validPhone(value: string): boolean {
  const digits = phoneDigits(value);
  return digits.length >= 8 && digits.length <= 15;
}

export function initials(name: string, fallback: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return fallback.slice(-2);
  return (words[0][0] + (words.length > 1 ? words[words.length - 1][0] : "")).toUpperCase();
}

/** ack 1 single tick, 2 delivered, 3 read, 4 or 5 read/played (seeds/000 section 4). */
export function ackState(ack: number): "sent" | "delivered" | "read" | "pending" {
  if (ack >= 3) return "read";
  if (ack === 2) return "delivered";
  if (ack === 1) return "sent";
  return "pending";
}

export function humanSize(bytes: number | null | undefined): string {
  if (!bytes || bytes < 0) return "";
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** A plausible Brazilian mobile number to play a new contact: 55 + area + 9 + 8 digits. */
export function randomPhone(random: () => number = Math.random): string {
  const areas = ["11", "21", "31", "41", "51", "61", "71", "81", "85", "13"];
  const area = areas[Math.floor(random() * areas.length)];
  let rest = "";
  for (let i = 0; i < 8; i++) rest += String(Math.floor(random() * 10));
  return `55${area}9${rest}`;
}

// ---- kept in this browser (localStorage) ----

export type SavedContact = { number: string; name: string };

const CONTACTS_KEY = "balcao.simulator.contacts";
const CHAT_PREFIX = "balcao.simulator.chat.";
const MAX_CONTACTS = 12;
const MAX_MESSAGES = 300;

function read<T>(key: string, fallback: T): T {
  try {
    const raw = globalThis.localStorage?.getItem(key);
    return raw ? JSON.parse(raw) as T : fallback;
  } catch {
    return fallback;
  }
}

function write(key: string, value: unknown) {
  try {
    globalThis.localStorage?.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or disabled: the chat still works for this visit
  }
}

export function savedContacts(): SavedContact[] {
  return read<SavedContact[]>(CONTACTS_KEY, []);
}

/** Remembers a contact (most recent first, without duplicates). */
export function rememberContact(contact: SavedContact): SavedContact[] {
  const list = [
    contact,
    ...savedContacts().filter((c) => phoneDigits(c.number) !== phoneDigits(contact.number)),
  ].slice(0, MAX_CONTACTS);
  write(CONTACTS_KEY, list);
  return list;
}

export function forgetContact(number: string): SavedContact[] {
  const list = savedContacts().filter((c) => phoneDigits(c.number) !== phoneDigits(number));
  write(CONTACTS_KEY, list);
  return list;
}

function chatKey(whatsappId: number, number: string): string {
  return `${CHAT_PREFIX}${whatsappId}.${phoneDigits(number)}`;
}

export function loadOwn(whatsappId: number, number: string): OwnMessage[] {
  // A send interrupted by a reload never got its receipt: show it as failed, not as sending.
  return read<OwnMessage[]>(chatKey(whatsappId, number), []).map((m) =>
    m.state === "sending" ? { ...m, state: "failed" } : m
  );
}

export function saveOwn(whatsappId: number, number: string, messages: OwnMessage[]) {
  write(chatKey(whatsappId, number), messages.slice(-MAX_MESSAGES));
}

export function clearOwn(whatsappId: number, number: string) {
  try {
    globalThis.localStorage?.removeItem(chatKey(whatsappId, number));
  } catch {
    // nothing kept
  }
}

/** Reads a File as the bare base64 the simulator API takes. */
export function fileToBase64(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(",") + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error("cannot read the file"));
    reader.readAsDataURL(file);
  });
}
