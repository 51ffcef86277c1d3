import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import { crossCompany } from "../../db/tenancy.ts";
import type { Invoice } from "../../db/schema.ts";
import type { InvoiceView } from "../../contract/billing_types.ts";
import { likePattern, pageAnswer, pageWindow } from "../paging.ts";
import { centsOf, inReais } from "../../contract/money.ts";

/** The value of optional fields as stored (cents), the others as given. */
function storedFields(fields: Partial<InvoiceFields>) {
  const { value, ...rest } = fields;
  return value === undefined ? rest : { ...rest, valueCents: centsOf(value) };
}

const maybeReais = <T extends { valueCents: number }>(row: T | undefined) =>
  row === undefined ? undefined : inReais(row);

export function invoiceView(row: Invoice, companyName?: string): InvoiceView {
  const view: InvoiceView = {
    id: row.id,
    companyId: row.companyId,
    detail: row.detail,
    value: row.value,
    dueDate: row.dueDate,
    status: row.status,
    paidAt: row.paidAt,
    paidByUserId: row.paidByUserId,
    paidVia: row.paidVia,
    provider: row.provider,
    chargeId: row.chargeId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
  if (companyName !== undefined) view.companyName = companyName;
  return view;
}

/** Has the company ever paid an invoice? Until it has, its period is the free trial (issue 50). */
export async function hasPaidInvoice(db: Database, companyId: number): Promise<boolean> {
  const row = await db.selectFrom("invoices").select("id").where("companyId", "=", companyId)
    .where("status", "=", "paid").limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Whose invoices a read covers: one company's, or every company's (super users). */
export type InvoiceScope = { companyId: number } | { allCompanies: true };

/** Super users' reads cover every company on purpose. */
function readerOf(db: Database, scope: InvoiceScope): Database {
  return "allCompanies" in scope ? crossCompany(db) : db;
}

/** GET /api/invoices/all: newest due date first; the search matches the detail or the id. */
export async function pageInvoices(
  db: Database,
  scope: InvoiceScope,
  searchParam: string | undefined,
  pageNumber: number,
) {
  const q = invoicesQuery(db, scope, searchParam);
  const window = pageWindow(pageNumber);
  const rows = await q.selectAll("invoices").select("companies.name as companyName")
    .orderBy("invoices.dueDate", "desc").orderBy("invoices.id", "desc")
    .limit(window.limit).offset(window.offset).execute();
  const total = await q.select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const all = "allCompanies" in scope;
  const invoices = rows.map(({ companyName, ...row }) =>
    invoiceView(inReais(row), all ? companyName : undefined)
  );
  return pageAnswer("invoices", invoices, Number(total.n), window);
}

export async function findInvoice(
  db: Database,
  scope: InvoiceScope,
  id: number,
): Promise<Invoice | undefined> {
  let q = readerOf(db, scope).selectFrom("invoices").selectAll().where("id", "=", id);
  if ("companyId" in scope) q = q.where("companyId", "=", scope.companyId);
  return maybeReais(await q.executeTakeFirst());
}

export async function oldestOpenInvoice(
  db: Database,
  companyId: number,
): Promise<Invoice | undefined> {
  return maybeReais(
    await db.selectFrom("invoices").selectAll().where("companyId", "=", companyId)
      .where("status", "=", "open").orderBy("dueDate").orderBy("id").executeTakeFirst(),
  );
}

/**
 * The invoice of one company's period, created unless it exists: the unique index
 * invoices_period (companyId, dueDate) makes a second insert for the same period a no-op.
 * Returns the row of that period either way.
 */
export async function ensurePeriodInvoice(
  db: Database,
  row: { companyId: number; detail: string; value: number; dueDate: string; now: string },
): Promise<{ invoice: Invoice; created: boolean }> {
  const inserted = await insertInvoice(db, row.companyId, row, row.now);
  if (inserted) return { invoice: inserted, created: true };
  const existing = await findPeriodInvoice(db, row.companyId, row.dueDate);
  if (!existing) throw new Error(`invoice of ${row.dueDate} neither inserted nor found`);
  return { invoice: existing, created: false };
}

/** The company's invoice of the period ending on `dueDate` (invoices_period), if made. */
export async function findPeriodInvoice(
  db: Database,
  companyId: number,
  dueDate: string,
): Promise<Invoice | undefined> {
  return maybeReais(
    await db.selectFrom("invoices").selectAll()
      .where("companyId", "=", companyId).where("dueDate", "=", dueDate)
      .executeTakeFirst(),
  );
}

export async function setInvoiceCharge(
  db: Database,
  companyId: number,
  id: number,
  charge: { provider: string; chargeId: string | null; pixPayload: string; now: string },
) {
  await db.updateTable("invoices").set({
    provider: charge.provider,
    chargeId: charge.chargeId,
    pixPayload: charge.pixPayload,
    updatedAt: charge.now,
  }).where("id", "=", id).where("companyId", "=", companyId).where("status", "=", "open")
    .execute();
}

/** Unpaid invoices with a charge at `provider`, oldest first (the reconciliation job's batch). */
export async function openCharges(db: Database, provider: string, limit: number) {
  return await crossCompany(db).selectFrom("invoices").select(["id", "companyId", "chargeId"])
    .where("status", "=", "open").where("provider", "=", provider)
    .where("chargeId", "is not", null).orderBy("updatedAt").limit(limit).execute();
}

export async function findInvoiceByCharge(
  db: Database,
  provider: string,
  chargeId: string,
): Promise<Invoice | undefined> {
  return maybeReais(
    await crossCompany(db).selectFrom("invoices").selectAll().where("provider", "=", provider)
      .where("chargeId", "=", chargeId).executeTakeFirst(),
  );
}

export async function findCustomer(db: Database, companyId: number, provider: string) {
  const row = await db.selectFrom("billing_customers").select("customerId")
    .where("companyId", "=", companyId).where("provider", "=", provider).executeTakeFirst();
  return row?.customerId;
}

/** Keeps the first customer stored for the company (two checkouts at once keep one). */
export async function saveCustomer(
  db: Database,
  companyId: number,
  provider: string,
  customerId: string,
  now: string,
): Promise<string> {
  await db.insertInto("billing_customers").values({
    companyId,
    provider,
    customerId,
    createdAt: now,
  })
    .onConflict((oc) => oc.columns(["companyId", "provider"]).doNothing()).execute();
  return (await findCustomer(db, companyId, provider)) ?? customerId;
}

/**
 * The invoice a payment names (a provider's webhook or reconciliation knows the invoice, not the
 * company): looked up across companies; what follows is scoped to the row's company.
 */
export async function findInvoiceToPay(db: Database, id: number): Promise<Invoice | undefined> {
  return maybeReais(
    await crossCompany(db).selectFrom("invoices").selectAll().where("id", "=", id)
      .executeTakeFirst(),
  );
}

/**
 * Records a provider's payment event; false when it was recorded before (payment_events UNIQUE
 * (provider, eventId): a webhook delivered twice pays once).
 */
export async function recordPaymentEvent(
  db: Database,
  row: { provider: string; eventId: string; invoiceId: number | null; now: string },
): Promise<boolean> {
  const recorded = await db.insertInto("payment_events").values({
    provider: row.provider,
    eventId: row.eventId,
    invoiceId: row.invoiceId,
    createdAt: row.now,
  }).onConflict((oc) => oc.columns(["provider", "eventId"]).doNothing())
    .executeTakeFirst();
  return Number(recorded.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Open -> paid; undefined when it was not open any more (two confirmations pay once). */
export async function markInvoicePaid(
  db: Database,
  companyId: number,
  id: number,
  paid: { paidByUserId: number | null; paidVia: string; now: string },
): Promise<Invoice | undefined> {
  return maybeReais(
    await db.updateTable("invoices").set({
      status: "paid",
      paidAt: paid.now,
      paidByUserId: paid.paidByUserId,
      paidVia: paid.paidVia,
      updatedAt: paid.now,
    }).where("id", "=", id).where("companyId", "=", companyId).where("status", "=", "open")
      .returningAll().executeTakeFirst(),
  );
}

/** The plan's price and name, for an invoice. */
export async function planPrice(db: Database, planId: number) {
  return maybeReais(
    await db.selectFrom("plans").select(["name", "valueCents"]).where("id", "=", planId)
      .executeTakeFirst(),
  );
}

/** The plan as the checkout shows it. */
export async function checkoutPlan(db: Database, planId: number) {
  return maybeReais(
    await db.selectFrom("plans")
      .select(["name", "valueCents", "users", "connections", "queues"])
      .where("id", "=", planId).executeTakeFirst(),
  );
}

/**
 * GET /api/invoices/list (the specification's client reads a plain array): newest due date first,
 * at most INVOICE_LIST_MAX rows, so the answer stays small whatever the history; the paged
 * GET /api/invoices/all reaches the rest.
 */
export const INVOICE_LIST_MAX = 500;

export async function listInvoiceRows(
  db: Database,
  scope: InvoiceScope,
  searchParam: string | undefined,
): Promise<InvoiceView[]> {
  const rows = await invoicesQuery(db, scope, searchParam).selectAll("invoices")
    .select("companies.name as companyName").orderBy("invoices.dueDate", "desc")
    .orderBy("invoices.id", "desc").limit(INVOICE_LIST_MAX).execute();
  const all = "allCompanies" in scope;
  return rows.map(({ companyName, ...row }) =>
    invoiceView(inReais(row), all ? companyName : undefined)
  );
}

/** The invoices a scope reads, the search applied (detail, company name or id). */
function invoicesQuery(db: Database, scope: InvoiceScope, searchParam: string | undefined) {
  let q = readerOf(db, scope).selectFrom("invoices")
    .innerJoin("companies", "companies.id", "invoices.companyId");
  if ("companyId" in scope) q = q.where("invoices.companyId", "=", scope.companyId);
  const text = searchParam?.trim();
  if (text) {
    const pattern = likePattern(text);
    q = q.where((eb) =>
      eb.or([
        sql<boolean>`invoices.detail LIKE ${pattern} ESCAPE '\\'`,
        sql<boolean>`companies.name LIKE ${pattern} ESCAPE '\\'`,
        ...(/^\d+$/.test(text) ? [eb("invoices.id", "=", Number(text))] : []),
      ])
    );
  }
  return q;
}

export type InvoiceFields = { detail: string; value: number; dueDate: string };

/**
 * A super user's invoice for a company (POST /api/invoices); undefined when that company already
 * has one for this due date (unique key invoices_period (companyId, dueDate)).
 */
export async function insertInvoice(
  db: Database,
  companyId: number,
  fields: InvoiceFields,
  now: string,
): Promise<Invoice | undefined> {
  return maybeReais(
    await db.insertInto("invoices").values({
      companyId,
      detail: fields.detail,
      valueCents: centsOf(fields.value),
      dueDate: fields.dueDate,
      paidAt: null,
      paidByUserId: null,
      paidVia: null,
      provider: null,
      chargeId: null,
      pixPayload: null,
      createdAt: now,
      updatedAt: now,
    }).onConflict((oc) => oc.columns(["companyId", "dueDate"]).doNothing())
      .returningAll().executeTakeFirst(),
  );
}

/**
 * Changes an open invoice's detail, value or due date. A charge made for the old amount is
 * dropped (provider, chargeId, pixPayload cleared), so the next checkout charges the new one.
 */
export async function updateOpenInvoice(
  db: Database,
  companyId: number,
  id: number,
  fields: Partial<InvoiceFields>,
  now: string,
): Promise<Invoice | undefined> {
  return maybeReais(
    await db.updateTable("invoices").set({
      ...storedFields(fields),
      provider: null,
      chargeId: null,
      pixPayload: null,
      updatedAt: now,
    }).where("id", "=", id).where("companyId", "=", companyId).where("status", "=", "open")
      .returningAll().executeTakeFirst(),
  );
}

/** Deletes an open invoice; a paid one is the record of a payment and stays. */
export async function deleteOpenInvoice(
  db: Database,
  companyId: number,
  id: number,
): Promise<boolean> {
  const result = await db.deleteFrom("invoices").where("id", "=", id)
    .where("companyId", "=", companyId).where("status", "=", "open").executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
