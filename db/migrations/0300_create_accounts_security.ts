import { type Kysely, sql } from "kysely";

/**
 * Issue 30: two-factor sign-in, visible sessions and the audit log.
 * - users: the TOTP secret (sealed, server/crypto/sealed.ts), set while enrolling and kept once
 *   confirmed (twoFactorEnabledAt), with the last time step a code was used (no replay); recovery codes in their own table, hashed, each used once
 *   (usedAt).
 * - two_factor_challenges: the step between the password and the code of a login; its id is
 *   stored hashed (it is a bearer secret for a few minutes) and used once.
 * - sessions: the device (user agent) and address a session started from; `enrolling` marks a
 *   session of a user who must turn on two-factor before anything else (company or platform
 *   requirement).
 * - audit_logs: append-only; no API updates or deletes a row (the retention job removes old
 *   ones). companyId is the company whose data changed (super users read every company's).
 */
const statements = [
  `ALTER TABLE users ADD COLUMN twoFactorSecret TEXT`,
  `ALTER TABLE users ADD COLUMN twoFactorEnabledAt TEXT`,
  `ALTER TABLE users ADD COLUMN twoFactorLastStep INTEGER`,
  `CREATE TABLE recovery_codes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    userId INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    codeHash TEXT NOT NULL,
    createdAt TEXT NOT NULL,
    usedAt TEXT
  )`,
  `CREATE INDEX recovery_codes_user ON recovery_codes (companyId, userId)`,
  `CREATE TABLE two_factor_challenges (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    userId INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    challengeHash TEXT NOT NULL UNIQUE,
    createdAt TEXT NOT NULL,
    expiresAt TEXT NOT NULL,
    usedAt TEXT
  )`,
  `CREATE INDEX two_factor_challenges_user ON two_factor_challenges (companyId, userId)`,
  `ALTER TABLE sessions ADD COLUMN userAgent TEXT`,
  `ALTER TABLE sessions ADD COLUMN ip TEXT`,
  `ALTER TABLE sessions ADD COLUMN enrolling INTEGER NOT NULL DEFAULT 0`,
  `CREATE INDEX sessions_company_live ON sessions (companyId, endedAt)`,
  `CREATE TABLE audit_logs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    userId INTEGER,
    userName TEXT,
    action TEXT NOT NULL,
    entity TEXT NOT NULL,
    entityId TEXT,
    before TEXT,
    after TEXT,
    ip TEXT,
    userAgent TEXT,
    createdAt TEXT NOT NULL
  )`,
  `CREATE INDEX audit_logs_company_time ON audit_logs (companyId, createdAt)`,
  `CREATE INDEX audit_logs_time ON audit_logs (createdAt)`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
