import { type Kysely, sql } from "kysely";

/**
 * Issue 50 item 17: a ticket distribution took back from an attendant who went offline is told
 * to them when they come back (they had no socket when it happened). One row per take-back,
 * written in the transaction that takes the ticket; `toUserId` is who got it next (null: it waits
 * in the queue); `seenAt` is set when the attendant closes the notice. The unique index
 * taken_back_notices_once (ticketId, at) stops a second row for the same take-back (a tick that
 * ran twice). Rows go with their ticket, user or company.
 */
const statements = [
  `CREATE TABLE taken_back_notices (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    userId INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    ticketId INTEGER NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
    toUserId INTEGER REFERENCES users(id) ON DELETE SET NULL,
    at TEXT NOT NULL,
    seenAt TEXT
  )`,
  `CREATE UNIQUE INDEX taken_back_notices_once ON taken_back_notices (ticketId, at)`,
  // The returning attendant's unseen notices, in one range.
  `CREATE INDEX taken_back_notices_user ON taken_back_notices (companyId, userId, seenAt)`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
