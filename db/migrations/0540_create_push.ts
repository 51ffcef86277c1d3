import { type Kysely, sql } from "kysely";

/**
 * Issue 42: Web Push. Three tables, each with its company first.
 *
 * - push_subscriptions: one browser (device) of one user, bound to the sign-in session that made
 *   it, so that ending the session (logout, an admin, a newer login) drops it with the session's
 *   end (server/auth/repository.ts) and the cascade. The endpoint is the browser's own capability
 *   URL: unique platform-wide (push_subscriptions_endpoint), since a device that signs in as
 *   someone else must stop hearing the first user.
 * - push_preferences: one row per user (which kinds, the message text or not, quiet hours).
 * - push_deliveries: the queue the `push` job sends (server/push/send.ts). The unique
 *   push_deliveries_once (subscriptionId, eventKey) stops a second row for one fact on one device:
 *   a domain event heard twice, a job ticking in two processes, N processes behind Redis.
 */
const statements = [
  `CREATE TABLE push_subscriptions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    userId INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    sessionId INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    endpoint TEXT NOT NULL,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    language TEXT NOT NULL DEFAULT 'pt',
    userAgent TEXT,
    createdAt TEXT NOT NULL,
    lastSentAt TEXT
  )`,
  `CREATE UNIQUE INDEX push_subscriptions_endpoint ON push_subscriptions (endpoint)`,
  `CREATE INDEX push_subscriptions_user ON push_subscriptions (companyId, userId)`,
  `CREATE INDEX push_subscriptions_session ON push_subscriptions (sessionId)`,
  `CREATE TABLE push_preferences (
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    userId INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kinds TEXT NOT NULL,
    showText INTEGER NOT NULL DEFAULT 0,
    quietStart TEXT,
    quietEnd TEXT,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX push_preferences_user ON push_preferences (companyId, userId)`,
  `CREATE TABLE push_deliveries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    subscriptionId INTEGER NOT NULL REFERENCES push_subscriptions(id) ON DELETE CASCADE,
    eventKey TEXT NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0,
    nextAttemptAt TEXT NOT NULL,
    claimId TEXT,
    claimedUntil TEXT,
    lastStatus INTEGER,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX push_deliveries_once ON push_deliveries (subscriptionId, eventKey)`,
  `CREATE INDEX push_deliveries_due ON push_deliveries (status, nextAttemptAt)`,
  `CREATE INDEX push_deliveries_company ON push_deliveries (companyId, createdAt)`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
