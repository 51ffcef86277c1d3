/**
 * Wall-clock time. Timestamps are stored in UTC; what a person types or reads ("23:42", "today",
 * "good morning") is the company's clock: one rule (issue 24 item 6), the company's zone, the
 * setting `timeZone` (default America/Sao_Paulo, the product's market), for typing and showing
 * dates and times everywhere, on the server and in the browser (whatever the browser's zone).
 */
export const DEFAULT_TIME_ZONE = "America/Sao_Paulo";

import { TIME_ZONE_SETTING } from "./time_zone_setting.ts";
export { TIME_ZONE_SETTING };

/** The zones the settings page offers (Brazil's first; the API takes any IANA name). */
export const TIME_ZONES = [
  "America/Sao_Paulo",
  "America/Bahia",
  "America/Fortaleza",
  "America/Recife",
  "America/Belem",
  "America/Manaus",
  "America/Cuiaba",
  "America/Campo_Grande",
  "America/Porto_Velho",
  "America/Boa_Vista",
  "America/Rio_Branco",
  "America/Noronha",
  "America/Argentina/Buenos_Aires",
  "America/Santiago",
  "America/Bogota",
  "America/Lima",
  "America/Mexico_City",
  "America/New_York",
  "Europe/Lisbon",
  "Europe/Madrid",
  "UTC",
] as const;

/** Is this an IANA zone name the runtime knows? */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A company's zone from its settings (key/value rows); the default when unset or unknown. */
export function zoneOf(settings: readonly { key: string; value: string }[]): string {
  const value = settings.find((s) => s.key === TIME_ZONE_SETTING)?.value ?? "";
  return isTimeZone(value) ? value : DEFAULT_TIME_ZONE;
}

export type WallClock = {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
};

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock reading of an instant in a zone. */
export function wallClock(at: Date, timeZone = DEFAULT_TIME_ZONE): WallClock {
  const parts: Record<string, number> = {};
  for (const p of formatter(timeZone).formatToParts(at)) {
    if (p.type !== "literal") parts[p.type] = Number(p.value);
  }
  return {
    year: parts.year,
    month: parts.month,
    day: parts.day,
    hour: parts.hour,
    minute: parts.minute,
    second: parts.second,
  };
}

/** How far the wall clock of `timeZone` is ahead of UTC at instant `at` (ms; -3 h for São Paulo). */
export function zoneOffsetMs(at: number, timeZone = DEFAULT_TIME_ZONE): number {
  const t = wallClock(new Date(at), timeZone);
  const wall = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  return wall - Math.floor(at / 1000) * 1000;
}

/** The instant at which the zone's clock reads the given local time (DST-safe to the minute). */
export function zonedInstant(local: WallClock, timeZone = DEFAULT_TIME_ZONE): Date {
  const asUtc = Date.UTC(
    local.year,
    local.month - 1,
    local.day,
    local.hour,
    local.minute,
    local.second,
  );
  // The zone's offset at that moment, measured by reading the clock there; twice, so that an
  // instant near a DST switch settles on the offset in force at the result.
  let guess = asUtc;
  for (let i = 0; i < 2; i++) {
    const seen = wallClock(new Date(guess), timeZone);
    const seenUtc = Date.UTC(
      seen.year,
      seen.month - 1,
      seen.day,
      seen.hour,
      seen.minute,
      seen.second,
    );
    guess = asUtc - (seenUtc - guess);
  }
  return new Date(guess);
}

/**
 * [start, end) in UTC ISO text of a local calendar day "YYYY-MM-DD" (or an ISO timestamp, whose
 * first ten characters name the day), for range filters over the stored UTC timestamps.
 */
export function dayRange(day: string, timeZone = DEFAULT_TIME_ZONE): [string, string] {
  const [year, month, date] = day.slice(0, 10).split("-").map(Number);
  const start = zonedInstant({ year, month, day: date, hour: 0, minute: 0, second: 0 }, timeZone);
  const next = new Date(Date.UTC(year, month - 1, date + 1));
  const end = zonedInstant({
    year: next.getUTCFullYear(),
    month: next.getUTCMonth() + 1,
    day: next.getUTCDate(),
    hour: 0,
    minute: 0,
    second: 0,
  }, timeZone);
  return [start.toISOString(), end.toISOString()];
}

export const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}/;

const LOCAL_TEXT = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** A typed local time, "YYYY-MM-DD HH:mm[:ss]" (or with a T), as a wall clock; null otherwise. */
export function parseWallClock(text: string): WallClock | null {
  const m = LOCAL_TEXT.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((v) => Number(v ?? 0));
  return { year, month, day, hour, minute, second };
}

const pad = (n: number) => String(n).padStart(2, "0");

/** An instant as `<input type="datetime-local">` shows it on the zone's clock (minutes). */
export function zonedInputValue(at: Date | string, timeZone: string): string {
  const w = wallClock(new Date(at), timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}

/** The instant a datetime-local value names on the zone's clock (ISO); null when not a time. */
export function instantOfInput(value: string, timeZone: string): string | null {
  const local = parseWallClock(value);
  return local ? zonedInstant(local, timeZone).toISOString() : null;
}

/** The zone's calendar day of an instant, "YYYY-MM-DD". */
export function localDay(at: Date, timeZone: string): string {
  const w = wallClock(at, timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

/**
 * One stretch of a zone's time with one offset: from `fromMs` on (until the next span's start)
 * the zone's clock reads `offsetMinutes` ahead of UTC (-180 for São Paulo).
 */
export type ZoneSpan = { fromMs: number; offsetMinutes: number };

/** Probing step: no zone changes its offset twice within two weeks. */
const PROBE_MS = 14 * 86_400_000;

const offsetMinutesAt = (ms: number, timeZone: string) => zoneOffsetMs(ms, timeZone) / 60_000;

/**
 * The offsets a zone keeps over [fromMs, toMs), in order, the first one starting at fromMs: a
 * daylight-saving change inside the interval starts a new span (found to the second). What turns
 * stored UTC instants into the company's local days and hours in bulk (reports, the database's
 * zone_offsets) without asking Intl once per row.
 */
export function zoneSpans(timeZone: string, fromMs: number, toMs: number): ZoneSpan[] {
  const spans: ZoneSpan[] = [{ fromMs, offsetMinutes: offsetMinutesAt(fromMs, timeZone) }];
  let at = fromMs;
  while (at < toMs) {
    const next = Math.min(at + PROBE_MS, toMs);
    const current = spans[spans.length - 1].offsetMinutes;
    const seen = offsetMinutesAt(next, timeZone);
    if (seen !== current) {
      // The first second with the new offset lies in (at, next]: halve until it is found.
      let lo = at;
      let hi = next;
      while (hi - lo > 1000) {
        const mid = lo + Math.floor((hi - lo) / 2000) * 1000;
        if (offsetMinutesAt(mid, timeZone) === current) lo = mid;
        else hi = mid;
      }
      spans.push({ fromMs: hi, offsetMinutes: offsetMinutesAt(hi, timeZone) });
      at = hi;
      continue;
    }
    at = next;
  }
  return spans;
}

/** The offset (minutes) a list of spans gives an instant (before the first: the first's). */
export function offsetIn(spans: readonly ZoneSpan[], ms: number): number {
  let offset = spans[0]?.offsetMinutes ?? 0;
  for (const span of spans) {
    if (span.fromMs > ms) break;
    offset = span.offsetMinutes;
  }
  return offset;
}

/** HH:mm in the zone, for call logs. */
export function hourMinute(at: Date, timeZone = DEFAULT_TIME_ZONE): string {
  const t = wallClock(at, timeZone);
  return `${String(t.hour).padStart(2, "0")}:${String(t.minute).padStart(2, "0")}`;
}
