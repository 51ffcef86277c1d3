import { type Kysely, sql } from "kysely";

/**
 * Why a schedule was not sent (issue 10): `errorCode` holds the catalogue code the job met (no
 * connection: ERR_NO_DEF_WAPP_FOUND / ERR_WAPP_NOT_INITIALIZED; invalid number:
 * ERR_WAPP_INVALID_CONTACT), and `messageId` the message the job queued, whose `sendError` says
 * when the provider refused it later (ERR_SENDING_WAPP_MSG). Both are cleared by a retry.
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE schedules ADD COLUMN errorCode TEXT`.execute(db);
  await sql`ALTER TABLE schedules ADD COLUMN messageId INTEGER REFERENCES messages(id) ON DELETE SET NULL`
    .execute(db);
}
