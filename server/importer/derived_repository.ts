import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import { isPostgres } from "../../db/engine.ts";
import { CYCLE_START, SECONDS } from "../../db/migrations/0400_create_ticket_events.ts";
import { LOCAL_DAY } from "../../db/migrations/0520_add_zone_local_days.ts";

/**
 * The derived tables of imported messages, filled per batch in a few set-based statements
 * instead of by the row triggers (issue 47 item 4; docs/scaling.md has both measured): inside the
 * batch's transaction the insert triggers are dropped, the batch is inserted, the search index,
 * the per-ticket day counts, the hour counts and the first responses are written for the batch's
 * id range as the triggers would have, and the triggers are created again from their own text.
 * SQLite's DDL is transactional: a kill in the middle rolls the drop back with the batch, so the
 * triggers are never left missing. On PostgreSQL the row triggers stay (the import runs as is).
 */

/** The insert triggers on messages whose work `fillMessages` does for a batch. */
export const MESSAGE_TRIGGERS = [
  "messages_fts_insert",
  "report_ticket_messages_insert",
  "report_message_hours_insert",
  "ticket_events_first_response",
];

export type Suspended = { name: string; sql: string }[];

/** Drops the named triggers (in the caller's transaction); their text to create them again. */
export async function suspendTriggers(db: Database, names: string[]): Promise<Suspended | null> {
  if (isPostgres(db)) return null;
  const { rows } = await sql<{ name: string; sql: string }>`SELECT name, sql FROM sqlite_master
    WHERE type = 'trigger' AND name IN (${sql.join(names)})`.execute(db);
  for (const t of rows) await sql.raw(`DROP TRIGGER "${t.name}"`).execute(db);
  return rows;
}

export async function restoreTriggers(db: Database, suspended: Suspended) {
  for (const t of suspended) await sql.raw(t.sql).execute(db);
}

/** A batch's new ids as a range: they are consecutive, nothing else writes meanwhile. */
const range = (ids: number[]) =>
  ids.reduce((r, id) => ({ lo: Math.min(r.lo, id), hi: Math.max(r.hi, id) }), {
    lo: Infinity,
    hi: -Infinity,
  });

/** What MESSAGE_TRIGGERS write, for the messages of ids lo..hi (one batch's inserts). */
export async function fillMessages(db: Database, lo: number, hi: number) {
  await sql`INSERT INTO messages_fts (rowid, body)
    SELECT ticketId * 4294967296 + id, trim(body || char(10) || coalesce(transcript, ''))
    FROM messages WHERE id BETWEEN ${lo} AND ${hi}
      AND (body <> '' OR coalesce(transcript, '') <> '')`.execute(db);
  await sql`INSERT INTO report_ticket_messages (companyId, ticketId, day, inbound, outbound)
    SELECT companyId, ticketId, day, sum(fromMe = 0), sum(fromMe = 1)
    FROM (SELECT m.companyId, m.ticketId, m.fromMe,
        ${sql.raw(LOCAL_DAY("m.createdAt", "m.companyId"))} AS day
      FROM messages m WHERE m.id BETWEEN ${lo} AND ${hi})
    WHERE 1 GROUP BY companyId, ticketId, day
    ON CONFLICT (ticketId, day) DO UPDATE SET inbound = inbound + excluded.inbound,
      outbound = outbound + excluded.outbound`.execute(db);
  await sql`INSERT INTO report_message_hours (companyId, hour, userId, queueId, whatsappId,
      inbound, outbound)
    SELECT t.companyId, substr(m.createdAt, 1, 13), ifnull(t.userId, 0), ifnull(t.queueId, 0),
      ifnull(t.whatsappId, 0), sum(m.fromMe = 0), sum(m.fromMe = 1)
    FROM messages m JOIN tickets t ON t.id = m.ticketId
    WHERE m.id BETWEEN ${lo} AND ${hi} GROUP BY 1, 2, 3, 4, 5
    ON CONFLICT (companyId, hour, userId, queueId, whatsappId) DO UPDATE
      SET inbound = inbound + excluded.inbound, outbound = outbound + excluded.outbound`
    .execute(db);
  // The trigger's rule: a person's first message of the cycle on an open ticket with a user; of
  // a batch, the first inserted one per ticket.
  await sql`INSERT INTO ticket_event_facts (companyId, ticketId, kind, at, userId, queueId,
      whatsappId, fromUserId, fromQueueId, seconds, value)
    SELECT t.companyId, t.id, 'first_response', m.createdAt, t.userId, t.queueId, t.whatsappId,
      NULL, NULL, ${sql.raw(SECONDS("m.createdAt", CYCLE_START("t")))}, NULL
    FROM (SELECT ticketId, min(id) AS id FROM messages
        WHERE id BETWEEN ${lo} AND ${hi} AND fromMe = 1 GROUP BY ticketId) f
      JOIN messages m ON m.id = f.id JOIN tickets t ON t.id = f.ticketId
    WHERE t.status = 'open' AND t.userId IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM ticket_events e WHERE e.ticketId = t.id
        AND e.kind = 'first_response' AND e.at >= ${sql.raw(CYCLE_START("t"))})`.execute(db);
}

/** The insert triggers whose work `fillTickets` does for a batch of tickets. */
export const TICKET_TRIGGERS = [
  "ticket_counts_insert",
  "ticket_notification_counts_insert",
  "report_days_insert",
];

/** The newest timeline row's id: the batch's events are the ones after it. */
export async function lastEventId(db: Database): Promise<number> {
  const { rows } = await sql<{ id: number | null }>`SELECT max(id) AS id FROM ticket_events`
    .execute(db);
  return Number(rows[0]?.id ?? 0);
}

const COUNTS = sql.raw("(companyId, status, queueId, userId)");
const UNREAD = sql.raw("(CASE WHEN unreadMessages > 0 THEN 1 ELSE 0 END)");

/**
 * What TICKET_TRIGGERS write, for the tickets of ids lo..hi (one batch's inserts) and the
 * timeline rows written since `eventsAfter` (the closed tickets' history, the open ones' facts,
 * and the facts of tickets the batch updated).
 */
export async function fillTickets(db: Database, lo: number, hi: number, eventsAfter: number) {
  if (Number.isFinite(lo)) {
    await sql`INSERT INTO ticket_counts (companyId, status, queueId, userId, n)
      SELECT companyId, status, ifnull(queueId, 0), ifnull(userId, 0), count(*) FROM tickets
      WHERE id BETWEEN ${lo} AND ${hi} GROUP BY 1, 2, 3, 4
      ON CONFLICT ${COUNTS} DO UPDATE SET n = n + excluded.n`.execute(db);
    await sql`INSERT INTO ticket_notification_counts (companyId, status, queueId, userId, unread, n)
      SELECT companyId, status, ifnull(queueId, 0), ifnull(userId, 0), ${UNREAD}, count(*)
      FROM tickets WHERE id BETWEEN ${lo} AND ${hi} AND isGroup = 0 GROUP BY 1, 2, 3, 4, 5
      ON CONFLICT (companyId, status, queueId, userId, unread) DO UPDATE SET n = n + excluded.n`
      .execute(db);
  }
  await sql`INSERT INTO report_days (companyId, day, userId, queueId, whatsappId, created, queued,
      accepted, resolved, reopened, transfers, slaBreaches, rated1, rated2, rated3)
    SELECT companyId, day, ifnull(userId, 0), ifnull(queueId, 0), ifnull(whatsappId, 0),
      sum(kind = 'created'), sum(kind = 'queued'), sum(kind = 'accepted'),
      sum(kind = 'resolved'), sum(kind = 'reopened'), sum(kind = 'transfer'),
      sum(kind = 'sla_breached'), sum(kind = 'rated' AND value = 1),
      sum(kind = 'rated' AND value = 2), sum(kind = 'rated' AND value = 3)
    FROM ticket_events WHERE id > ${eventsAfter}
      AND kind <> 'first_response' AND kind <> 'handover'
    GROUP BY 1, 2, 3, 4, 5
    ON CONFLICT (companyId, day, userId, queueId, whatsappId) DO UPDATE SET
      created = created + excluded.created, queued = queued + excluded.queued,
      accepted = accepted + excluded.accepted, resolved = resolved + excluded.resolved,
      reopened = reopened + excluded.reopened, transfers = transfers + excluded.transfers,
      slaBreaches = slaBreaches + excluded.slaBreaches, rated1 = rated1 + excluded.rated1,
      rated2 = rated2 + excluded.rated2, rated3 = rated3 + excluded.rated3`.execute(db);
}

export const messagesDerived = {
  triggers: MESSAGE_TRIGGERS,
  begin: (db: Database) =>
    Promise.resolve(async (ids: number[]) => {
      if (ids.length > 0) await fillMessages(db, range(ids).lo, range(ids).hi);
    }),
};

export const ticketsDerived = {
  triggers: TICKET_TRIGGERS,
  begin: async (db: Database) => {
    const after = await lastEventId(db);
    return async (ids: number[]) => {
      const { lo, hi } = range(ids);
      await fillTickets(db, lo, hi, after);
    };
  },
};
