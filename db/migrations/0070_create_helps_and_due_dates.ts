import { type Kysely, sql } from "kysely";

/**
 * Platform administration (issue 11):
 * - helps: the help videos every user sees on /helps (platform-wide, no companyId: super users
 *   write them for every company);
 * - companies.overdueSince / blockedAt: the due-date job's state (jobs/due_dates.ts). The job marks
 *   a company overdue once (overdueSince IS NULL), blocks it once after the grace days
 *   (blockedAt IS NULL), and paying an invoice clears both, so a tick that runs twice changes
 *   nothing and a restart resumes from the rows.
 */
const statements = [
  `CREATE TABLE helps (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    title TEXT NOT NULL UNIQUE,
    description TEXT NOT NULL DEFAULT '',
    video TEXT NOT NULL DEFAULT '',
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `ALTER TABLE companies ADD COLUMN overdueSince TEXT`,
  `ALTER TABLE companies ADD COLUMN blockedAt TEXT`,
  `CREATE INDEX companies_due ON companies (dueDate)`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
