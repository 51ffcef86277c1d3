import { type Kysely, sql } from "kysely";

/**
 * The inbound pipeline's lookup of a contact's latest ticket on a connection (contactId and
 * whatsappId equal, open before closed, newest first). Without this index SQLite may pick one led
 * by companyId alone and read every ticket of the company for each inbound message: 1.2 ms at 200
 * tickets, and growing with the company.
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE INDEX tickets_contact_whatsapp ON tickets (contactId, whatsappId, id)`
    .execute(db);
}
