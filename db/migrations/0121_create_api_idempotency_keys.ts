import { type Kysely, sql } from "kysely";

/**
 * Idempotency keys of the send API (issue 16): a request with an `Idempotency-Key` header
 * stores its answer here in the same transaction as the messages it queued, so a retry with the
 * same key replays that answer instead of sending again. UNIQUE (companyId, whatsappId, key) is
 * what stops the duplicate, even for two retries racing each other. Rows older than a day are
 * deleted when the connection sends again.
 */
const statements = [
  `CREATE TABLE api_idempotency_keys (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    whatsappId INTEGER NOT NULL REFERENCES whatsapps(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    requestHash TEXT NOT NULL,
    responseJson TEXT NOT NULL,
    createdAt TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX api_idempotency_keys_key ON api_idempotency_keys (companyId, whatsappId, key)`,
  `CREATE INDEX api_idempotency_keys_age ON api_idempotency_keys (companyId, whatsappId, createdAt)`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
