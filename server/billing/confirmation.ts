import type { AppDeps } from "../context.ts";
import { AppError } from "../errors.ts";
import { log } from "../log.ts";
import { paymentProvider } from "./providers/index.ts";
import { invoiceIdOfReference } from "./providers/provider.ts";
import * as repo from "./repository.ts";
import { payInvoice } from "./service.ts";

/** How payments are confirmed by a provider: its webhook, and asking it (reconciliation). */

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
 * The reconciliation tick (the `reconcile` job, jobs/registry.ts): asks the provider about unpaid
 * charges in case a webhook was lost. Paying goes through payInvoice, whose `status = 'open'`
 * guard makes a charge that a webhook pays meanwhile, or a tick that runs twice, pay once.
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
      // A refusal of ours (an amount that is not the invoice's) is named by its code.
      const reason = error instanceof AppError ? `${error.code}: ${error.message}` : error;
      log.warn("charge reconciliation failed", { invoiceId: row.id, error: reason });
    }
  }
  return paid;
}
