import { type Kysely, sql } from "kysely";

/**
 * Outgoing webhooks (issue 16). `webhooks`: an admin's URL, the events it wants (a JSON array),
 * its signing secret, and its health: consecutive failed attempts, and when and why it was
 * disabled. `webhook_deliveries` is the durable queue: one row per (webhook, event), written when
 * the event happens; jobs/webhooks.ts sends due rows, retries with backoff, and keeps the last
 * answer. UNIQUE (webhookId, eventId) is what stops a second delivery of the same event to the
 * same webhook; a claim (claimId, claimedUntil) stops two ticks from sending one row at once, and
 * a claim left by a crash expires and is sent again.
 */
const statements = [
  `CREATE TABLE webhooks (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    url TEXT NOT NULL,
    events TEXT NOT NULL DEFAULT '[]',
    secret TEXT NOT NULL,
    active INTEGER NOT NULL DEFAULT 1,
    failureCount INTEGER NOT NULL DEFAULT 0,
    disabledAt TEXT,
    disabledReason TEXT,
    lastStatus INTEGER,
    lastError TEXT,
    lastDeliveryAt TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE INDEX webhooks_company ON webhooks (companyId, active)`,
  `CREATE TABLE webhook_deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    webhookId INTEGER NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
    eventId TEXT NOT NULL,
    event TEXT NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0,
    nextAttemptAt TEXT NOT NULL,
    claimId TEXT,
    claimedUntil TEXT,
    lastStatus INTEGER,
    lastError TEXT,
    deliveredAt TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX webhook_deliveries_event ON webhook_deliveries (webhookId, eventId)`,
  `CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, nextAttemptAt)`,
  `CREATE INDEX webhook_deliveries_list ON webhook_deliveries (companyId, webhookId, id)`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
