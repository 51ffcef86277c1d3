import {
  type DayReportRow,
  type HeatmapAnswer,
  REPORT_MAX_DAYS,
  type ReportAnswer,
  type ReportFigures,
  type ReportTable,
  type SummaryAnswer,
} from "../../contract/report_types.ts";
import { offsetIn, zoneSpans } from "../../contract/time_zone.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { type DashboardRange, resolveRange } from "../dashboard/range.ts";
import { companyTimeZone } from "../settings/values.ts";
import { badRequest } from "../errors.ts";
import * as repo from "./repository.ts";
import { reportScope } from "./scope.ts";

/**
 * The reports of issue 27: the same figures (contract/report_types.ts) per attendant, queue, tag,
 * day and in total, over a period of local calendar days (the dashboard's range and time zone),
 * from the tickets' timeline (migration 0400). Who sees what: reportScope (scope.ts).
 *
 * - opened: attendants: tickets they took (accepted: accept, reopen, transfer, distribution);
 *   queues: tickets that entered them; tags, days, totals: conversations created;
 * - resolved, reopened, transfers, slaBreaches: those events in the period, counted where the
 *   ticket was after the change (the user who resolved, the queue it went to);
 * - waiting: from creation, reopening or entering the queue until a person took it (taken from no
 *   one); first response: from the start of the cycle (created or reopened) to the first message a
 *   person sent; resolution: from the start of the cycle to resolved. Median and p90 (exact);
 * - messages in/out: messages of the period, by the ticket's user, queue and connection when each
 *   was written; ratings: counts per value (1-3) of the ratings given in the period.
 */
export type ReportQuery = {
  dateFrom?: string;
  dateTo?: string;
  userId?: number;
  queueId?: number;
  whatsappId?: number;
  tagId?: number;
};

type Key = string | number | null;
const DAY_MS = 86_400_000;

type Window = { range: DashboardRange; timeZone: string; w: repo.ReportWindow };

/** The period's local days on the company's clock, and the zone's offsets over it. */
async function windowOf(deps: AppDeps, companyId: number, query: ReportQuery): Promise<Window> {
  const timeZone = await companyTimeZone(deps.db, companyId);
  const range = resolveRange(
    { date_from: query.dateFrom, date_to: query.dateTo },
    deps.clock.now(),
    timeZone,
  );
  const days = (Date.parse(range.to) - Date.parse(range.from)) / DAY_MS + 1;
  if (days > REPORT_MAX_DAYS) {
    const text = "O período vai até 12 meses";
    throw badRequest("ERR_VALIDATION", `dateTo: ${text}`, { dateTo: [text] });
  }
  return {
    range,
    timeZone,
    w: {
      startUtc: range.startUtc,
      endUtc: range.endUtc,
      fromDay: range.from,
      toDay: range.to,
      spans: zoneSpans(timeZone, Date.parse(range.startUtc), Date.parse(range.endUtc)),
    },
  };
}

function rangeAnswer({ range, timeZone }: Window) {
  return { from: range.from, to: range.to, timeZone };
}

export function emptyFigures(): ReportFigures {
  return {
    opened: 0,
    resolved: 0,
    reopened: 0,
    transfers: 0,
    slaBreaches: 0,
    waitingMedianSeconds: null,
    waitingP90Seconds: null,
    firstResponseMedianSeconds: null,
    firstResponseP90Seconds: null,
    resolutionMedianSeconds: null,
    resolutionP90Seconds: null,
    messagesIn: 0,
    messagesOut: 0,
    ratings: { 1: 0, 2: 0, 3: 0 },
  };
}

const QUANTILES = {
  accepted: ["waitingMedianSeconds", "waitingP90Seconds"],
  first_response: ["firstResponseMedianSeconds", "firstResponseP90Seconds"],
  resolved: ["resolutionMedianSeconds", "resolutionP90Seconds"],
} as const;

const OPENED: Record<repo.GroupBy, "accepted" | "queued" | "created"> = {
  user: "accepted",
  queue: "queued",
  tag: "created",
  day: "created",
  hour: "created",
  total: "created",
};

/**
 * Median (the mean of the two middle values when their number is even) and p90 (nearest rank:
 * the ceil(0.9 n)-th smallest) of a comma-separated list, in whole seconds.
 */
export function quantiles(list: string): { median: number; p90: number } | null {
  const values = Float64Array.from(list.split(","), Number).sort();
  const n = values.length;
  if (n === 0) return null;
  const median = n % 2 ? values[(n - 1) / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  return { median: Math.round(median), p90: Math.round(values[Math.ceil(0.9 * n) - 1]) };
}

/** The ranks (0-based, ascending) `quantiles` reads of n sorted values: the middle one(s), p90. */
function quantileRanks(n: number): number[] {
  const middle = n % 2 ? [(n - 1) / 2] : [n / 2 - 1, n / 2];
  return [...middle, Math.ceil(0.9 * n) - 1];
}

type Ranked = { k: Key; kind: string; q: { median: number; p90: number } | null };

/**
 * The totals' medians and p90 (the definitions of `quantiles`), read at their ranks from the
 * index that keeps durations in order of length (repository.ts durationsAt): one group over a
 * year needs 2-3 values per kind, not the year's list.
 */
async function totalQuantiles(
  deps: AppDeps,
  companyId: number,
  w: repo.ReportWindow,
  f: repo.ReportFilters,
): Promise<Ranked[]> {
  return await Promise.all(repo.TIMED.map(async (kind): Promise<Ranked> => {
    const { n, values } = await repo.durationsAt(deps.db, companyId, kind, w, f, quantileRanks);
    if (n === 0) return { k: 0, kind, q: null };
    const median = n % 2 ? values[0] : (values[0] + values[1]) / 2;
    return { k: 0, kind, q: { median: Math.round(median), p90: values[values.length - 1] } };
  }));
}

/** Each group's lists of durations, ranked. */
async function rankedLists(
  deps: AppDeps,
  companyId: number,
  by: repo.GroupBy,
  w: repo.ReportWindow,
  f: repo.ReportFilters,
): Promise<Ranked[]> {
  const lists = await repo.durations(deps.db, companyId, by, w, f);
  return lists.map((d) => ({
    k: d.k,
    kind: d.kind,
    q: d.s !== null ? quantiles(String(d.s)) : null,
  }));
}

/** Every group's figures, keyed by String(group key). */
async function figures(
  deps: AppDeps,
  companyId: number,
  by: repo.GroupBy,
  w: repo.ReportWindow,
  f: repo.ReportFilters,
): Promise<Map<string, ReportFigures>> {
  const [counts, spans, messages] = await Promise.all([
    repo.countEvents(deps.db, companyId, by, w, f),
    by === "total" ? totalQuantiles(deps, companyId, w, f) : rankedLists(deps, companyId, by, w, f),
    repo.countMessages(deps.db, companyId, by, w, f),
  ]);
  const groups = new Map<string, ReportFigures>();
  const of = (k: Key) => {
    const key = String(k);
    let g = groups.get(key);
    if (!g) groups.set(key, g = emptyFigures());
    return g;
  };
  for (const c of counts) {
    const g = of(c.k);
    g.opened += Number(c[OPENED[by]]);
    g.resolved += Number(c.resolved);
    g.reopened += Number(c.reopened);
    g.transfers += Number(c.transfers);
    g.slaBreaches += Number(c.slaBreaches);
    g.ratings[1] += Number(c.rated1);
    g.ratings[2] += Number(c.rated2);
    g.ratings[3] += Number(c.rated3);
  }
  for (const d of spans) {
    const names = QUANTILES[d.kind as keyof typeof QUANTILES];
    const q = names ? d.q : null;
    if (!q) continue;
    const g = of(d.k);
    g[names[0]] = q.median;
    g[names[1]] = q.p90;
  }
  for (const m of messages) {
    const g = of(m.k);
    g.messagesIn += Number(m.inbound ?? 0);
    g.messagesOut += Number(m.outbound ?? 0);
  }
  return groups;
}

function filtersOf(query: ReportQuery, queueIds: number[] | null): repo.ReportFilters {
  return {
    userId: query.userId,
    queueId: query.queueId,
    whatsappId: query.whatsappId,
    tagId: query.tagId,
    queueIds,
  };
}

function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  for (let at = Date.parse(from); at <= Date.parse(to); at += DAY_MS) {
    days.push(new Date(at).toISOString().slice(0, 10));
  }
  return days;
}

const GROUP_OF: Record<ReportTable, repo.GroupBy> = {
  attendants: "user",
  queues: "queue",
  tags: "tag",
  days: "day",
};

/** GET /api/reports/<table>: one row per attendant, queue, tag or day of the period. */
export async function reportTable<T extends ReportTable>(
  deps: AppDeps,
  auth: AuthInfo,
  table: T,
  query: ReportQuery,
): Promise<ReportAnswer<T>> {
  const scope = await reportScope(deps, auth);
  const companyId = auth.companyId;
  const window = await windowOf(deps, companyId, query);
  const { range, w } = window;
  const groups = await figures(deps, companyId, GROUP_OF[table], w, filtersOf(query, scope));
  const get = (k: Key) => groups.get(String(k)) ?? emptyFigures();
  let rows: unknown[];
  switch (table) {
    case "attendants": {
      // A supervisor's table lists the people of their queues, not the whole company.
      const users = await repo.companyUsers(deps.db, companyId, query.userId, scope);
      rows = users.map((u) => ({ userId: u.id, name: u.name, ...get(u.id) }));
      break;
    }
    case "queues": {
      const queues = (await repo.companyQueues(deps.db, companyId))
        .filter((q) => query.queueId === undefined || q.id === query.queueId)
        .filter((q) => scope === null || scope.includes(q.id));
      rows = queues.map((q) => ({ queueId: q.id, name: q.name, ...get(q.id) }));
      // Tickets that were in no queue (no queue filter: they cannot match one).
      if (query.queueId === undefined && scope === null && groups.has("null")) {
        rows.push({ queueId: null, name: "", ...get(null) });
      }
      break;
    }
    case "tags": {
      const tags = (await repo.companyTags(deps.db, companyId))
        .filter((t) => query.tagId === undefined || t.id === query.tagId);
      rows = tags.map((t) => ({ tagId: t.id, name: t.name, ...get(t.id) }));
      break;
    }
    case "days":
      rows = daysOf(range.from, range.to).map((day): DayReportRow => ({ day, ...get(day) }));
      break;
  }
  return { range: rangeAnswer(window), rows: rows as ReportAnswer<T>["rows"] };
}

/** GET /api/reports/summary: the figures over everything the filters keep. */
export async function reportSummary(
  deps: AppDeps,
  auth: AuthInfo,
  query: ReportQuery,
): Promise<SummaryAnswer> {
  const scope = await reportScope(deps, auth);
  const window = await windowOf(deps, auth.companyId, query);
  const groups = await figures(deps, auth.companyId, "total", window.w, filtersOf(query, scope));
  return { range: rangeAnswer(window), totals: groups.get("0") ?? emptyFigures() };
}

/** GET /api/reports/heatmap: conversations created per weekday and hour (local). */
export async function reportHeatmap(
  deps: AppDeps,
  auth: AuthInfo,
  query: ReportQuery,
): Promise<HeatmapAnswer> {
  const scope = await reportScope(deps, auth);
  const window = await windowOf(deps, auth.companyId, query);
  const { w } = window;
  const rows = await repo.createdByHour(deps.db, auth.companyId, w, filtersOf(query, scope));
  const cells = Array.from({ length: 7 }, () => Array.from({ length: 24 }, () => 0));
  for (const r of rows) {
    const at = Date.parse(`${r.hour}:00:00Z`);
    const local = new Date(at + offsetIn(w.spans, at) * 60_000);
    cells[local.getUTCDay()][local.getUTCHours()] += Number(r.n);
  }
  return { range: rangeAnswer(window), cells };
}

/**
 * GET /api/dashboard/ticketsUsers (the specification's client's chart): per attendant, the
 * tickets they took in the period, every user of the company (0 included), by name.
 */
export async function ticketsUsers(
  deps: AppDeps,
  auth: AuthInfo,
  query: { initialDate?: string; finalDate?: string },
): Promise<{ data: { nome: string; quantidade: number }[] }> {
  const answer = await reportTable(deps, auth, "attendants", {
    dateFrom: query.initialDate,
    dateTo: query.finalDate,
  });
  return { data: answer.rows.map((r) => ({ nome: r.name, quantidade: r.opened })) };
}

/**
 * GET /api/dashboard/ticketsDay (the specification's client's chart): conversations created per
 * day (`data`: dd/mm/yyyy), or per local hour (`horario`: "HH") when the period is one day;
 * `count`: their sum.
 */
export async function ticketsDay(
  deps: AppDeps,
  auth: AuthInfo,
  query: { initialDate?: string; finalDate?: string },
): Promise<
  { data: ({ total: number; data: string } | { total: number; horario: string })[]; count: number }
> {
  const scope = await reportScope(deps, auth);
  const { range, w } = await windowOf(deps, auth.companyId, {
    dateFrom: query.initialDate,
    dateTo: query.finalDate,
  });
  const oneDay = range.from === range.to;
  const counts = await repo.countEvents(
    deps.db,
    auth.companyId,
    oneDay ? "hour" : "day",
    w,
    filtersOf({}, scope),
  );
  const created = new Map(counts.map((c) => [String(c.k), Number(c.created)]));
  const data = oneDay
    ? Array.from({ length: 24 }, (_, h) => ({
      total: created.get(String(h)) ?? 0,
      horario: String(h).padStart(2, "0"),
    }))
    : daysOf(range.from, range.to).map((day) => ({
      total: created.get(day) ?? 0,
      data: `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`,
    }));
  return { data, count: data.reduce((n, d) => n + d.total, 0) };
}
