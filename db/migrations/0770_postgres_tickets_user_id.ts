import { type Kysely, sql } from "kysely";
import { isPostgres } from "../engine.ts";

/**
 * Issue 46: the user's ticket lists on PostgreSQL. They order by (updatedAt, id); SQLite's
 * tickets_user (companyId, userId, status, updatedAt) carries the rowid, so it gives that order
 * and the ids by itself, while PostgreSQL's did not: the closed list of a user with 4,660 closed
 * tickets read them all from the table (a bitmap heap scan, 25 ms) to sort them. With id in the
 * index the arm is an index-only scan (2.6 ms), and the search's window of the user's list reads
 * no table rows either. Nothing to do on SQLite.
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`DROP INDEX IF EXISTS tickets_user`.execute(db);
  await sql`CREATE INDEX tickets_user
    ON tickets ("companyId", "userId", status, "updatedAt", id)`.execute(db);
}
