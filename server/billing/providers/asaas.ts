import { timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { Database } from "../../../db/client.ts";
import type { Clock } from "../../clock.ts";
import type { BillingConfig } from "../../config.ts";
import { AppError, badRequest } from "../../errors.ts";
import { log } from "../../log.ts";
import { findCustomer, saveCustomer } from "../repository.ts";
import {
  type ChargeRequest,
  invoiceReference,
  type PaymentProvider,
  type WebhookNotice,
} from "./provider.ts";

/**
 * PAYMENT_PROVIDER=asaas: the Asaas v3 API (docs.asaas.com). Calls, each with the header
 * `access_token: ASAAS_API_KEY`:
 *   POST /customers                 once per company (kept in billing_customers)
 *   POST /payments                  billingType PIX, externalReference invoice-<id>
 *   GET  /payments/{id}/pixQrCode   { encodedImage, payload, expirationDate }
 *   GET  /payments/{id}             status, value (webhooks are checked against it; the
 *                                   reconciliation job asks it for charges whose webhook was lost)
 * Webhooks carry the token configured at Asaas in the header `asaas-access-token`
 * (ASAAS_WEBHOOK_TOKEN); PAYMENT_RECEIVED and PAYMENT_CONFIRMED pay, each event id only once.
 */
export const ASAAS_TOKEN_HEADER = "asaas-access-token";
const PAYING_EVENTS = new Set(["PAYMENT_RECEIVED", "PAYMENT_CONFIRMED"]);
const PAID_STATUSES = new Set(["RECEIVED", "CONFIRMED", "RECEIVED_IN_CASH"]);
const TIMEOUT_MS = 15_000;

const customerAnswer = z.object({ id: z.string().min(1).max(100) });
const paymentAnswer = z.object({
  id: z.string().min(1).max(100),
  status: z.string().max(60),
  value: z.number().nonnegative(),
  externalReference: z.string().max(200).nullish(),
});
const qrAnswer = z.object({
  encodedImage: z.string().max(2_000_000),
  payload: z.string().min(1).max(1000),
});
const webhookBody = z.object({
  id: z.string().min(1).max(200),
  event: z.string().min(1).max(100),
  payment: z.object({ id: z.string().min(1).max(100) }).passthrough().optional(),
}).passthrough();

export function asaasProvider(config: BillingConfig, db: Database, clock: Clock): PaymentProvider {
  const base = config.asaasApiUrl;
  const apiKey = config.asaasApiKey ?? "";
  const webhookToken = new TextEncoder().encode(config.asaasWebhookToken ?? "");

  async function call<T>(method: string, path: string, schema: z.ZodType<T>, body?: unknown) {
    let res: Response;
    try {
      res = await fetch(`${base}${path}`, {
        method,
        headers: {
          access_token: apiKey,
          "content-type": "application/json",
          "user-agent": "Balcao",
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      log.warn("asaas unreachable", { method, path, error });
      throw providerError();
    }
    const text = await res.text();
    if (!res.ok) {
      log.warn("asaas refused", { method, path, status: res.status, body: text.slice(0, 500) });
      throw providerError();
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      log.warn("asaas answered an unexpected shape", { method, path });
      throw providerError();
    }
    return parsed.data;
  }

  async function customerOf({ company, billing }: ChargeRequest): Promise<string> {
    const known = await findCustomer(db, company.id, "asaas");
    if (known) return known;
    // Asaas charges only customers with a CPF or CNPJ.
    if (!billing.cpfCnpj) {
      throw badRequest("ERR_VALIDATION", "CPF/CNPJ é obrigatório", {
        cpfCnpj: ["CPF/CNPJ é obrigatório"],
      });
    }
    const created = await call("POST", "/customers", customerAnswer, {
      name: billing.name,
      email: billing.email ?? undefined,
      cpfCnpj: billing.cpfCnpj,
      postalCode: billing.zipcode,
      address: billing.address,
      externalReference: `company-${company.id}`,
      notificationDisabled: true,
    });
    return await saveCustomer(db, company.id, "asaas", created.id, clock.now().toISOString());
  }

  return {
    name: "asaas",
    async createCharge(request) {
      const { invoice, today } = request;
      const customer = await customerOf(request);
      const payment = await call("POST", "/payments", paymentAnswer, {
        customer,
        billingType: "PIX",
        value: invoice.value,
        dueDate: invoice.dueDate > today ? invoice.dueDate : today,
        description: invoice.detail,
        externalReference: invoiceReference(invoice.id),
      });
      const qr = await call(
        "GET",
        `/payments/${encodeURIComponent(payment.id)}/pixQrCode`,
        qrAnswer,
      );
      // The copy-and-paste code goes to the payer's bank app: it must be a BR Code whose CRC holds.
      // pix-utils loads with the first charge, not at start (issue 33).
      const { hasError, parsePix } = await import("pix-utils");
      if (hasError(parsePix(qr.payload))) {
        log.warn("asaas answered a Pix code that does not parse", { chargeId: payment.id });
        throw providerError();
      }
      const image = /^[A-Za-z0-9+/=]+$/.test(qr.encodedImage)
        ? `data:image/png;base64,${qr.encodedImage}`
        : undefined;
      return { chargeId: payment.id, pixPayload: qr.payload, image };
    },
    async chargeStatus(chargeId) {
      const payment = await call(
        "GET",
        `/payments/${encodeURIComponent(chargeId)}`,
        paymentAnswer,
      );
      return {
        paid: PAID_STATUSES.has(payment.status),
        value: payment.value,
        externalReference: payment.externalReference ?? null,
      };
    },
    readWebhook(headers, body): WebhookNotice | "ignored" {
      const given = new TextEncoder().encode(headers.get(ASAAS_TOKEN_HEADER) ?? "");
      if (
        webhookToken.length === 0 || given.length !== webhookToken.length ||
        !timingSafeEqual(given, webhookToken)
      ) {
        throw new AppError(401, "ERR_INVALID_WEBHOOK", "Invalid webhook token");
      }
      const parsed = webhookBody.safeParse(body);
      if (!parsed.success) throw new AppError(400, "ERR_VALIDATION", "Invalid webhook body");
      const { id, event, payment } = parsed.data;
      if (!PAYING_EVENTS.has(event) || !payment) return "ignored";
      return { eventId: id, event, chargeId: payment.id };
    },
  };
}

function providerError(): AppError {
  return new AppError(502, "ERR_PAYMENT_PROVIDER", "O provedor de pagamento não respondeu");
}
