import { type Kysely, sql } from "kysely";

/**
 * Issue 28 item 5: a quick answer of one queue, offered after '/' to that queue's attendants
 * (besides the company-wide and personal ones). Null: not a queue's. Removing the queue removes
 * its answers' tie to it (SET NULL keeps the text; it stays its author's).
 */
const statements = [
  `ALTER TABLE quick_messages ADD COLUMN queueId INTEGER REFERENCES queues(id) ON DELETE SET NULL`,
  `CREATE INDEX quick_messages_queue ON quick_messages (companyId, queueId)`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
