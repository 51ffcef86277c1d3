/**
 * Wall-clock time in the product's market. Timestamps are stored in UTC; what a person calls
 * "today" or "good morning" is local time. One zone for now (the one working hours use).
 */
export const DEFAULT_TIME_ZONE = "America/Sao_Paulo";

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

/** HH:mm in the zone, for call logs. */
export function hourMinute(at: Date, timeZone = DEFAULT_TIME_ZONE): string {
  const t = wallClock(at, timeZone);
  return `${String(t.hour).padStart(2, "0")}:${String(t.minute).padStart(2, "0")}`;
}
