import { type RawBuilder, sql } from "kysely";
import type { Database } from "../../db/client.ts";
import type { ZoneSpan } from "../../contract/time_zone.ts";

/**
 * The reports' SQL (issue 27). Counts: sums over report_days (one row per company, local day,
 * user, queue and connection; migration 0400), or, for tags and hours, over the timeline
 * ticket_events itself. Durations: the timeline's rows of the period, read from an index that
 * holds them in the order the group ranks them (ticket_events_user, _queue, _report), handed
 * over as one sorted list per group; medians and p90 are computed exactly from those lists
 * (service.ts). Messages: report_message_hours.
 */
export type ReportWindow = {
  startUtc: string;
  endUtc: string;
  /** First and last local day (YYYY-MM-DD), inclusive. */
  fromDay: string;
  toDay: string;
  /** The company zone's offsets over the period (more than one across a daylight-saving change). */
  spans: ZoneSpan[];
};

export type ReportFilters = {
  userId?: number;
  queueId?: number;
  whatsappId?: number;
  tagId?: number;
  /** The queues the caller may see; null: every one (see server/reports/scope.ts). */
  queueIds: number[] | null;
};

export type GroupBy = "user" | "queue" | "tag" | "day" | "hour" | "total";

type K = string | number | null;
export type Counts = {
  k: K;
  created: number;
  queued: number;
  accepted: number;
  resolved: number;
  reopened: number;
  transfers: number;
  slaBreaches: number;
  rated1: number;
  rated2: number;
  rated3: number;
};
/** A group's durations of one kind, comma-separated, as the index holds them. */
export type Durations = { k: K; kind: string; s: string };
export type MessageCount = { k: K; inbound: number; outbound: number };

const COUNTED = [
  "created",
  "queued",
  "accepted",
  "resolved",
  "reopened",
  "transfer",
  "rated",
  "sla_breached",
] as const;
export const TIMED = ["accepted", "first_response", "resolved"] as const;

/**
 * The date-function modifier that puts `instant` (ISO text) on the company's clock: the offset in
 * force then, a CASE over the period's few offset changes.
 */
function modifier(w: ReportWindow, instant: RawBuilder<unknown>): RawBuilder<unknown> {
  const text = (minutes: number) => sql.lit(`${Math.trunc(minutes)} minutes`);
  if (w.spans.length <= 1) return text(w.spans[0]?.offsetMinutes ?? 0);
  const cases = w.spans.slice(1).map((span, i) =>
    sql`WHEN ${instant} < ${sql.lit(new Date(span.fromMs).toISOString())} THEN ${
      text(w.spans[i].offsetMinutes)
    }`
  );
  return sql`CASE ${sql.join(cases, sql` `)} ELSE ${
    text(w.spans[w.spans.length - 1].offsetMinutes)
  } END`;
}

/** The group's key over ticket_events `e` (tags: the join `g` of eventSource). */
function eventKey(by: GroupBy, w: ReportWindow): RawBuilder<unknown> {
  switch (by) {
    case "user":
      return sql`e.userId`;
    case "queue":
      return sql`e.queueId`;
    case "tag":
      return sql`g.tagId`;
    case "day":
      return sql`e.day`;
    case "hour":
      return sql`CAST(strftime('%H', e.at, ${modifier(w, sql`e.at`)}) AS INTEGER)`;
    case "total":
      return sql`0`;
  }
}

function eventSource(companyId: number, by: GroupBy): RawBuilder<unknown> {
  // From the tagged tickets to their rows (CROSS JOIN keeps that order: the planner would walk
  // the period's every row and look each ticket up in ticket_tags, 3x the cost on the bench).
  return by === "tag"
    ? sql`ticket_tags g CROSS JOIN ticket_events e ON e.ticketId = g.ticketId
      AND g.companyId = ${companyId}`
    : sql`ticket_events e`;
}

/** Longer than this, ranking by attendant or queue reads their index (already in order). */
const ORDERED_FROM_DAYS = 31;

/**
 * Where durations are read from. Over a long period per attendant or queue, the index in that
 * order (no sorting of the year's rows: 220 ms of CPU down to ~30 on the bench); over a short
 * one, the day index's few rows (the planner would pick it for every period).
 */
function durationSource(companyId: number, by: GroupBy, w: ReportWindow): RawBuilder<unknown> {
  const days = (Date.parse(w.toDay) - Date.parse(w.fromDay)) / 86_400_000 + 1;
  if (days > ORDERED_FROM_DAYS && by === "user") {
    return sql`ticket_events e INDEXED BY ticket_events_user`;
  }
  if (days > ORDERED_FROM_DAYS && by === "queue") {
    return sql`ticket_events e INDEXED BY ticket_events_queue`;
  }
  return eventSource(companyId, by);
}

function eventFilters(companyId: number, f: ReportFilters): RawBuilder<unknown> {
  const parts: RawBuilder<unknown>[] = [];
  if (f.userId !== undefined) parts.push(sql`AND e.userId = ${f.userId}`);
  if (f.queueId !== undefined) parts.push(sql`AND e.queueId = ${f.queueId}`);
  if (f.whatsappId !== undefined) parts.push(sql`AND e.whatsappId = ${f.whatsappId}`);
  if (f.tagId !== undefined) {
    parts.push(sql`AND e.ticketId IN (SELECT ft.ticketId FROM ticket_tags ft
      WHERE ft.companyId = ${companyId} AND ft.tagId = ${f.tagId})`);
  }
  if (f.queueIds !== null) parts.push(sql`AND e.queueId IN (${sql.join([0, ...f.queueIds])})`);
  return sql.join(parts, sql` `);
}

function kinds(list: readonly string[]): RawBuilder<unknown> {
  return sql.join(list.map((k) => sql.lit(k)));
}

/** How many events of each kind (ratings per value) each group has in the period. */
export async function countEvents(
  db: Database,
  companyId: number,
  by: GroupBy,
  w: ReportWindow,
  f: ReportFilters,
): Promise<Counts[]> {
  if (by === "tag" || by === "hour" || f.tagId !== undefined) {
    return await timelineCounts(db, companyId, by, w, f);
  }
  const key = by === "user"
    ? sql`nullif(d.userId, 0)`
    : by === "queue"
    ? sql`nullif(d.queueId, 0)`
    : by === "day"
    ? sql`d.day`
    : sql`0`;
  const parts: RawBuilder<unknown>[] = [];
  if (f.userId !== undefined) parts.push(sql`AND d.userId = ${f.userId}`);
  if (f.queueId !== undefined) parts.push(sql`AND d.queueId = ${f.queueId}`);
  if (f.whatsappId !== undefined) parts.push(sql`AND d.whatsappId = ${f.whatsappId}`);
  if (f.queueIds !== null) parts.push(sql`AND d.queueId IN (${sql.join([-1, ...f.queueIds])})`);
  const result = await sql<Counts>`
    SELECT ${key} AS k, sum(created) AS created, sum(queued) AS queued,
      sum(accepted) AS accepted, sum(resolved) AS resolved, sum(reopened) AS reopened,
      sum(transfers) AS transfers, sum(slaBreaches) AS slaBreaches, sum(rated1) AS rated1,
      sum(rated2) AS rated2, sum(rated3) AS rated3
    FROM report_days d
    WHERE d.companyId = ${companyId} AND d.day >= ${w.fromDay} AND d.day <= ${w.toDay}
      ${sql.join(parts, sql` `)}
    GROUP BY 1
  `.execute(db);
  return result.rows;
}

/** The same counts from the timeline (what report_days does not know: tags, hours). */
async function timelineCounts(
  db: Database,
  companyId: number,
  by: GroupBy,
  w: ReportWindow,
  f: ReportFilters,
): Promise<Counts[]> {
  const result = await sql<Counts>`
    SELECT ${eventKey(by, w)} AS k, sum(e.kind = 'created') AS created,
      sum(e.kind = 'queued') AS queued, sum(e.kind = 'accepted') AS accepted,
      sum(e.kind = 'resolved') AS resolved, sum(e.kind = 'reopened') AS reopened,
      sum(e.kind = 'transfer') AS transfers, sum(e.kind = 'sla_breached') AS slaBreaches,
      sum(e.kind = 'rated' AND e.value = 1) AS rated1, sum(e.kind = 'rated' AND e.value = 2) AS rated2,
      sum(e.kind = 'rated' AND e.value = 3) AS rated3
    FROM ${eventSource(companyId, by)}
    WHERE e.companyId = ${companyId} AND e.kind IN (${kinds(COUNTED)})
      AND e.day >= ${w.fromDay} AND e.day <= ${w.toDay} ${eventFilters(companyId, f)}
    GROUP BY 1
  `.execute(db);
  return result.rows;
}

/**
 * The waits, first responses and resolutions of each group in the period, as comma-separated
 * lists (one row per group and kind; the service ranks them).
 */
export async function durations(
  db: Database,
  companyId: number,
  by: GroupBy,
  w: ReportWindow,
  f: ReportFilters,
): Promise<Durations[]> {
  const result = await sql<Durations>`
    SELECT e.kind AS kind, ${eventKey(by, w)} AS k, group_concat(e.seconds) AS s
    FROM ${durationSource(companyId, by, w)}
    WHERE e.companyId = ${companyId} AND e.kind IN (${kinds(TIMED)})
      AND e.day >= ${w.fromDay} AND e.day <= ${w.toDay} AND e.seconds IS NOT NULL
      ${eventFilters(companyId, f)}
    GROUP BY 1, 2
  `.execute(db);
  return result.rows;
}

/** The first UTC hour of the period and the first one after it ('YYYY-MM-DDTHH'). */
function hours(w: ReportWindow) {
  return { from: w.startUtc.slice(0, 13), to: w.endUtc.slice(0, 13) };
}

/**
 * Messages received and sent per group, from the hourly counts; with a tag (filter or grouping)
 * from the tagged tickets' messages (messages_ticket), as the counts do not know tags.
 */
export async function countMessages(
  db: Database,
  companyId: number,
  by: GroupBy,
  w: ReportWindow,
  f: ReportFilters,
): Promise<MessageCount[]> {
  if (by === "tag" || f.tagId !== undefined) {
    // Tagged tickets' messages are kept per local day (report_ticket_messages), not per hour.
    if (by === "hour") throw new Error("tagged messages are counted per day, not per hour");
    return await taggedMessages(db, companyId, by, w, f);
  }
  const h = hours(w);
  const key = by === "user"
    ? sql`nullif(h.userId, 0)`
    : by === "queue"
    ? sql`nullif(h.queueId, 0)`
    : by === "day"
    ? sql`date(h.hour || ':00:00.000Z', ${modifier(w, sql`h.hour || ':00:00.000Z'`)})`
    : by === "hour"
    ? sql`CAST(strftime('%H', h.hour || ':00:00.000Z', ${
      modifier(w, sql`h.hour || ':00:00.000Z'`)
    }) AS INTEGER)`
    : sql`0`;
  const parts: RawBuilder<unknown>[] = [];
  if (f.userId !== undefined) parts.push(sql`AND h.userId = ${f.userId}`);
  if (f.queueId !== undefined) parts.push(sql`AND h.queueId = ${f.queueId}`);
  if (f.whatsappId !== undefined) parts.push(sql`AND h.whatsappId = ${f.whatsappId}`);
  if (f.queueIds !== null) parts.push(sql`AND h.queueId IN (${sql.join([-1, ...f.queueIds])})`);
  const result = await sql<MessageCount>`
    SELECT ${key} AS k, sum(h.inbound) AS inbound, sum(h.outbound) AS outbound
    FROM report_message_hours h
    WHERE h.companyId = ${companyId} AND h.hour >= ${h.from} AND h.hour < ${h.to}
      ${sql.join(parts, sql` `)}
    GROUP BY 1
  `.execute(db);
  return result.rows;
}

async function taggedMessages(
  db: Database,
  companyId: number,
  by: GroupBy,
  w: ReportWindow,
  f: ReportFilters,
): Promise<MessageCount[]> {
  const key = by === "user"
    ? sql`t.userId`
    : by === "queue"
    ? sql`t.queueId`
    : by === "tag"
    ? sql`g.tagId`
    : by === "day"
    ? sql`r.day`
    : sql`0`;
  const parts: RawBuilder<unknown>[] = [];
  if (f.tagId !== undefined) parts.push(sql`AND g.tagId = ${f.tagId}`);
  if (f.userId !== undefined) parts.push(sql`AND t.userId = ${f.userId}`);
  if (f.queueId !== undefined) parts.push(sql`AND t.queueId = ${f.queueId}`);
  if (f.whatsappId !== undefined) parts.push(sql`AND t.whatsappId = ${f.whatsappId}`);
  if (f.queueIds !== null) parts.push(sql`AND t.queueId IN (${sql.join([0, ...f.queueIds])})`);
  // The ticket is read only when a filter or the grouping needs its user, queue or connection.
  const ticket = parts.length > (f.tagId !== undefined ? 1 : 0) || by === "user" ||
      by === "queue"
    ? sql`JOIN tickets t ON t.id = g.ticketId AND t.companyId = ${companyId}`
    : sql``;
  // Per ticket and local day (report_ticket_messages, migration 0470): the period is whole local
  // days, so these rows hold exactly its messages, without reading each one.
  const result = await sql<MessageCount>`
    SELECT ${key} AS k, sum(r.inbound) AS inbound, sum(r.outbound) AS outbound
    FROM ticket_tags g
    CROSS JOIN report_ticket_messages r ON r.ticketId = g.ticketId AND r.day >= ${w.fromDay}
      AND r.day <= ${w.toDay}
    ${ticket}
    WHERE g.companyId = ${companyId} ${sql.join(parts, sql` `)}
    GROUP BY 1
  `.execute(db);
  return result.rows;
}

/** The filters' rows of a kind of duration over the period (the seconds index's columns). */
function timedRows(companyId: number, kind: string, w: ReportWindow, f: ReportFilters) {
  return sql`FROM ticket_events e INDEXED BY ticket_events_seconds
    WHERE e.companyId = ${companyId} AND e.kind = ${kind} AND e.seconds IS NOT NULL
      AND e.day >= ${w.fromDay} AND e.day <= ${w.toDay} ${eventFilters(companyId, f)}`;
}

/**
 * The period's durations of one kind at the given ranks (0-based, ascending), over everything
 * the filters keep: counted, then read at their rank from the index that holds them in order of
 * length (no list of a year's durations, no sorting). `n`: how many there are.
 */
export async function durationsAt(
  db: Database,
  companyId: number,
  kind: (typeof TIMED)[number],
  w: ReportWindow,
  f: ReportFilters,
  ranksOf: (n: number) => number[],
): Promise<{ n: number; values: number[] }> {
  const counted = await sql<{ n: number }>`
    SELECT count(*) AS n FROM ticket_events e
    WHERE e.companyId = ${companyId} AND e.kind = ${kind} AND e.seconds IS NOT NULL
      AND e.day >= ${w.fromDay} AND e.day <= ${w.toDay} ${eventFilters(companyId, f)}
  `.execute(db);
  const n = Number(counted.rows[0]?.n ?? 0);
  if (n === 0) return { n, values: [] };
  const values: number[] = [];
  for (const rank of ranksOf(n)) {
    const row = await sql<{ seconds: number }>`
      SELECT e.seconds AS seconds ${timedRows(companyId, kind, w, f)}
      ORDER BY e.seconds LIMIT 1 OFFSET ${rank}
    `.execute(db);
    values.push(Number(row.rows[0].seconds));
  }
  return { n, values };
}

/**
 * Tickets created per UTC hour ('YYYY-MM-DDTHH'): the service turns hours into local weekdays and
 * hours (a string prefix groups 2.5 times cheaper than two strftime calls a row).
 */
export async function createdByHour(
  db: Database,
  companyId: number,
  w: ReportWindow,
  f: ReportFilters,
) {
  const result = await sql<{ hour: string; n: number }>`
    SELECT substr(e.at, 1, 13) AS hour, count(*) AS n
    FROM ticket_events e
    WHERE e.companyId = ${companyId} AND e.kind = 'created'
      AND e.day >= ${w.fromDay} AND e.day <= ${w.toDay} ${eventFilters(companyId, f)}
    GROUP BY 1
  `.execute(db);
  return result.rows;
}

/** The names the tables show. */
/** The company's users, by name; with `queueIds` (a supervisor's scope) members of those only. */
export async function companyUsers(
  db: Database,
  companyId: number,
  userId: number | undefined,
  queueIds: number[] | null,
) {
  let q = db.selectFrom("users").select(["id", "name"]).where("companyId", "=", companyId);
  if (userId !== undefined) q = q.where("id", "=", userId);
  if (queueIds !== null) {
    q = q.where(
      "id",
      "in",
      db.selectFrom("user_queues").select("userId").where("companyId", "=", companyId)
        .where("queueId", "in", [-1, ...queueIds]),
    );
  }
  return await q.orderBy(sql`name COLLATE NOCASE`).orderBy("id").execute();
}

export async function companyQueues(db: Database, companyId: number) {
  return await db.selectFrom("queues").select(["id", "name"]).where("companyId", "=", companyId)
    .orderBy(sql`name COLLATE NOCASE`).orderBy("id").execute();
}

export async function companyTags(db: Database, companyId: number) {
  return await db.selectFrom("tags").select(["id", "name"]).where("companyId", "=", companyId)
    .orderBy(sql`name COLLATE NOCASE`).orderBy("id").execute();
}

/** A ticket with its contact, for the transcript (undefined: missing or another company's). */
export async function transcriptTicket(db: Database, companyId: number, ticketId: number) {
  return await db.selectFrom("tickets as t")
    .innerJoin("contacts as c", "c.id", "t.contactId")
    .leftJoin("users as u", "u.id", "t.userId")
    .leftJoin("queues as q", "q.id", "t.queueId")
    .select([
      "t.id",
      "t.status",
      "t.createdAt",
      "t.closedAt",
      "t.queueId",
      "c.name as contactName",
      "c.number as contactNumber",
      "u.name as userName",
      "q.name as queueName",
    ])
    .where("t.companyId", "=", companyId).where("t.id", "=", ticketId).executeTakeFirst();
}

/** One page of a ticket's messages in order (the transcript streams them page by page). */
export async function transcriptMessages(
  db: Database,
  companyId: number,
  ticketId: number,
  after: { createdAt: string; id: number } | null,
  limit: number,
) {
  let q = db.selectFrom("messages")
    .select([
      "id",
      "createdAt",
      "fromMe",
      "body",
      "mediaType",
      "mediaName",
      "isDeleted",
      "transcript",
    ])
    .where("companyId", "=", companyId).where("ticketId", "=", ticketId);
  if (after) {
    q = q.where((eb) =>
      eb.or([
        eb("createdAt", ">", after.createdAt),
        eb.and([eb("createdAt", "=", after.createdAt), eb("id", ">", after.id)]),
      ])
    );
  }
  return await q.orderBy("createdAt").orderBy("id").limit(limit).execute();
}

/** A ticket's timeline, oldest first. */
export async function ticketTimeline(db: Database, companyId: number, ticketId: number) {
  return await db.selectFrom("ticket_events as e")
    .leftJoin("users as u", "u.id", "e.userId")
    .leftJoin("queues as q", "q.id", "e.queueId")
    .select([
      "e.kind",
      "e.at",
      "e.seconds",
      "e.value",
      "e.userId",
      "e.queueId",
      "u.name as userName",
      "q.name as queueName",
    ])
    .where("e.companyId", "=", companyId).where("e.ticketId", "=", ticketId)
    .orderBy("e.at").orderBy("e.id").execute();
}
