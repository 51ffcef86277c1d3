import { type Kysely, sql } from "kysely";

/**
 * Session leases (issue 17, docs/scaling.md): when several processes share one database, a
 * connection's WhatsApp session runs only in the process that holds its lease row. The primary
 * key is the connection, so at most one holder exists; taking a lease is one upsert that succeeds
 * only when the row is absent, already ours, or expired. A holder renews before expiry; a process
 * that dies stops renewing and another takes its connections once the leases expire.
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE whatsapp_leases (
    whatsappId INTEGER PRIMARY KEY REFERENCES whatsapps(id) ON DELETE CASCADE,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    holder TEXT NOT NULL,
    expiresAt TEXT NOT NULL,
    acquiredAt TEXT NOT NULL
  )`.execute(db);
  await sql`CREATE INDEX whatsapp_leases_holder ON whatsapp_leases (holder)`.execute(db);
}
