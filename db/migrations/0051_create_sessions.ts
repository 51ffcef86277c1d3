import { type Kysely, sql } from "kysely";

/**
 * Sessions (issue 19): a login starts one; its access and refresh tokens carry its random
 * `publicId`, and every request and socket checks that the session is live and belongs to the
 * token's user. Ending a session (logout, a newer login, a password change, stolen refresh token)
 * sets endedAt; deleting the user deletes its sessions. A token can therefore never authenticate
 * anyone but the user it was issued to, whatever happens to ids.
 */
const statements = [
  `CREATE TABLE sessions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    publicId TEXT NOT NULL UNIQUE,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    userId INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    createdAt TEXT NOT NULL,
    lastSeenAt TEXT NOT NULL,
    endedAt TEXT,
    endReason TEXT
  )`,
  `CREATE INDEX sessions_user ON sessions (userId, endedAt)`,
  `ALTER TABLE refresh_tokens ADD COLUMN sessionId INTEGER REFERENCES sessions(id) ON DELETE CASCADE`,
  `CREATE INDEX refresh_tokens_session ON refresh_tokens (sessionId)`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
