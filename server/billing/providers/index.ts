import type { Database } from "../../../db/client.ts";
import type { Clock } from "../../clock.ts";
import type { BillingConfig } from "../../config.ts";
import { asaasProvider } from "./asaas.ts";
import type { PaymentProvider } from "./provider.ts";
import { staticProvider } from "./static.ts";

/** The provider PAYMENT_PROVIDER names (README 'Payments'). */
export function paymentProvider(
  config: BillingConfig,
  db: Database,
  clock: Clock,
): PaymentProvider {
  return config.provider === "asaas" ? asaasProvider(config, db, clock) : staticProvider(config);
}
