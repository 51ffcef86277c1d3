import { type Kysely, sql } from "kysely";

/**
 * campaigns.startedAt (issue 13): set in the transaction that makes a campaign EM_ANDAMENTO, after
 * its shipping rows were written in short transactions of their own (so that writing 50,000 rows
 * never holds the database for long). A campaign cancelled while its rows were being written has
 * no startedAt: a restart schedules it again, and writing the rows resumes where it stopped (the
 * (campaignId, number) key skips those already there).
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE campaigns ADD COLUMN startedAt TEXT`).execute(db);
}
