import { type Kysely, sql } from "kysely";

/**
 * Issue 45 item 7: a Cloud API number that Meta throttles (130429, HTTP 429 or a 5xx) pauses all
 * its sends until backoffUntil, each pause longer than the last (backoffLevel consecutive
 * refusals; a send that goes through sets it back to 0). In the database, so a restart keeps the
 * pause and every process sees it; other numbers are not held.
 */
const statements = [
  `ALTER TABLE whatsapp_cloud ADD COLUMN backoffUntil TEXT`,
  `ALTER TABLE whatsapp_cloud ADD COLUMN backoffLevel INTEGER NOT NULL DEFAULT 0`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
