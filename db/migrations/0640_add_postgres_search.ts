import { type Kysely, sql } from "kysely";
import { isPostgres } from "../engine.ts";

/**
 * Issue 46: search on PostgreSQL, where SQLite has its FTS5 tables (messages_fts, contacts_fts,
 * which the PostgreSQL path of db/postgres_sql.ts skips). The same observable rules:
 * - messages: whole words (prefixes in the ticket list), accents and case ignored: a GIN index on
 *   to_tsvector('simple', f_unaccent(body)), queried with a tsquery of the typed words
 *   (server/messages/fts.ts tsQuery). Chosen over pg_trgm for messages: a word query reads one
 *   posting list instead of every trigram's, and a trigram LIKE would match inside words;
 * - contacts: a substring of name, number or email, accents and case ignored, as SQLite's
 *   trigram FTS5 table: a pg_trgm GIN index on the unaccented text, queried with ILIKE.
 * Nothing to do on SQLite.
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`CREATE INDEX messages_search ON messages
    USING gin (to_tsvector('simple', f_unaccent(body)))`.execute(db);
  await sql`CREATE INDEX contacts_search ON contacts USING gin (f_unaccent(name || ' ' || number
    || ' ' || coalesce(email, '')) gin_trgm_ops)`.execute(db);
}
