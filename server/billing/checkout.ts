import type { CheckoutAnswer } from "../../islands/billing/types.ts";
import { isoDate } from "../clock.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError } from "../errors.ts";
import { log } from "../log.ts";
import { qrImage } from "./pix.ts";
import { paymentProvider } from "./providers/index.ts";
import { type BillingDetails, invoiceIdOfReference } from "./providers/provider.ts";
import * as repo from "./repository.ts";
import { alreadyPaid, noInvoice, payInvoice, sameAmount } from "./service.ts";

export type CheckoutInput = BillingDetails & { invoiceId: number; price?: number };

/**
 * POST /api/subscription (seeds/001 sections 3, 4, 7): the caller's company's open invoice gets a
 * payable Pix charge at the configured provider. The billing data is kept on the company (the next
 * checkout is prefilled with it). A charge already made at the same provider is shown again rather
 * than created twice.
 */
export async function checkout(
  deps: AppDeps,
  auth: AuthInfo,
  input: CheckoutInput,
): Promise<CheckoutAnswer> {
  const invoice = await repo.findInvoice(deps.db, { companyId: auth.companyId }, input.invoiceId);
  if (!invoice) throw noInvoice();
  if (invoice.status === "paid") throw alreadyPaid();
  if (input.price !== undefined && !sameAmount(input.price, invoice.value)) {
    throw new AppError(
      400,
      "ERR_PAYMENT_AMOUNT_MISMATCH",
      "O valor não corresponde ao da fatura",
    );
  }
  const now = deps.clock.now();
  const stamp = now.toISOString();
  const company = await deps.db.updateTable("companies").set({
    billingName: input.name,
    addressZipCode: input.zipcode,
    addressStreet: input.address,
    addressState: input.state,
    addressCity: input.city,
    updatedAt: stamp,
  }).where("id", "=", auth.companyId).returningAll().executeTakeFirstOrThrow();
  const provider = paymentProvider(deps.config.billing, deps.db, deps.clock);
  // Reopening the checkout shows the charge already made at this provider again.
  let payload = invoice.provider === provider.name ? invoice.pixPayload : null;
  let image: string | undefined;
  if (!payload) {
    const charge = await provider.createCharge({
      invoice,
      company,
      billing: { ...input, email: input.email ?? company.email },
      today: isoDate(now),
    });
    await repo.setInvoiceCharge(deps.db, auth.companyId, invoice.id, {
      provider: provider.name,
      chargeId: charge.chargeId,
      pixPayload: charge.pixPayload,
      now: stamp,
    });
    payload = charge.pixPayload;
    image = charge.image;
  }
  return {
    qrcode: { qrcode: payload, imagemQrcode: image ?? await qrImage(payload) },
    valor: { original: invoice.value.toFixed(2) },
    invoiceId: invoice.id,
  };
}

/**
 * POST /api/billing/:provider/webhook. The provider checks the request's authenticity; then the
 * charge is read back from the provider's API (a webhook is a hint, the API is the truth: a forged
 * body with a leaked token still pays nothing that was not paid), and the invoice it references
 * is paid through payInvoice, once per event id.
 */
export async function receiveWebhook(
  deps: AppDeps,
  providerName: string,
  headers: Headers,
  body: unknown,
): Promise<{ received: true; outcome: string }> {
  const provider = paymentProvider(deps.config.billing, deps.db, deps.clock);
  if (provider.name !== providerName) {
    throw new AppError(401, "ERR_INVALID_WEBHOOK", "Unknown payment provider");
  }
  const notice = provider.readWebhook(headers, body);
  if (notice === "ignored") return { received: true, outcome: "ignored" };
  const status = await provider.chargeStatus(notice.chargeId);
  const invoiceId = invoiceIdOfReference(status?.externalReference ?? null) ??
    (await repo.findInvoiceByCharge(deps.db, provider.name, notice.chargeId))?.id;
  if (!status || invoiceId === undefined || invoiceId === null) {
    log.warn("webhook for an unknown charge", { provider: provider.name, ...notice });
    return { received: true, outcome: "unknown" };
  }
  if (!status.paid) return { received: true, outcome: "notPaid" };
  const result = await payInvoice(deps, invoiceId, {
    via: provider.name,
    eventId: notice.eventId,
    amount: status.value,
  });
  return { received: true, outcome: result.outcome };
}

export const RECONCILE_BATCH = 50;

/**
 * The reconciliation tick (jobs/invoices.ts): asks the provider about unpaid charges in case a
 * webhook was lost. Paying goes through payInvoice, whose `status = 'open'` guard makes a charge
 * that a webhook pays meanwhile, or a tick that runs twice, pay once.
 */
export async function reconcileCharges(deps: AppDeps): Promise<number[]> {
  const provider = paymentProvider(deps.config.billing, deps.db, deps.clock);
  if (provider.name === "static") return [];
  const paid: number[] = [];
  for (const row of await repo.openCharges(deps.db, provider.name, RECONCILE_BATCH)) {
    try {
      const status = await provider.chargeStatus(row.chargeId!);
      if (!status?.paid) continue;
      const result = await payInvoice(deps, row.id, {
        via: provider.name,
        eventId: null,
        amount: status.value,
      });
      if (result.outcome === "paid") paid.push(row.id);
    } catch (error) {
      log.warn("charge reconciliation failed", { invoiceId: row.id, error });
    }
  }
  return paid;
}
