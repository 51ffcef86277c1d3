import { type Kysely, sql } from "kysely";

/**
 * messages.mediaPending (issue 34): an inbound media message whose file could not be stored (the
 * media folder unwritable, the disk full) is kept with its media pending; the media_retry job
 * downloads it again and clears the flag. The partial index holds only those few rows.
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE messages ADD COLUMN mediaPending INTEGER NOT NULL DEFAULT 0`.execute(db);
  await sql`CREATE INDEX messages_media_pending ON messages (companyId, id)
    WHERE mediaPending = 1`.execute(db);
}
