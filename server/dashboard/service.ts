import type { AppDeps } from "../context.ts";
import { localDay, offsetIn, zoneSpans } from "../../contract/time_zone.ts";
import { companyTimeZone } from "../settings/values.ts";
import { type DashboardRange, rangeOf, type RangeQuery, resolveRange } from "./range.ts";
import * as repo from "./repository.ts";

/**
 * The dashboard (seeds/000 sections 2 and 3). Every number is about one company and a range
 * R = [first day 00:00, day after the last day 00:00) in the company's time zone (range.ts).
 * Durations are in minutes, rounded to 2 decimals; an average over nothing is 0.
 *
 * counters
 * - supportPending:   tickets whose status is now 'pending' and that were created in R.
 * - supportHappening: tickets whose status is now 'open' and that were created in R.
 * - supportFinished:  tickets whose status is now 'closed' and whose closedAt is in R
 *                     (a reopened ticket is not finished until it is closed again).
 * - leads:            contacts (not groups) created in R that have at least one ticket:
 *                     new people who started a conversation, not imported address-book rows.
 * - avgSupportTime:   over the finished tickets (as above) that were accepted:
 *                     average of closedAt - acceptedAt. Tickets closed straight from pending
 *                     (never accepted) have no support time and are left out.
 * - avgWaitTime:      over tickets whose acceptedAt is in R: average of acceptedAt - createdAt
 *                     (from the ticket's creation to the moment a user accepted it; acceptedAt
 *                     is the latest acceptance when a ticket was returned and accepted again).
 *
 * attendants: every user of the company, by name, with
 * - rating:         average of user_ratings.rate (1 unsatisfied .. 3 very satisfied) of the
 *                   ratings created in R for that user, 0 when none (the page shows 0..3 stars);
 * - avgSupportTime: like the counter, over the finished tickets whose userId is that user;
 * - finished:       how many of those tickets there are;
 * - online:         users.online, kept by the socket presence (a socket open = online).
 *
 * hourly: 24 buckets of the tickets created today (local day of "now"), bucket h holding
 * tickets created in [h:00, h+1:00) local time. It ignores the range: the chart is of today.
 */
export type DashboardCounters = {
  supportPending: number;
  supportHappening: number;
  supportFinished: number;
  leads: number;
  avgSupportTime: number;
  avgWaitTime: number;
};

export type Attendant = {
  id: number;
  name: string;
  rating: number;
  avgSupportTime: number;
  finished: number;
  online: boolean;
};

export type HourBucket = { hour: number; count: number };

export type Dashboard = {
  range: { from: string; to: string; timeZone: string };
  counters: DashboardCounters;
  attendants: Attendant[];
  hourly: HourBucket[];
};

function minutes(seconds: number | null | undefined): number {
  return seconds ? Math.round((seconds / 60) * 100) / 100 : 0;
}

function round2(value: number | null | undefined): number {
  return value ? Math.round(value * 100) / 100 : 0;
}

/**
 * Today's tickets in 24 hourly buckets (the hour on the company's clock; on a daylight-saving
 * day the repeated hour holds both, the skipped one nothing).
 */
export async function hourlyTickets(
  deps: AppDeps,
  companyId: number,
  timeZone?: string,
): Promise<{ date: string; hourly: HourBucket[] }> {
  const zone = timeZone ?? await companyTimeZone(deps.db, companyId);
  const today = localDay(deps.clock.now(), zone);
  const day = rangeOf(today, today, zone);
  const rows = await repo.ticketsByHour(deps.db, companyId, day.startUtc, day.endUtc);
  const spans = zoneSpans(zone, Date.parse(day.startUtc), Date.parse(day.endUtc));
  const hourly = Array.from({ length: 24 }, (_, hour) => ({ hour, count: 0 }));
  for (const r of rows) {
    const at = Date.parse(`${r.hour}:00:00Z`);
    const local = new Date(at + offsetIn(spans, at) * 60_000).getUTCHours();
    hourly[local].count += Number(r.count);
  }
  return { date: today, hourly };
}

/** GET /api/dashboard: counters and attendants for the range, and today's hourly chart. */
export async function dashboard(
  deps: AppDeps,
  companyId: number,
  query: RangeQuery,
): Promise<Dashboard> {
  const timeZone = await companyTimeZone(deps.db, companyId);
  const range: DashboardRange = resolveRange(query, deps.clock.now(), timeZone);
  const [totals, stats, users, today] = await Promise.all([
    repo.counters(deps.db, companyId, range),
    repo.statsByUser(deps.db, companyId, range),
    repo.companyUsers(deps.db, companyId),
    hourlyTickets(deps, companyId, timeZone),
  ]);
  // Every finished ticket belongs to exactly one group (a user, or none): totals are sums.
  const sum = (pick: (s: repo.UserStats) => number) => stats.reduce((n, s) => n + pick(s), 0);
  const supported = sum((s) => s.supported);
  const statsOf = new Map(stats.map((s) => [s.userId, s]));
  return {
    range: { from: range.from, to: range.to, timeZone },
    counters: {
      supportPending: Number(totals.supportPending),
      supportHappening: Number(totals.supportHappening),
      supportFinished: sum((s) => s.finished),
      leads: Number(totals.leads),
      avgSupportTime: minutes(supported ? sum((s) => s.supportSeconds) / supported : 0),
      avgWaitTime: minutes(totals.waitSeconds),
    },
    attendants: users.map((u) => {
      const s = statsOf.get(u.id);
      return {
        id: u.id,
        name: u.name,
        rating: round2(s?.ratingAverage),
        avgSupportTime: minutes(s?.supported ? s.supportSeconds / s.supported : 0),
        finished: s?.finished ?? 0,
        online: u.online === 1,
      };
    }),
    hourly: today.hourly,
  };
}

/**
 * GET /api/messages-allMe (the specification's client's dashboard counter): how many messages the
 * company sent (`fromMe` true), received (false) or both, created from `dateStart` to `dateEnd`
 * (calendar days in the company's time zone, as the dashboard's range; none: this month). The
 * answer keeps that client's shape, `{ count: [{ count }] }` (it reads `count[0].count`).
 */
export async function messagesCount(
  deps: AppDeps,
  companyId: number,
  query: { fromMe?: boolean; dateStart?: string; dateEnd?: string },
): Promise<{ count: [{ count: number }] }> {
  const range = resolveRange(
    { date_from: query.dateStart, date_to: query.dateEnd },
    deps.clock.now(),
    await companyTimeZone(deps.db, companyId),
  );
  return { count: [{ count: await repo.countMessages(deps.db, companyId, range, query.fromMe) }] };
}
