import { type Kysely, sql } from "kysely";

/**
 * Invoice reminders by email (issue 29 item 2). One row per (invoice, kind) — kinds `created`,
 * `due_in_3`, `due_in_1`, `overdue` — claimed before the mail is sent: the unique index
 * invoice_reminders_once (companyId, invoiceId, kind) stops a second mail of the same kind,
 * whatever ticks twice or restarts (server/billing/reminders.ts). `sentAt` is set once the mail
 * server took it (null: a stage skipped because a later one was due, or a send cut by a crash:
 * at most once); a failed send deletes the claim, so the next tick tries again.
 */
const statements = [
  `CREATE TABLE invoice_reminders (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    invoiceId INTEGER NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    createdAt TEXT NOT NULL,
    sentAt TEXT
  )`,
  `CREATE UNIQUE INDEX invoice_reminders_once ON invoice_reminders (companyId, invoiceId, kind)`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
