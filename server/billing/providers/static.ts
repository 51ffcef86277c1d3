import type { BillingConfig } from "../../config.ts";
import { AppError } from "../../errors.ts";
import { staticPixCode } from "../pix.ts";
import type { PaymentProvider } from "./provider.ts";

/**
 * PAYMENT_PROVIDER=static: a static Pix BR Code to the platform's own key (PIX_KEY), with the
 * invoice's amount and a txid naming it. No provider can tell us it was paid, so a super user
 * confirms it by marking the invoice paid (PUT /api/invoices/:id/paid).
 */
export function staticProvider(config: BillingConfig): PaymentProvider {
  return {
    name: "static",
    async createCharge({ invoice }) {
      if (!config.pixKey) {
        throw new AppError(503, "ERR_BILLING_NOT_CONFIGURED", "PIX_KEY is not set");
      }
      const pixPayload = await staticPixCode({
        pixKey: config.pixKey,
        merchantName: config.pixMerchantName,
        merchantCity: config.pixMerchantCity,
        amount: invoice.value,
        txid: `FATURA${invoice.id}`,
        info: `Fatura ${invoice.id}`,
      });
      return { chargeId: null, pixPayload };
    },
    chargeStatus: () => Promise.resolve(null),
    readWebhook() {
      throw new AppError(401, "ERR_INVALID_WEBHOOK", "This provider takes no webhooks");
    },
  };
}
