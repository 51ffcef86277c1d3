import { type Kysely, sql } from "kysely";

/**
 * Issue 45: an attendant's reaction goes through the outbox like a message, so a connection down
 * or a process killed mid-send loses nothing. The row's `messageId` is the message reacted to,
 * `quotedWid` its WhatsApp id; `reaction` is JSON {emoji, previous} ("" removes ours; `previous`
 * is what the message showed before, put back if the network refuses for good). Null: not a
 * reaction.
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE outbox ADD COLUMN reaction TEXT`.execute(db);
}
