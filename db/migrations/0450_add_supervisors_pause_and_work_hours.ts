import { type Kysely, sql } from "kysely";

/**
 * Issue 26, the rest of it:
 * - user_queues.supervisor: the user supervises that queue (hears its breaches, the bell); a mark
 *   on the membership, not a profile (the specification's profiles stay 'user' and 'admin').
 * - queues.pauseWhenWaitingOnCustomer: while a ticket's last message is ours the resolution
 *   clock stops; tickets.resolutionPausedAt is when it stopped (NULL: running). When the contact
 *   writes, resolutionDueAt moves by the queue's working time that passed, and the mark clears.
 * - users.startWork / users.endWork: the attendant's own daily hours (HH:MM; NULL: any time),
 *   within which distribution gives them tickets.
 */
const STATEMENTS = [
  `ALTER TABLE user_queues ADD COLUMN supervisor INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE queues ADD COLUMN pauseWhenWaitingOnCustomer INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE tickets ADD COLUMN resolutionPausedAt TEXT`,
  `ALTER TABLE users ADD COLUMN startWork TEXT`,
  `ALTER TABLE users ADD COLUMN endWork TEXT`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}
