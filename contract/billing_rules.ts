import type { SessionUser } from "./types.ts";
import type { InvoiceView } from "./billing_types.ts";

/** Pure billing rules shared by the pages and the server (issue 12). */

/** The status a row shows (seeds/001 section 2 'Invoices screen'). */
export type InvoiceDisplay = "paid" | "overdue" | "open";

/** Pago if paid; Vencido if the due date is past and not paid; otherwise Em Aberto. */
export function invoiceDisplay(
  invoice: Pick<InvoiceView, "status" | "dueDate">,
  today: string,
): InvoiceDisplay {
  if (invoice.status === "paid") return "paid";
  return invoice.dueDate.slice(0, 10) < today ? "overdue" : "open";
}

/** YYYY-MM-DD of the browser's local day. */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** seeds/001 section 5: the checkout's required fields and their messages. */
export const CHECKOUT_TEXTS = {
  name: "O nome completo é obrigatório",
  address: "O Endereço é obrigatório",
  city: "Cidade é obrigatória",
  zipcode: "CEP é obrigatório",
  country: "País é obrigatório",
} as const;

/** Length limits of the billing fields (the company's columns keep what is typed here). */
export const CHECKOUT_LIMITS = {
  name: { min: 1, max: 100 },
  address: { min: 1, max: 200 },
  city: { min: 1, max: 100 },
  state: { min: 0, max: 50 },
  zipcode: { min: 1, max: 20 },
} as const;

/** seeds/001 section 9: country options. */
export const COUNTRIES = ["BR", "usa"] as const;

/** CPF (11 digits) or CNPJ (14), punctuation allowed; empty when not given. */
export function cpfCnpjDigits(text: string): string | null {
  const digits = text.replace(/[.\-/\s]/g, "");
  if (digits === "") return "";
  return /^(\d{11}|\d{14})$/.test(digits) ? digits : null;
}

/** /financeiro and /subscription: company admins and super users (the routes check the same). */
export function canSeeBilling(user: SessionUser): boolean {
  return user.profile.toLowerCase() === "admin" || user.super;
}
