import { type Kysely, sql } from "kysely";

/**
 * Ticket list orders without a status (search tab, show-all) and the notifications list
 * (unread only, read as "mine" and "unassigned" parts) walk an index in updatedAt order and stop
 * after a page, instead of sorting every ticket of the company. The partial index holds only
 * tickets with unread messages; queries name `unreadMessages > 0` literally so that SQLite can use
 * it (server/tickets/list_repository.ts).
 */
const statements = [
  `CREATE INDEX tickets_updated ON tickets (companyId, updatedAt)`,
  `CREATE INDEX tickets_unread ON tickets (companyId, userId, updatedAt) WHERE unreadMessages > 0`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
