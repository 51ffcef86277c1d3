import type { CheckoutAnswer } from "../../contract/billing_types.ts";
import { isoDate } from "../clock.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError } from "../errors.ts";
import { qrImage } from "./pix.ts";
import { paymentProvider } from "./providers/index.ts";
import type { BillingDetails } from "./providers/provider.ts";
import { setBillingDetails } from "../companies/repository.ts";
import * as repo from "./repository.ts";
import { alreadyPaid, noInvoice, sameAmount } from "./service.ts";

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
  const company = await setBillingDetails(deps.db, auth.companyId, input, stamp);
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
