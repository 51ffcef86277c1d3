import type { Company, Invoice } from "../../../db/schema.ts";

/** The billing data of the checkout's first step ('Dados'), as the company will be charged. */
export type BillingDetails = {
  name: string;
  email: string | null;
  /** CPF or CNPJ digits (providers such as Asaas need one to charge a customer). */
  cpfCnpj?: string;
  zipcode: string;
  address: string;
  city: string;
  state: string;
  country: "BR" | "usa";
};

export type ChargeRequest = {
  invoice: Invoice;
  company: Company;
  billing: BillingDetails;
  /** YYYY-MM-DD today (a charge is never due in the past). */
  today: string;
};

export type Charge = {
  /** The provider's id of the charge; null when there is none to confirm (static Pix). */
  chargeId: string | null;
  /** The Pix copy-and-paste code (an EMV BR Code). */
  pixPayload: string;
  /** A PNG data URL of the QR code when the provider gives one. */
  image?: string;
};

export type ChargeStatus = {
  paid: boolean;
  value: number;
  /** What we sent as the charge's reference: `invoice-<id>`. */
  externalReference: string | null;
};

/** A verified webhook that may confirm a payment. */
export type WebhookNotice = { eventId: string; event: string; chargeId: string };

/**
 * One interface for every way of being paid (issue 12 point 4), chosen by PAYMENT_PROVIDER
 * (server/billing/providers/index.ts). Providers talk to their documented HTTP API only; what they
 * answer is validated before use.
 */
export interface PaymentProvider {
  readonly name: "static" | "asaas";
  /** A payable Pix charge for the invoice. */
  createCharge(request: ChargeRequest): Promise<Charge>;
  /** The charge's status at the provider; null when the provider cannot be asked (static). */
  chargeStatus(chargeId: string): Promise<ChargeStatus | null>;
  /**
   * Checks a webhook's authenticity (throws 401 ERR_INVALID_WEBHOOK) and reads it: a notice of a
   * payment event, or "ignored" for events that do not pay anything.
   */
  readWebhook(headers: Headers, body: unknown): WebhookNotice | "ignored";
}

/** The reference every provider's charge carries back to us. */
export function invoiceReference(invoiceId: number): string {
  return `invoice-${invoiceId}`;
}

export function invoiceIdOfReference(reference: string | null): number | null {
  const match = reference?.match(/^invoice-(\d{1,15})$/);
  return match ? Number(match[1]) : null;
}
