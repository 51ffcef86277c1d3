import type { Company, Invoice } from "../../db/schema.ts";
import type { CheckoutInfo, InvoiceView } from "../../contract/billing_types.ts";
import { isoDate } from "../clock.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError, forbidden, notFound } from "../errors.ts";
import { log } from "../log.ts";
import { advanceDueDate } from "../companies/due_dates.ts";
import { recurrenceMonths } from "./recurrence.ts";
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
  const plan = c.planId === null ? undefined : await deps.db.selectFrom("plans")
    .select(["name", "value", "users", "connections", "queues"]).where("id", "=", c.planId)
    .executeTakeFirst();
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
  const plan = await deps.db.selectFrom("plans").select(["name", "value"])
    .where("id", "=", company.planId).executeTakeFirst();
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

export type PaymentSource =
  | { via: "manual"; userId: number }
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
    const invoice = await trx.selectFrom("invoices").selectAll().where("id", "=", invoiceId)
      .executeTakeFirst();
    if (source.via !== "manual" && source.eventId !== null) {
      const recorded = await trx.insertInto("payment_events").values({
        provider: source.via,
        eventId: source.eventId,
        invoiceId: invoice?.id ?? null,
        createdAt: stamp,
      }).onConflict((oc) => oc.columns(["provider", "eventId"]).doNothing())
        .executeTakeFirst();
      if (Number(recorded.numInsertedOrUpdatedRows ?? 0n) === 0) {
        return { outcome: "duplicateEvent", invoice };
      }
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
    const paid = await trx.updateTable("invoices").set({
      status: "paid",
      paidAt: stamp,
      paidByUserId: source.via === "manual" ? source.userId : null,
      paidVia: source.via,
      updatedAt: stamp,
    }).where("id", "=", invoice.id).where("status", "=", "open").returningAll()
      .executeTakeFirst();
    if (!paid) return { outcome: "alreadyPaid", invoice };
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
  if (!auth.isSuper) throw forbidden();
  const result = await payInvoice(deps, id, { via: "manual", userId: auth.userId });
  if (result.outcome !== "paid") throw alreadyPaid();
  return repo.invoiceView(result.invoice);
}

/** Invoice list events reach the company's admins (the only ones who see /financeiro). */
function publishInvoice(deps: AppDeps, invoice: Invoice, action: "create" | "update") {
  deps.events.emit("list.changed", {
    companyId: invoice.companyId,
    resource: "invoice",
    change: { action, record: repo.invoiceView(invoice) },
  });
}
