import type { Company, Invoice } from "../../db/schema.ts";
import type { CheckoutInfo, InvoiceView } from "../../contract/billing_types.ts";
import { isoDate } from "../clock.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import { assertAllowed } from "../auth/policy.ts";
import { auditBy, changedFields } from "../audit/service.ts";
import { log } from "../log.ts";
import { advanceDueDate } from "../companies/due_dates.ts";
import { companiesDueBy, findCompany } from "../companies/repository.ts";
import { receiptHtml } from "./receipt.ts";
import { addDays, recurrenceMonths } from "./recurrence.ts";
import * as repo from "./repository.ts";

export function noInvoice(): AppError {
  return notFound("ERR_NO_INVOICE_FOUND", "Fatura não encontrada");
}

export function alreadyPaid(): AppError {
  return new AppError(409, "ERR_INVOICE_ALREADY_PAID", "Esta fatura já foi paga");
}

/** Super users read every company's invoices; everyone else their own company's. */
export function scopeOf(auth: AuthInfo): repo.InvoiceScope {
  return auth.isSuper ? { allCompanies: true } : { companyId: auth.companyId };
}

/**
 * GET /api/invoices/all: newest due date first; the search matches the detail or the id. A late
 * company's admin (the billing-only session) always finds an invoice to pay (issue 50): the
 * current period's is made when none is open (once: invoices_period).
 */
export async function listInvoices(
  deps: AppDeps,
  auth: AuthInfo,
  searchParam: string | undefined,
  pageNumber: number,
) {
  if (auth.restricted === "billing" && !await repo.oldestOpenInvoice(deps.db, auth.companyId)) {
    await ensureCurrentInvoice(deps, auth.company);
  }
  return await repo.pageInvoices(deps.db, scopeOf(auth), searchParam, pageNumber);
}

/**
 * POST /api/invoices/current (the /subscription page's button): the oldest unpaid invoice, or the
 * current period's, made now (`created`).
 */
export async function currentInvoice(
  deps: AppDeps,
  auth: AuthInfo,
): Promise<{ invoice: InvoiceView; created: boolean }> {
  const open = await repo.oldestOpenInvoice(deps.db, auth.companyId);
  if (open) return { invoice: repo.invoiceView(open), created: false };
  const current = await ensureCurrentInvoice(deps, auth.company);
  if (!current) throw noInvoice();
  if (current.invoice.status === "paid") throw noInvoice();
  return { invoice: repo.invoiceView(current.invoice), created: current.created };
}

export async function getInvoice(deps: AppDeps, auth: AuthInfo, id: number): Promise<InvoiceView> {
  const invoice = await repo.findInvoice(deps.db, scopeOf(auth), id);
  if (!invoice) throw noInvoice();
  return repo.invoiceView(invoice);
}

/** GET /api/invoices/:id/checkout: the caller's own company's invoice, billing data and plan. */
export async function checkoutInfo(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
): Promise<CheckoutInfo> {
  const invoice = await repo.findInvoice(deps.db, { companyId: auth.companyId }, id);
  if (!invoice) throw noInvoice();
  const c = auth.company;
  const plan = c.planId === null ? undefined : await repo.checkoutPlan(deps.db, c.planId);
  return {
    invoice: repo.invoiceView(invoice),
    billing: {
      name: c.billingName ?? c.name,
      email: c.email ?? "",
      zipcode: c.addressZipCode ?? "",
      address: c.addressStreet ?? "",
      state: c.addressState ?? "",
      city: c.addressCity ?? "",
    },
    plan: plan ?? null,
    // What the invoice carries beyond the plan's price for its period (a change of plan).
    adjustment: plan
      ? Math.round((invoice.value - plan.value * recurrenceMonths(c.recurrence)) * 100) / 100
      : 0,
    provider: deps.config.billing.provider,
  };
}

/** Same amount to the cent (money arrives as decimal numbers from providers and forms). */
export function sameAmount(a: number, b: number): boolean {
  return Math.round(a * 100) === Math.round(b * 100);
}

/**
 * The invoice of a company's current period: its due date, the plan's monthly value times the
 * recurrence's months (MENSAL: the plan's value). Created once per period (repo.ensurePeriodInvoice,
 * unique key invoices_period); undefined for a company without plan, due date or price.
 */
export async function ensureCurrentInvoice(
  deps: AppDeps,
  company: Pick<Company, "id" | "dueDate" | "planId" | "recurrence">,
): Promise<{ invoice: Invoice; created: boolean } | undefined> {
  if (company.planId === null) return undefined;
  const plan = await repo.planPrice(deps.db, company.planId);
  if (!plan || plan.value <= 0) return undefined;
  const now = deps.clock.now();
  const dueDate = company.dueDate?.slice(0, 10) ?? isoDate(now);
  const months = recurrenceMonths(company.recurrence);
  const result = await repo.ensurePeriodInvoice(deps.db, {
    companyId: company.id,
    detail: `${plan.name} - ${company.recurrence ?? "MENSAL"}`,
    value: Math.round(plan.value * months * 100) / 100,
    dueDate,
    now: now.toISOString(),
  });
  if (result.created) publishInvoice(deps, result.invoice, "create");
  return result;
}

/**
 * The daily invoice pass (issue 12 point 1; the `invoices` job, once a day and once at start: a
 * restart after a missed tick catches up): every active company whose due date is within
 * INVOICE_DAYS_AHEAD days gets the invoice of that due date. The state is the invoices table
 * itself: its unique key invoices_period (companyId, dueDate) stops the duplicate, so a tick that
 * runs twice, two ticks at once or a restart mid-tick never make a second invoice for a period.
 * After a payment the company's due date moves and the next period's invoice comes when that
 * date draws near. Returns the ids of the invoices it created.
 */
export async function createDueInvoices(deps: AppDeps): Promise<number[]> {
  const horizon = addDays(isoDate(deps.clock.now()), deps.config.billing.invoiceDaysAhead);
  const created: number[] = [];
  for (const company of await companiesDueBy(deps.db, horizon)) {
    try {
      const result = await ensureCurrentInvoice(deps, company);
      if (result?.created) created.push(result.invoice.id);
    } catch (error) {
      log.error("invoice creation failed", { companyId: company.id, error });
    }
  }
  if (created.length) log.info("invoices created", { count: created.length });
  return created;
}

export type PaymentSource =
  /** A super user's confirmation: recorded as theirs, in the audit log of the invoice's company. */
  | { via: "manual"; auth: AuthInfo }
  | { via: "static" | "asaas"; eventId: string | null; amount: number };

export type PaymentOutcome =
  | { outcome: "paid"; invoice: Invoice; dueDate: string }
  | { outcome: "alreadyPaid" | "duplicateEvent"; invoice: Invoice | undefined };

/**
 * Pays an invoice (issue 12 point 5). In ONE transaction: the provider's event id is recorded
 * (payment_events UNIQUE (provider, eventId): a webhook delivered twice pays once), the invoice
 * becomes paid only if it was open (two confirmations of one charge pay once), and the company's
 * due date moves by its recurrence from the later of today and the old due date. After the
 * commit the company's sockets hear `payment` { action: "CONCLUIDA" } and the invoice update.
 * An amount that is not the invoice's pays nothing (ERR_PAYMENT_AMOUNT_MISMATCH).
 */
export async function payInvoice(
  deps: AppDeps,
  invoiceId: number,
  source: PaymentSource,
): Promise<PaymentOutcome> {
  const now = deps.clock.now();
  const stamp = now.toISOString();
  const result = await deps.db.transaction().execute(async (trx): Promise<PaymentOutcome> => {
    const invoice = await repo.findInvoiceToPay(trx, invoiceId);
    if (source.via !== "manual" && source.eventId !== null) {
      const recorded = await repo.recordPaymentEvent(trx, {
        provider: source.via,
        eventId: source.eventId,
        invoiceId: invoice?.id ?? null,
        now: stamp,
      });
      if (!recorded) return { outcome: "duplicateEvent", invoice };
    }
    if (!invoice) throw noInvoice();
    if (invoice.status === "paid") return { outcome: "alreadyPaid", invoice };
    if (source.via !== "manual" && !sameAmount(source.amount, invoice.value)) {
      throw new AppError(
        400,
        "ERR_PAYMENT_AMOUNT_MISMATCH",
        `Valor pago ${source.amount} difere da fatura (${invoice.value})`,
      );
    }
    const paid = await repo.markInvoicePaid(trx, invoice.companyId, invoice.id, {
      paidByUserId: source.via === "manual" ? source.auth.userId : null,
      paidVia: source.via,
      now: stamp,
    });
    if (!paid) return { outcome: "alreadyPaid", invoice };
    if (source.via === "manual") {
      await auditBy(trx, source.auth, stamp, "invoice.paid", invoiceTarget(paid), {
        before: { status: invoice.status },
        after: { status: paid.status },
      });
    }
    // The due date one recurrence ahead; the due-date job's marks cleared (a company it blocked
    // is switched on again).
    const dueDate = await advanceDueDate(trx, invoice.companyId, now);
    if (!dueDate) throw noInvoice();
    return { outcome: "paid", invoice: paid, dueDate };
  });
  if (result.outcome === "paid") {
    const { invoice, dueDate } = result;
    log.info("invoice paid", { companyId: invoice.companyId, invoiceId: invoice.id, dueDate });
    deps.events.emit("invoice.paid", {
      companyId: invoice.companyId,
      invoiceId: invoice.id,
      dueDate,
    });
    publishInvoice(deps, invoice, "update");
  }
  return result;
}

/** PUT /api/invoices/:id/paid: a super user confirms a payment (static Pix), recorded as theirs. */
export async function markPaidByHand(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
): Promise<InvoiceView> {
  assertAllowed(auth, "invoice:mark-paid");
  const result = await payInvoice(deps, id, { via: "manual", auth });
  if (result.outcome !== "paid") throw alreadyPaid();
  return repo.invoiceView(result.invoice);
}

/**
 * GET /api/invoices/:id/receipt: the printable receipt of a paid invoice (receipt.ts), the
 * caller's own company's (super users: any). An unpaid invoice has none (409).
 */
export async function invoiceReceipt(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
): Promise<{ html: string; fileName: string }> {
  const invoice = await repo.findInvoice(deps.db, scopeOf(auth), id);
  if (!invoice) throw noInvoice();
  if (invoice.status !== "paid") {
    throw new AppError(409, "ERR_INVOICE_NOT_PAID", "Esta fatura ainda não foi paga");
  }
  const company = invoice.companyId === auth.companyId
    ? auth.company
    : await findCompany(deps.db, invoice.companyId);
  if (!company) throw noInvoice();
  const html = receiptHtml({ invoice, company, issuer: deps.config.billing.pixMerchantName });
  return { html, fileName: `recibo-fatura-${invoice.id}.html` };
}

/** GET /api/invoices/list: the specification's client's plain array, capped (repository). */
export async function listInvoicesCapped(
  deps: AppDeps,
  auth: AuthInfo,
  searchParam: string | undefined,
): Promise<InvoiceView[]> {
  return await repo.listInvoiceRows(deps.db, scopeOf(auth), searchParam);
}

function periodTaken(): AppError {
  return new AppError(
    409,
    "ERR_INVOICE_PERIOD_EXISTS",
    "Esta empresa já tem uma fatura com este vencimento",
  );
}

/** POST /api/invoices: a super user bills a company by hand (one invoice per due date). */
export async function createInvoiceByHand(
  deps: AppDeps,
  auth: AuthInfo,
  input: repo.InvoiceFields & { companyId: number },
): Promise<InvoiceView> {
  assertAllowed(auth, "invoice:manage");
  const { companyId, ...fields } = input;
  if (!await findCompany(deps.db, companyId)) {
    throw notFound("ERR_NO_COMPANY_FOUND", "Empresa não encontrada");
  }
  const now = deps.clock.now().toISOString();
  const invoice = await deps.db.transaction().execute(async (trx) => {
    const invoice = await repo.insertInvoice(trx, companyId, fields, now);
    if (!invoice) throw periodTaken();
    await auditBy(trx, auth, now, "invoice.created", invoiceTarget(invoice), {
      after: auditedFields(invoice),
    });
    return invoice;
  });
  publishInvoice(deps, invoice, "create");
  return repo.invoiceView(invoice);
}

/**
 * PUT /api/invoices/:id (super users): detail, value and due date of an open invoice; `status:
 * "paid"` pays it as PUT /:id/paid does (the due date moves). A paid invoice is not changed.
 */
export async function updateInvoiceByHand(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
  input: Partial<repo.InvoiceFields> & { status?: "open" | "paid" },
): Promise<InvoiceView> {
  assertAllowed(auth, "invoice:manage");
  const found = await repo.findInvoice(deps.db, scopeOf(auth), id);
  if (!found) throw noInvoice();
  const { status, ...fields } = input;
  if (found.status === "paid") {
    if (status === "paid" && Object.keys(fields).length === 0) return repo.invoiceView(found);
    throw alreadyPaid();
  }
  let invoice = found;
  if (Object.keys(fields).length > 0) {
    const now = deps.clock.now().toISOString();
    let changed: Invoice | undefined;
    try {
      changed = await deps.db.transaction().execute(async (trx) => {
        const changed = await repo.updateOpenInvoice(trx, found.companyId, id, fields, now);
        const diff = changed && changedFields(auditedFields(found), auditedFields(changed));
        if (changed && diff && Object.keys(diff.after).length > 0) {
          await auditBy(trx, auth, now, "invoice.updated", invoiceTarget(changed), diff);
        }
        return changed;
      });
    } catch (error) {
      // invoices_period (companyId, dueDate): another invoice of the company has that due date.
      if (String(error).includes("UNIQUE")) throw periodTaken();
      throw error;
    }
    if (!changed) throw alreadyPaid();
    invoice = changed;
    publishInvoice(deps, invoice, "update");
  }
  if (status === "paid") return await markPaidByHand(deps, auth, id);
  return repo.invoiceView(invoice);
}

/** DELETE /api/invoices/:id (super users): an open invoice; a paid one is a payment's record. */
export async function deleteInvoiceByHand(deps: AppDeps, auth: AuthInfo, id: number) {
  assertAllowed(auth, "invoice:manage");
  const found = await repo.findInvoice(deps.db, scopeOf(auth), id);
  if (!found) throw noInvoice();
  if (found.status === "paid") throw alreadyPaid();
  const now = deps.clock.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    if (!await repo.deleteOpenInvoice(trx, found.companyId, id)) throw alreadyPaid();
    await auditBy(trx, auth, now, "invoice.deleted", invoiceTarget(found), {
      before: auditedFields(found),
    });
  });
  deps.events.emit("list.changed", {
    companyId: found.companyId,
    resource: "invoice",
    change: { action: "delete", id },
  });
}

/** An invoice's audit rows belong to its company (a super user bills other companies). */
function invoiceTarget(invoice: Invoice) {
  return { entity: "invoice", id: invoice.id, companyId: invoice.companyId };
}

function auditedFields(invoice: Invoice) {
  return {
    detail: invoice.detail,
    value: invoice.value,
    dueDate: invoice.dueDate,
    status: invoice.status,
  };
}

/** Invoice list events reach the company's admins (the only ones who see /financeiro). */
function publishInvoice(deps: AppDeps, invoice: Invoice, action: "create" | "update") {
  deps.events.emit("list.changed", {
    companyId: invoice.companyId,
    resource: "invoice",
    change: { action, record: repo.invoiceView(invoice) },
  });
}
