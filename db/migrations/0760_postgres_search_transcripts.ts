import { type Kysely, sql } from "kysely";
import { isPostgres } from "../engine.ts";

/**
 * Issue 46: on PostgreSQL the message search read the body only, while SQLite's messages_fts holds
 * the body and a voice note's transcript (migration 0600): a voice note was not found by what was
 * said (tests/api/assist_transcription_test.ts on PostgreSQL). The index now covers the same text
 * (server/messages/search_repository.ts messageMatches says it the same way, or the index is not
 * used). Nothing to do on SQLite.
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`DROP INDEX IF EXISTS messages_search`.execute(db);
  await sql`CREATE INDEX messages_search ON messages USING gin
    (to_tsvector('simple', f_unaccent(body || ' ' || coalesce(transcript, ''))))`.execute(db);
}
