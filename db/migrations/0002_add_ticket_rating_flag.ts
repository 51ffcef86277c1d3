import { type Kysely, sql } from "kysely";

/**
 * tickets.awaitingRating: set when a ticket is resolved with a rating request (setting
 * userRating); the contact's next answer 1..3 becomes a user_ratings row instead of a new ticket.
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE tickets ADD COLUMN awaitingRating INTEGER NOT NULL DEFAULT 0`.execute(db);
}
