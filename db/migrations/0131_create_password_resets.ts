import { type Kysely, sql } from "kysely";

/**
 * Password recovery tokens (issue 17). Only a SHA-256 of the token is stored, so a copy of the
 * database or a backup cannot be used to reset anyone's password. `tokenHash` is unique (the key
 * a reset looks up); a token is spent by setting `usedAt` in the same statement that checks it
 * is unspent and unexpired, so two resets with one token cannot both succeed.
 */
const statements = [
  `CREATE TABLE password_resets (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    userId INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    tokenHash TEXT NOT NULL UNIQUE,
    createdAt TEXT NOT NULL,
    expiresAt TEXT NOT NULL,
    usedAt TEXT
  )`,
  `CREATE INDEX password_resets_user ON password_resets (companyId, userId, usedAt)`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
