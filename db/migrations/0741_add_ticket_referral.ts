import { type Kysely, sql } from "kysely";

/**
 * Issue 45 item 3: the ad (Click-to-WhatsApp) or post a contact came from, as Meta's inbound
 * message tells it (`referral`), kept on the ticket as JSON (contract TicketReferral) for the
 * attendant and the API. Null: the contact did not come from an ad. The latest ad wins.
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE tickets ADD COLUMN referral TEXT`.execute(db);
}
