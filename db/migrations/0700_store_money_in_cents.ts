import { type Kysely, sql } from "kysely";

/**
 * Issue 46: money as integer cents on both engines, not REAL (a binary fraction: 0.1 + 0.2 is
 * not 0.3, and PostgreSQL's double precision would carry the same error). `plans.valueCents` (the
 * monthly price) and `invoices.valueCents` replace `value`; the repositories answer `value` in
 * reais as before (server/billing/money.ts), so the API keeps its shape. Old values are rounded to
 * the nearest cent, which is what every screen and receipt showed of them.
 */
const statements = [
  `ALTER TABLE plans ADD COLUMN valueCents INTEGER NOT NULL DEFAULT 0`,
  `UPDATE plans SET valueCents = CAST(round(value * 100) AS INTEGER)`,
  `ALTER TABLE plans DROP COLUMN value`,
  `ALTER TABLE invoices ADD COLUMN valueCents INTEGER NOT NULL DEFAULT 0`,
  `UPDATE invoices SET valueCents = CAST(round(value * 100) AS INTEGER)`,
  `ALTER TABLE invoices DROP COLUMN value`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
