import type { OtherOpenTicket } from "../../contract/ticket_types.ts";
import { wallClock } from "../../contract/time_zone.ts";

/**
 * Pure rules of the tickets page (seeds/000 sections 2, 5 and 9), kept apart from the components
 * so that tests can pin them down.
 */

/** seeds/000 section 9: list and message fetches are debounced 500 ms. */
export const FETCH_DEBOUNCE_MS = 500;
/** seeds/000 section 9: contact and user searches wait 500 ms and need 3 characters. */
export { SEARCH_DEBOUNCE_MS, SEARCH_MIN_CHARS } from "../lib/list/list_controller.ts";
/** seeds/000 section 9: older messages load within 50 px of the top. */
export const MESSAGES_TOP_THRESHOLD_PX = 50;
/** seeds/000 section 9: the ticket list loads the next page within 100 px of the bottom. */
export const LIST_BOTTOM_THRESHOLD_PX = 100;
/** seeds/000 section 9: quick-answer labels are cut at 35 characters. */
export const QUICK_LABEL_MAX = 35;
/** seeds/000 section 2: contact names are cut to 10 characters under 600 px. */
export const NARROW_NAME_MAX = 10;
/** seeds/000 sections 5 and 9: recorded audio under 10000 bytes is discarded. */
export const AUDIO_MIN_BYTES = 10_000;
/** seeds/000 section 2: the message input grows up to 5 rows. */
export const INPUT_MAX_ROWS = 5;
/** seeds/000 section 5: a ticket note has at least 2 characters. */
export const NOTE_MIN_CHARS = 2;

const pad = (n: number) => String(n).padStart(2, "0");

// Every time here is read on the company's clock (`zone`: useCompanyClock().zone; issue 24
// item 6), not the browser's.

export function sameDay(a: Date, b: Date, zone: string): boolean {
  const x = wallClock(a, zone);
  const y = wallClock(b, zone);
  return x.year === y.year && x.month === y.month && x.day === y.day;
}

export function hhmm(date: Date, zone: string): string {
  const w = wallClock(date, zone);
  return `${pad(w.hour)}:${pad(w.minute)}`;
}

export function ddMMyyyy(date: Date, zone: string): string {
  const w = wallClock(date, zone);
  return `${pad(w.day)}/${pad(w.month)}/${w.year}`;
}

/** seeds/000 section 2: the list shows the time of day for today, otherwise dd/MM/yyyy. */
export function listTime(iso: string, zone: string, now = new Date()): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return sameDay(date, now, zone) ? hhmm(date, zone) : ddMMyyyy(date, zone);
}

/** seeds/000 section 9: notes are dated DD/MM/YY HH:mm. */
export function noteTime(iso: string, zone: string): string {
  const d = new Date(iso);
  const day = ddMMyyyy(d, zone);
  return `${day.slice(0, 6)}${day.slice(-2)} ${hhmm(d, zone)}`;
}

/** The day separator's label: "today", "yesterday" or dd/MM/yyyy. */
export function dayKind(
  iso: string,
  zone: string,
  now = new Date(),
): "today" | "yesterday" | string {
  const date = new Date(iso);
  if (sameDay(date, now, zone)) return "today";
  if (sameDay(date, new Date(now.getTime() - 86_400_000), zone)) return "yesterday";
  return ddMMyyyy(date, zone);
}

/** seeds/000 section 2: contact names cut to 10 characters on narrow screens. */
export function cutName(name: string, narrow: boolean): string {
  return narrow && name.length > NARROW_NAME_MAX ? `${name.slice(0, NARROW_NAME_MAX)}...` : name;
}

/** seeds/000 section 9: quick-answer labels cut at 35 characters. */
export function cutLabel(text: string, max = QUICK_LABEL_MAX): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** Minutes and seconds of the audio recorder's timer (seeds/000 section 2). */
export function mmss(totalSeconds: number): string {
  const s = Math.max(0, Math.floor(totalSeconds));
  return `${pad(Math.floor(s / 60))}:${pad(s % 60)}`;
}

/** seeds/000 section 5: empty or blank text is never sent. */
export function isBlank(text: string | null | undefined): boolean {
  return !text || text.trim() === "";
}

/** seeds/000 section 9: the sign-message option prefixes the user's name in bold. */
export function signedBody(text: string, userName: string, sign: boolean): string {
  const body = text.trim();
  return sign ? `*${userName}:*\n${body}` : body;
}

/**
 * Shortcut suggestions open when the text starts with / (seeds/000 section 5 waited for a second
 * character; issue 50 item 10: "/" alone lists them all, as the input's placeholder promises).
 * Returns what to match shortcodes against ("" matches every one), or null when closed.
 */
export function quickAnswerQuery(text: string): string | null {
  // "/" alone is the whole menu (the placeholder promises it, issue 50 item 10).
  if (!text.startsWith("/")) return null;
  return text.slice(1).toLowerCase();
}

/** The owner and queue of the other open ticket, from ERR_OTHER_OPEN_TICKET's JSON message. */
export function parseOtherTicket(message: string): OtherOpenTicket | null {
  try {
    const value = JSON.parse(message);
    if (!value || typeof value !== "object") return null;
    return {
      id: typeof value.id === "number" ? value.id : undefined,
      uuid: typeof value.uuid === "string" ? value.uuid : undefined,
      status: value.status,
      userId: typeof value.userId === "number" ? value.userId : null,
      user: value.user && typeof value.user.name === "string" ? value.user : null,
      queueId: typeof value.queueId === "number" ? value.queueId : null,
      queue: value.queue && typeof value.queue.name === "string" ? value.queue : null,
    };
  } catch {
    return null;
  }
}

/** A location message's body: a maps link, then the place's description (server/whatsapp/inbound/bodies.ts). */
export function parseLocation(body: string): { url: string; description: string } | null {
  const [first, ...rest] = body.split("\n");
  if (!/^https:\/\/maps\.google\.com\//.test(first.trim())) return null;
  return { url: first.trim(), description: rest.join("\n").trim() };
}

/** A vCard message's name and number. */
export function parseVcard(body: string): { name: string; number: string } | null {
  if (!body.includes("BEGIN:VCARD")) return null;
  const name = body.match(/^FN:(.*)$/m)?.[1]?.replace(/\\([\\,;])/g, "$1").trim() ?? "";
  const tel = body.match(/^TEL[^:]*:(.*)$/m)?.[1]?.trim() ?? "";
  const waid = body.match(/waid=(\d+)/)?.[1];
  return { name, number: waid ?? tel.replace(/[^\d+]/g, "") };
}

/** Initials for an avatar without a picture. */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "?";
  const first = [...words[0]][0] ?? "";
  const last = words.length > 1 ? [...words[words.length - 1]][0] ?? "" : "";
  return (first + last).toUpperCase();
}

/** A stable hue per name, so that avatars without pictures are told apart at a glance. */
export function hueOf(text: string): number {
  let hash = 0;
  for (let i = 0; i < text.length; i++) hash = (hash * 31 + text.charCodeAt(i)) | 0;
  return Math.abs(hash) % 360;
}
