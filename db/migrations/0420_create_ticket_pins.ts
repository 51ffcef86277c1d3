import { type Kysely, sql } from "kysely";

/**
 * Issue 28 item 2: an attendant pins tickets to the top of their own lists. One row per (user,
 * ticket), keyed by its references (no id of its own leaves the server); the unique index
 * ticket_pins_user (companyId, userId, ticketId) makes a second pin of the same ticket a no-op
 * and reads a user's pins (at most LIMITS.pinnedTickets) in one range. The rows go with their
 * ticket, user or company.
 */
const statements = [
  `CREATE TABLE ticket_pins (
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    userId INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    ticketId INTEGER NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
    createdAt TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX ticket_pins_user ON ticket_pins (companyId, userId, ticketId)`,
  // Deleting a ticket looks its pins up by ticket (the foreign key's cascade).
  `CREATE INDEX ticket_pins_ticket ON ticket_pins (ticketId)`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
