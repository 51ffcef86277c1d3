import { type Kysely, sql } from "kysely";

/**
 * Billing (issue 12): each company's invoices, the webhook events already applied, and the
 * payment provider's customer of each company.
 *
 * - `invoices_period` UNIQUE (companyId, dueDate): one invoice per billing period (the period is
 *   named by the due date it pays), so the daily job (jobs/invoices.ts) that runs twice, or again
 *   after a restart, can never create a second invoice for the same period.
 * - `payment_events` UNIQUE (provider, eventId): a webhook delivered twice (providers deliver "at
 *   least once") is applied once; the row is written in the transaction that pays the invoice.
 * - `billing_customers` UNIQUE (companyId, provider): one customer per company at the provider.
 */
const statements = [
  `CREATE TABLE invoices (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    detail TEXT NOT NULL,
    value REAL NOT NULL,
    dueDate TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'open',
    paidAt TEXT,
    paidByUserId INTEGER REFERENCES users(id) ON DELETE SET NULL,
    paidVia TEXT,
    provider TEXT,
    chargeId TEXT,
    pixPayload TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX invoices_period ON invoices (companyId, dueDate)`,
  `CREATE INDEX invoices_status ON invoices (status, provider)`,
  `CREATE UNIQUE INDEX invoices_charge ON invoices (provider, chargeId) WHERE chargeId IS NOT NULL`,
  `CREATE TABLE payment_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    provider TEXT NOT NULL,
    eventId TEXT NOT NULL,
    invoiceId INTEGER REFERENCES invoices(id) ON DELETE SET NULL,
    createdAt TEXT NOT NULL,
    UNIQUE (provider, eventId)
  )`,
  `CREATE TABLE billing_customers (
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    provider TEXT NOT NULL,
    customerId TEXT NOT NULL,
    createdAt TEXT NOT NULL,
    PRIMARY KEY (companyId, provider)
  )`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
