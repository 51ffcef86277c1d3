import { type Kysely, sql } from "kysely";

/**
 * Issue 43 item 2(c): the events that leave the system (webhooks out, pushes) are noted in the
 * SAME transaction that commits the change (server/events/outgoing_repository.ts). The live path
 * queues them after the commit and marks the row captured; a row still open after the grace
 * (the process that committed died first) is rebuilt from the database by the `outgoing` job and
 * queued then. Both paths queue under the row's eventKey, so webhook_deliveries_event
 * (webhookId, eventId) and push_deliveries_once (subscriptionId, eventKey) stop a second
 * delivery; the unique outgoing_events_once (eventKey) names each event once across processes.
 * A claim (claimId, claimedUntil) is a lease: two ticks, here or in another process, never
 * rebuild one row at the same time, and a tick that dies leaves it due again.
 */
const statements = [
  `CREATE TABLE outgoing_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    eventKey TEXT NOT NULL,
    event TEXT NOT NULL,
    subject TEXT NOT NULL,
    claimId TEXT,
    claimedUntil TEXT,
    createdAt TEXT NOT NULL,
    capturedAt TEXT
  )`,
  `CREATE UNIQUE INDEX outgoing_events_once ON outgoing_events (eventKey)`,
  `CREATE INDEX outgoing_events_open ON outgoing_events (capturedAt, createdAt)`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
