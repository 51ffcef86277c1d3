import { AppError } from "../errors.ts";
import { dayRange, localDay } from "../../contract/time_zone.ts";

/**
 * The dashboard's and reports' date filter (seeds/000 sections 2 and 5). Dates are calendar days
 * in the company's time zone (its setting `timeZone`: settings/values.ts companyTimeZone); the
 * range [from 00:00, day after `to` 00:00) is turned into UTC instants to compare with the stored
 * ISO-8601 UTC timestamps.
 */

export type DashboardRange = {
  /** First day, YYYY-MM-DD, local. */
  from: string;
  /** Last day (inclusive), YYYY-MM-DD, local. */
  to: string;
  /** UTC instants: startUtc inclusive, endUtc exclusive. */
  startUtc: string;
  endUtc: string;
};

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

function isRealDate(value: string | undefined): value is string {
  if (!value || !DATE.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

export function rangeOf(from: string, to: string, timeZone: string): DashboardRange {
  return { from, to, startUtc: dayRange(from, timeZone)[0], endUtc: dayRange(to, timeZone)[1] };
}

export type RangeQuery = { days?: string; date_from?: string; date_to?: string };

/**
 * - no parameter at all: the first day of the current month to today (seeds/000 section 2);
 * - `days` = N (1..366): the last N calendar days, today included (3 = day before yesterday,
 *   yesterday, today);
 * - else `date_from` (and `date_to`, default today), both real dates, from <= to;
 * - anything else (period "none" without valid dates): 400 'Parametrize o filtro'.
 */
export function resolveRange(
  query: RangeQuery,
  now: Date,
  timeZone: string,
): DashboardRange {
  const today = localDay(now, timeZone);
  const blank = (v: string | undefined) => v === undefined || v.trim() === "";
  if (query.days === undefined && query.date_from === undefined && query.date_to === undefined) {
    return rangeOf(`${today.slice(0, 8)}01`, today, timeZone);
  }
  const days = Number(query.days);
  if (!blank(query.days) && Number.isInteger(days) && days >= 1 && days <= 366) {
    return rangeOf(addDays(today, -(days - 1)), today, timeZone);
  }
  const to = blank(query.date_to) ? today : query.date_to;
  if (isRealDate(query.date_from) && isRealDate(to) && query.date_from <= to) {
    return rangeOf(query.date_from, to, timeZone);
  }
  throw new AppError(400, "ERR_VALIDATION", "Parametrize o filtro");
}
