import { type Kysely, sql } from "kysely";

/**
 * Message search that does not touch the messages table (issue 4: search p95 <= 50 ms on a
 * million messages). The FTS5 index becomes contentless (contentless_delete, SQLite >= 3.43)
 * and its rowid carries the ticket: rowid = ticketId * 2^32 + messages.id. A search then reads
 * ticket ids straight from the index (rowid >> 32) instead of looking each hit up in messages,
 * which cost ~0.7 us per hit (70 ms for a common word). messages.id stays below 2^32.
 *
 * Same name and tokenizer as before (messages_fts, unicode61 remove_diacritics 2): MATCH works as
 * it did; only the rowid's meaning changed (server/tickets/list_repository.ts).
 */
const statements = [
  `DROP TRIGGER IF EXISTS messages_fts_insert`,
  `DROP TRIGGER IF EXISTS messages_fts_delete`,
  `DROP TRIGGER IF EXISTS messages_fts_update`,
  `DROP TABLE IF EXISTS messages_fts`,
  `CREATE VIRTUAL TABLE messages_fts USING fts5(body, content='', contentless_delete=1,
     tokenize='unicode61 remove_diacritics 2')`,
  `INSERT INTO messages_fts(rowid, body)
     SELECT ticketId * 4294967296 + id, body FROM messages WHERE body <> ''`,
  `CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages WHEN new.body <> '' BEGIN
     INSERT INTO messages_fts(rowid, body) VALUES (new.ticketId * 4294967296 + new.id, new.body);
   END`,
  `CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages WHEN old.body <> '' BEGIN
     DELETE FROM messages_fts WHERE rowid = old.ticketId * 4294967296 + old.id;
   END`,
  `CREATE TRIGGER messages_fts_update AFTER UPDATE OF body, ticketId ON messages BEGIN
     DELETE FROM messages_fts WHERE rowid = old.ticketId * 4294967296 + old.id;
     INSERT INTO messages_fts(rowid, body) SELECT new.ticketId * 4294967296 + new.id, new.body
       WHERE new.body <> '';
   END`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
