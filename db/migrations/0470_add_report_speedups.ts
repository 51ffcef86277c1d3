import { type Kysely, sql } from "kysely";
import { LOCAL_OFFSET } from "./0400_create_ticket_events.ts";

/**
 * Issue 27, speed (tests/bench/reports_bench.ts, a year of 100,000 tickets):
 * - report_ticket_messages: messages in/out per (ticket, local day), kept by the same trigger
 *   statement that writes the message, so the tags' reports count a tagged ticket's messages from
 *   a few rows instead of reading each message (144 -> a few ms on the bench). Local days are
 *   LOCAL_OFFSET's, as report_days'.
 * - ticket_events_seconds: every duration in order of its length per kind, with what the filters
 *   read, so a total's median and p90 are read at their rank (LIMIT/OFFSET) instead of listing
 *   and sorting a year of durations (server/reports/repository.ts totalQuantiles).
 * - the attendants' and queues' indexes also hold the other filters' columns (covering): one
 *   queue's attendants over a year read no table row per duration (138 -> ~35 ms).
 */
const statements = [
  `CREATE TABLE report_ticket_messages (
    companyId INTEGER NOT NULL,
    ticketId INTEGER NOT NULL,
    day TEXT NOT NULL,
    inbound INTEGER NOT NULL DEFAULT 0,
    outbound INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (ticketId, day)
  ) WITHOUT ROWID`,
  // Created with NOT EXISTS then updated, as report_message_hours (0400: a trigger's conflict
  // clause gives way to the firing statement's).
  `CREATE TRIGGER report_ticket_messages_insert AFTER INSERT ON messages BEGIN
     INSERT INTO report_ticket_messages (companyId, ticketId, day)
       SELECT new.companyId, new.ticketId, date(new.createdAt, '${LOCAL_OFFSET}')
       WHERE NOT EXISTS (SELECT 1 FROM report_ticket_messages r WHERE r.ticketId = new.ticketId
         AND r.day = date(new.createdAt, '${LOCAL_OFFSET}'));
     UPDATE report_ticket_messages SET inbound = inbound + (new.fromMe = 0),
       outbound = outbound + (new.fromMe = 1)
       WHERE ticketId = new.ticketId AND day = date(new.createdAt, '${LOCAL_OFFSET}');
   END`,
  `INSERT INTO report_ticket_messages (companyId, ticketId, day, inbound, outbound)
     SELECT companyId, ticketId, date(createdAt, '${LOCAL_OFFSET}'), sum(fromMe = 0),
       sum(fromMe = 1)
     FROM messages GROUP BY companyId, ticketId, 3`,
  `CREATE INDEX ticket_events_seconds ON ticket_events
    (companyId, kind, seconds, day, userId, queueId, whatsappId, ticketId)
    WHERE seconds IS NOT NULL`,
  `DROP INDEX ticket_events_user`,
  `CREATE INDEX ticket_events_user ON ticket_events
    (companyId, kind, userId, seconds, day, queueId, whatsappId, ticketId)`,
  `DROP INDEX ticket_events_queue`,
  `CREATE INDEX ticket_events_queue ON ticket_events
    (companyId, kind, queueId, seconds, day, userId, whatsappId, ticketId)`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
