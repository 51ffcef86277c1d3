import type { AppDeps } from "../context.ts";
import {
  DASHBOARD_TIME_ZONE,
  type DashboardRange,
  localDate,
  rangeOf,
  type RangeQuery,
  resolveRange,
} from "./range.ts";
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

/** Today's tickets in 24 hourly buckets (local time). */
export async function hourlyTickets(
  deps: AppDeps,
  companyId: number,
): Promise<{ date: string; hourly: HourBucket[] }> {
  const today = localDate(deps.clock.now(), DASHBOARD_TIME_ZONE);
  const day = rangeOf(today, today, DASHBOARD_TIME_ZONE);
  const rows = await repo.ticketsByHour(deps.db, companyId, day.startUtc);
  const hourly = Array.from({ length: 24 }, (_, hour) => ({ hour, count: 0 }));
  for (const r of rows) if (r.hour >= 0 && r.hour < 24) hourly[r.hour].count += Number(r.count);
  return { date: today, hourly };
}

/** GET /api/dashboard: counters and attendants for the range, and today's hourly chart. */
export async function dashboard(
  deps: AppDeps,
  companyId: number,
  query: RangeQuery,
): Promise<Dashboard> {
  const range: DashboardRange = resolveRange(query, deps.clock.now(), DASHBOARD_TIME_ZONE);
  const [totals, stats, users, today] = await Promise.all([
    repo.counters(deps.db, companyId, range),
    repo.statsByUser(deps.db, companyId, range),
    repo.companyUsers(deps.db, companyId),
    hourlyTickets(deps, companyId),
  ]);
  // Every finished ticket belongs to exactly one group (a user, or none): totals are sums.
  const sum = (pick: (s: repo.UserStats) => number) => stats.reduce((n, s) => n + pick(s), 0);
  const supported = sum((s) => s.supported);
  const statsOf = new Map(stats.map((s) => [s.userId, s]));
  return {
    range: { from: range.from, to: range.to, timeZone: DASHBOARD_TIME_ZONE },
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
  );
  return { count: [{ count: await repo.countMessages(deps.db, companyId, range, query.fromMe) }] };
}
