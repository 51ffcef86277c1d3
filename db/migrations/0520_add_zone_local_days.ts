import { type Kysely, sql } from "kysely";
import { DEFAULT_TIME_ZONE, TIME_ZONE_SETTING, zoneSpans } from "../../contract/time_zone.ts";

/**
 * Issue 43 item 1: the reports' local days follow each company's time zone (the setting
 * `timeZone`), not a fixed UTC-3 (LOCAL_OFFSET of 0400). SQLite knows no IANA zones, so the
 * zones' offsets are a table: zone_offsets holds, per zone, every change of its offset from UTC
 * (daylight saving included) from 2000 to 2100, computed by `zoneSpans` (contract/time_zone.ts, the
 * same function the reports use for hours). The triggers that stamp a local day (the timeline's
 * `day`, report_ticket_messages) read the company's zone from its settings and the offset in
 * force at the instant from this table: one indexed lookup each.
 *
 * A zone's rows are written before any company uses it (`zoneOffsetRows`: this migration for the
 * default and every zone already set; the settings service when a company picks a new one, in the
 * same transaction that rebuilds the company's days: server/reports/local_days_repository.ts).
 */
export const ZONE_TABLE_FROM = Date.UTC(2000, 0, 1);
export const ZONE_TABLE_TO = Date.UTC(2100, 0, 1);

/** The rows of zone_offsets for a zone; the first one starts at the beginning of time. */
export function zoneOffsetRows(zone: string) {
  return zoneSpans(zone, ZONE_TABLE_FROM, ZONE_TABLE_TO).map((span, i) => ({
    zone,
    fromAt: i === 0 ? "0000-01-01T00:00:00.000Z" : new Date(span.fromMs).toISOString(),
    offsetMinutes: span.offsetMinutes,
  }));
}

/**
 * SQL: the company's local calendar day (YYYY-MM-DD) of the instant `at` (ISO text), for
 * `companyId` (both SQL expressions). A zone without rows (none should be) reads as UTC-3, the
 * default zone's offset, as before this migration.
 */
export const LOCAL_DAY = (at: string, companyId: string) =>
  `date(${at}, coalesce((SELECT o.offsetMinutes FROM zone_offsets o
     WHERE o.zone = coalesce((SELECT s.value FROM settings s WHERE s.companyId = ${companyId}
       AND s.key = '${TIME_ZONE_SETTING}'), '${DEFAULT_TIME_ZONE}') AND o.fromAt <= ${at}
     ORDER BY o.fromAt DESC LIMIT 1), -180) || ' minutes')`;

const EVENT_COLUMNS =
  "companyId, ticketId, kind, at, userId, queueId, whatsappId, fromUserId, fromQueueId, seconds, value";

const statements = [
  `CREATE TABLE zone_offsets (
    zone TEXT NOT NULL,
    fromAt TEXT NOT NULL,
    offsetMinutes INTEGER NOT NULL,
    PRIMARY KEY (zone, fromAt)
  ) WITHOUT ROWID`,
  `DROP TRIGGER ticket_event_facts_insert`,
  `CREATE TRIGGER ticket_event_facts_insert INSTEAD OF INSERT ON ticket_event_facts BEGIN
     INSERT INTO ticket_events (${EVENT_COLUMNS}, day) VALUES (new.companyId, new.ticketId,
       new.kind, new.at, new.userId, new.queueId, new.whatsappId, new.fromUserId, new.fromQueueId,
       new.seconds, new.value, ${LOCAL_DAY("new.at", "new.companyId")});
   END`,
  `DROP TRIGGER report_ticket_messages_insert`,
  `CREATE TRIGGER report_ticket_messages_insert AFTER INSERT ON messages BEGIN
     INSERT INTO report_ticket_messages (companyId, ticketId, day)
       SELECT new.companyId, new.ticketId, ${LOCAL_DAY("new.createdAt", "new.companyId")}
       WHERE NOT EXISTS (SELECT 1 FROM report_ticket_messages r WHERE r.ticketId = new.ticketId
         AND r.day = ${LOCAL_DAY("new.createdAt", "new.companyId")});
     UPDATE report_ticket_messages SET inbound = inbound + (new.fromMe = 0),
       outbound = outbound + (new.fromMe = 1)
       WHERE ticketId = new.ticketId AND day = ${LOCAL_DAY("new.createdAt", "new.companyId")};
   END`,
];

/** Re-stamps one company's (or, with no id, every company's) local days and rebuilds their sums. */
export function rebuildLocalDays(companyId: number | null): string[] {
  const only = (column: string) => companyId === null ? "1" : `${column} = ${companyId}`;
  return [
    // Columns named with their table: inside LOCAL_DAY's subqueries a bare companyId would be
    // the settings row's own.
    `UPDATE ticket_events SET day = ${LOCAL_DAY("ticket_events.at", "ticket_events.companyId")}
     WHERE ${only("companyId")}`,
    `DELETE FROM report_days WHERE ${only("companyId")}`,
    `INSERT INTO report_days SELECT companyId, day, ifnull(userId, 0), ifnull(queueId, 0),
       ifnull(whatsappId, 0), sum(kind = 'created'), sum(kind = 'queued'),
       sum(kind = 'accepted'), sum(kind = 'resolved'), sum(kind = 'reopened'),
       sum(kind = 'transfer'), sum(kind = 'sla_breached'), sum(kind = 'rated' AND value = 1),
       sum(kind = 'rated' AND value = 2), sum(kind = 'rated' AND value = 3)
     FROM ticket_events WHERE ${only("companyId")}
       AND kind <> 'first_response' AND kind <> 'handover'
     GROUP BY 1, 2, 3, 4, 5`,
    `DELETE FROM report_ticket_messages WHERE ${only("companyId")}`,
    `INSERT INTO report_ticket_messages (companyId, ticketId, day, inbound, outbound)
       SELECT companyId, ticketId, day, sum(fromMe = 0), sum(fromMe = 1)
       FROM (SELECT m.companyId, m.ticketId, m.fromMe,
           ${LOCAL_DAY("m.createdAt", "m.companyId")} AS day
         FROM messages m WHERE ${only("m.companyId")})
       GROUP BY companyId, ticketId, day`,
  ];
}

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
  const { rows } = await sql<{ zone: string }>`SELECT DISTINCT value AS zone FROM settings
    WHERE key = ${TIME_ZONE_SETTING}`.execute(db);
  const zones = new Set([DEFAULT_TIME_ZONE, ...rows.map((r) => r.zone)]);
  for (const zone of zones) {
    let spans;
    try {
      spans = zoneOffsetRows(zone);
    } catch {
      continue; // not a zone this runtime knows: its companies read as the default's offset
    }
    for (const row of spans) {
      await sql`INSERT INTO zone_offsets (zone, fromAt, offsetMinutes)
        VALUES (${row.zone}, ${row.fromAt}, ${row.offsetMinutes})`.execute(db);
    }
  }
  // Days already stamped at UTC-3 move to their company's zone.
  for (const statement of rebuildLocalDays(null)) await sql.raw(statement).execute(db);
}
