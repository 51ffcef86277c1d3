import { type Kysely, sql } from "kysely";

/**
 * Indexes on the child columns of foreign keys that delete many rows at once (issue 11, deleting
 * a company; also deleting a ticket or a contact). SQLite finds the children of each deleted
 * parent row with a query on the child column; without an index that query scans the whole child
 * table once per parent row. Deleting messages scanned every message per message (quotedMsgId),
 * so a company of 2,000 tickets and 20,000 messages took 102 s to delete; with these, well under a
 * second (tests/bench/company_delete_bench.ts). Columns that are mostly NULL get partial indexes
 * (`x = ?` implies `x IS NOT NULL`, so SQLite uses them for the lookups) to cost writes nothing.
 */
const statements = [
  `CREATE INDEX messages_quoted ON messages (quotedMsgId) WHERE quotedMsgId IS NOT NULL`,
  `CREATE INDEX messages_contact ON messages (contactId) WHERE contactId IS NOT NULL`,
  `CREATE INDEX outbox_message ON outbox (messageId) WHERE messageId IS NOT NULL`,
  `CREATE INDEX outbox_ticket ON outbox (ticketId) WHERE ticketId IS NOT NULL`,
  `CREATE INDEX ticket_notes_ticket_fk ON ticket_notes (ticketId)`,
  `CREATE INDEX ticket_notes_contact_fk ON ticket_notes (contactId)`,
  `CREATE INDEX schedules_ticket ON schedules (ticketId) WHERE ticketId IS NOT NULL`,
  `CREATE INDEX schedules_contact ON schedules (contactId)`,
  `CREATE INDEX user_ratings_ticket ON user_ratings (ticketId)`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
