import { type Kysely, sql } from "kysely";

/**
 * The processes sharing a database under SESSION_LEASE_SECONDS (docs/scaling.md): each writes
 * its row at every lease tick, so every process can count the live ones and hold only its fair
 * share of the connections. Keyed by the process's name (INSTANCE_ID), one row per process.
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE instances (
    id TEXT PRIMARY KEY,
    startedAt TEXT NOT NULL,
    seenAt TEXT NOT NULL
  )`.execute(db);
}
