import { type Kysely, sql } from "kysely";

/**
 * Issue 28, forward and edit:
 * - messages.isForwarded: the message went out as a forward (WhatsApp shows it 'Encaminhada');
 * - messages.previousBodies: the texts an edit replaced, oldest first, as a JSON array of
 *   {body, editedAt} (null when never edited), shown on demand under 'editada';
 * - outbox.forwarded: the send carries WhatsApp's forwarded mark (every retry the same);
 * - simulator_sent.forwarded / edited: what the simulated phone shows of a send.
 */
const statements = [
  `ALTER TABLE messages ADD COLUMN isForwarded INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE messages ADD COLUMN previousBodies TEXT`,
  `ALTER TABLE outbox ADD COLUMN forwarded INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE simulator_sent ADD COLUMN forwarded INTEGER NOT NULL DEFAULT 0`,
  `ALTER TABLE simulator_sent ADD COLUMN edited INTEGER NOT NULL DEFAULT 0`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
