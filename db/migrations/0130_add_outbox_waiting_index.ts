import { type Kysely, sql } from "kysely";

/**
 * /metrics reads the outbox's depth and its oldest waiting row at every scrape (issue 17). The
 * outbox keeps every row it ever sent, so without this index each scrape would scan them all. The
 * partial index holds only the rows still waiting, a handful in normal operation. It is not
 * scoped by company on purpose: it serves the operator's process-wide view, never a tenant's list.
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX outbox_waiting ON outbox (createdAt)
    WHERE status IN ('pending', 'sending')`.execute(db);
}
