import { zoneOffsetMs } from "../../contract/time_zone.ts";
import { TIME_OF_DAY } from "../../contract/working_hours.ts";

/**
 * Weekly working hours (seeds/001 section 3): entries of weekday (pt name), weekdayEn,
 * startTime and endTime as HH:MM. "00:00"-"00:00" means closed that day.
 */
export type WorkingHoursEntry = {
  weekday: string;
  weekdayEn: string;
  startTime: string;
  endTime: string;
};

const WEEKDAYS: [string, string][] = [
  ["Domingo", "sunday"],
  ["Segunda-feira", "monday"],
  ["Terça-feira", "tuesday"],
  ["Quarta-feira", "wednesday"],
  ["Quinta-feira", "thursday"],
  ["Sexta-feira", "friday"],
  ["Sábado", "saturday"],
];

/** Defaults: Monday to Friday 08:00-18:00, Saturday 08:00-12:00, Sunday closed. */
export function defaultWorkingHours(): WorkingHoursEntry[] {
  const order = [1, 2, 3, 4, 5, 6, 0];
  return order.map((d) => {
    const [weekday, weekdayEn] = WEEKDAYS[d];
    if (d === 0) return { weekday, weekdayEn, startTime: "00:00", endTime: "00:00" };
    if (d === 6) return { weekday, weekdayEn, startTime: "08:00", endTime: "12:00" };
    return { weekday, weekdayEn, startTime: "08:00", endTime: "18:00" };
  });
}

export const TIME_PATTERN = TIME_OF_DAY;

function minutes(hhmm: string): number {
  const [h, m] = hhmm.split(":").map(Number);
  return h * 60 + m;
}

/**
 * Is `at` inside the hours? Times are wall-clock in `timeZone` (the company's: its setting
 * `timeZone`, settings/values.ts companyTimeZone). A day missing from the list counts as closed.
 */
export function isWithinHours(
  hours: readonly WorkingHoursEntry[],
  at: Date,
  timeZone: string,
): boolean {
  const { weekdayEn, minute: now } = wallClock(at, timeZone);
  const entry = hours.find((h) => h.weekdayEn.toLowerCase() === weekdayEn);
  if (!entry || !TIME_PATTERN.test(entry.startTime) || !TIME_PATTERN.test(entry.endTime)) {
    return false;
  }
  const start = minutes(entry.startTime);
  const end = minutes(entry.endTime);
  if (start === end) return false;
  return now >= start && now < end;
}

/** One formatter per zone: making one costs far more than using it (distribution asks per person). */
const FORMATTERS = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = FORMATTERS.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      weekday: "long",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    FORMATTERS.set(timeZone, formatter);
  }
  return formatter;
}

/** The weekday (English, lower case) and minute of the day of `at` on the zone's wall clock. */
function wallClock(at: Date, timeZone: string) {
  const parts = formatterOf(timeZone).formatToParts(at);
  return {
    weekdayEn: parts.find((p) => p.type === "weekday")!.value.toLowerCase(),
    minute: Number(parts.find((p) => p.type === "hour")!.value) * 60 +
      Number(parts.find((p) => p.type === "minute")!.value),
  };
}

/**
 * Is `at` within a user's daily work hours (issue 26: users.startWork/endWork, HH:MM on the
 * zone's wall clock)? Unset means any time; an end before the start is a shift over midnight.
 */
export function isWithinDailyHours(
  startWork: string | null,
  endWork: string | null,
  at: Date,
  timeZone: string,
): boolean {
  if (startWork === null || endWork === null) return true;
  if (!TIME_PATTERN.test(startWork) || !TIME_PATTERN.test(endWork)) return true;
  const now = wallClock(at, timeZone).minute;
  const start = minutes(startWork);
  const end = minutes(endWork);
  return start < end ? now >= start && now < end : now >= start || now < end;
}

/** Parses the JSON text stored in queues.schedules / companies.schedules. */
export function parseWorkingHours(json: string | null | undefined): WorkingHoursEntry[] {
  if (!json) return [];
  try {
    const value = JSON.parse(json);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

/**
 * The hours that decide a queue's distribution and service-level targets (issue 50): the queue's
 * own when the company's 'Gerenciamento de Expediente' (setting scheduleType) is "queue", the
 * company's (saved, else the default week) when "company", and none when it is off: the queue then
 * works around the clock, whatever hours it keeps stored for the day the setting is turned on.
 */
export function countedHours(
  scheduleType: string | null | undefined,
  queueSchedules: string | null | undefined,
  companySchedules: string | null | undefined,
): WorkingHoursEntry[] {
  if (scheduleType === "queue") return parseWorkingHours(queueSchedules);
  if (scheduleType === "company") {
    const saved = parseWorkingHours(companySchedules);
    return saved.length > 0 ? saved : defaultWorkingHours();
  }
  return [];
}

const DAY_MS = 86_400_000;
const WEEKDAYS_EN = WEEKDAYS.map(([, en]) => en);

/**
 * The open stretches of the week from `start` on, as [from, to) epoch ms, in order; nothing when
 * the hours have no open day (the callers then count every minute). One step per day, the zone's
 * offset read per day (daylight saving changes); 400 weeks bound any target the API accepts.
 */
function* openStretches(
  start: number,
  hours: readonly WorkingHoursEntry[],
  timeZone: string,
): Generator<[number, number]> {
  const open = hours.filter((h) =>
    TIME_PATTERN.test(h.startTime) && TIME_PATTERN.test(h.endTime) &&
    minutes(h.startTime) < minutes(h.endTime)
  );
  if (open.length === 0) return;
  let cursor = start;
  for (let step = 0; step < 2_800; step++) {
    const offset = zoneOffsetMs(cursor, timeZone);
    const wall = new Date(cursor + offset);
    const midnight = Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth(), wall.getUTCDate());
    const entry = open.find((h) => h.weekdayEn.toLowerCase() === WEEKDAYS_EN[wall.getUTCDay()]);
    if (entry) {
      const from = Math.max(cursor, midnight + minutes(entry.startTime) * 60_000 - offset);
      const to = midnight + minutes(entry.endTime) * 60_000 - offset;
      if (from < to) yield [from, to];
    }
    cursor = midnight + DAY_MS - offset;
  }
}

/**
 * The instant `target` minutes of working time after `start` (issue 26's service-level targets:
 * nights, weekends and closed days do not count). Hours with no open day at all count every
 * minute (a queue without hours works around the clock).
 */
export function addWorkingMinutes(
  start: Date,
  target: number,
  hours: readonly WorkingHoursEntry[],
  timeZone: string,
): Date {
  let remaining = target * 60_000;
  let last = start.getTime();
  let any = false;
  for (const [from, to] of openStretches(start.getTime(), hours, timeZone)) {
    any = true;
    if (to - from >= remaining) return new Date(from + remaining);
    remaining -= to - from;
    last = to;
  }
  return new Date(any ? last : start.getTime() + remaining);
}

/**
 * Working time between two instants, in ms (issue 26: how long a paused resolution clock stood
 * still, counted as its target is). Hours with no open day count every minute.
 */
export function workingMsBetween(
  from: Date,
  to: Date,
  hours: readonly WorkingHoursEntry[],
  timeZone: string,
): number {
  const end = to.getTime();
  if (end <= from.getTime()) return 0;
  let total = 0;
  let any = false;
  for (const [a, b] of openStretches(from.getTime(), hours, timeZone)) {
    any = true;
    if (a >= end) break;
    total += Math.min(b, end) - a;
  }
  return any ? total : end - from.getTime();
}
