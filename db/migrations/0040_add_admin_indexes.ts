import { type Kysely, sql } from "kysely";

/**
 * Indexes for the administration area (issue 5):
 * - dashboard metrics aggregate tickets by when they were created, accepted and closed; these
 *   indexes hold every value the aggregates read, so a 100,000-ticket company is summed from
 *   indexes alone (server/dashboard/repository.ts, tests/bench/dashboard_bench.ts);
 * - leads count contacts by creation date;
 * - the contacts list is ordered by name case-insensitively, page by page;
 * - a contact's answer picks one option per level of a queue's chatbot tree: the answer is unique
 *   among siblings (roots have parentId NULL, hence the ifnull);
 * - contact search is a substring search over name, number and email: an FTS5 trigram index
 *   (accent-insensitive) instead of `LIKE '%x%'` over every contact of a company (DESIGN: lists).
 */
const statements = [
  // pending/happening: current status, created in the range
  `CREATE INDEX tickets_status_created ON tickets (companyId, status, createdAt)`,
  // today's tickets by hour
  `CREATE INDEX tickets_created ON tickets (companyId, createdAt)`,
  // Wait and support durations are indexed as expressions: SQLite (3.41+) reads an indexed
  // expression from the index instead of parsing two timestamps per ticket, which is most of
  // the cost of averaging tens of thousands of tickets. Queries must spell them exactly so.
  `CREATE INDEX tickets_accepted ON tickets (companyId, acceptedAt,
     (unixepoch(acceptedAt, 'subsec') - unixepoch(createdAt, 'subsec')))`,
  // Finished tickets are summed per user (plus the "no user" group), each a range seek.
  `CREATE INDEX tickets_user_closed ON tickets (companyId, userId, closedAt, status,
     (unixepoch(closedAt, 'subsec') - unixepoch(acceptedAt, 'subsec')))`,
  `CREATE INDEX contacts_created ON contacts (companyId, createdAt, isGroup)`,
  `CREATE INDEX contacts_name_nocase ON contacts (companyId, name COLLATE NOCASE, id)`,
  `CREATE UNIQUE INDEX queue_options_answer ON queue_options (queueId, ifnull(parentId, 0), option)`,
  `CREATE INDEX user_ratings_user ON user_ratings (companyId, userId, createdAt, rate)`,
  `CREATE VIRTUAL TABLE contacts_fts USING fts5(name, number, email, content='contacts', content_rowid='id', tokenize='trigram remove_diacritics 1')`,
  `INSERT INTO contacts_fts(contacts_fts) VALUES ('rebuild')`,
  `CREATE TRIGGER contacts_fts_insert AFTER INSERT ON contacts BEGIN
     INSERT INTO contacts_fts(rowid, name, number, email) VALUES (new.id, new.name, new.number, new.email);
   END`,
  `CREATE TRIGGER contacts_fts_delete AFTER DELETE ON contacts BEGIN
     INSERT INTO contacts_fts(contacts_fts, rowid, name, number, email)
       VALUES ('delete', old.id, old.name, old.number, old.email);
   END`,
  `CREATE TRIGGER contacts_fts_update AFTER UPDATE OF name, number, email ON contacts BEGIN
     INSERT INTO contacts_fts(contacts_fts, rowid, name, number, email)
       VALUES ('delete', old.id, old.name, old.number, old.email);
     INSERT INTO contacts_fts(rowid, name, number, email) VALUES (new.id, new.name, new.number, new.email);
   END`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
