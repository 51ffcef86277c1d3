import { type Kysely, sql } from "kysely";

/**
 * Baileys' auth state (credentials and Signal keys) lives here instead of a folder of files
 * (issue 3: "auth state and keys in the database, not in files"), so that a session survives a
 * restart, a redeploy, or a move to another machine that shares the database.
 *
 * One row per (connection, category, id): category "creds" holds the single credentials object
 * (id "creds"); every other category is a Baileys SignalDataTypeMap key ("pre-key", "session",
 * "sender-key", "app-state-sync-key", "lid-mapping", ...). `value` is JSON written with Baileys'
 * BufferJSON replacer so that binary keys round-trip. companyId scopes every query (tenancy).
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE baileys_auth (
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    whatsappId INTEGER NOT NULL REFERENCES whatsapps(id) ON DELETE CASCADE,
    category TEXT NOT NULL,
    id TEXT NOT NULL,
    value TEXT NOT NULL,
    updatedAt TEXT NOT NULL,
    PRIMARY KEY (whatsappId, category, id)
  ) WITHOUT ROWID`.execute(db);
}
