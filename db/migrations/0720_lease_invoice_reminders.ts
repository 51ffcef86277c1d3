import { type Kysely, sql } from "kysely";

/**
 * Issue 43 item 2(c), mails: a reminder claimed by a process that died before its mail went out
 * was never sent (0155: "at most once"). A claim made to send now holds a lease, `claimedUntil`;
 * one still unsent past it is claimed again by the next tick (server/billing/reminders.ts), so the
 * mail goes out at least once. A claim of a skipped stage has none (null) and stays as it is, as
 * do the rows written before. invoice_reminders_once (companyId, invoiceId, kind) still stops a
 * second claim while the first one's lease runs.
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`ALTER TABLE invoice_reminders ADD COLUMN claimedUntil TEXT`).execute(db);
}
