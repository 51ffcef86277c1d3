/** Billing answers (issue 12), declared once: the server's views import them. */

export type InvoiceStatus = "open" | "paid";

/** seeds/001 section 3 'Invoice', plus who paid it and how. */
export type InvoiceView = {
  id: number;
  companyId: number;
  /** Only in a super user's list, which spans companies. */
  companyName?: string;
  detail: string;
  value: number;
  dueDate: string;
  status: InvoiceStatus;
  paidAt: string | null;
  paidByUserId: number | null;
  paidVia: string | null;
  provider: string | null;
  chargeId: string | null;
  createdAt: string;
  updatedAt: string;
};

/** POST /api/subscription (seeds/001 section 3 'Subscription payload' response). */
export type CheckoutAnswer = {
  qrcode: { qrcode: string; imagemQrcode: string };
  valor: { original: string };
  invoiceId: number;
};

/** `company-<id>-payment` after an invoice is paid (seeds/001 section 4). */
export type PaymentEvent = {
  action: "CONCLUIDA";
  invoiceId: number;
  company: { id: number; dueDate: string };
};

/** GET /api/invoices/:id/checkout: what the checkout dialog shows and prefills. */
/** GET /api/subscription/plan/:id/quote (issue 50 item 12): what a change of plan costs. */
export type PlanChangeQuote = {
  plan: { id: number; name: string; value: number };
  /** The difference for the paid days left of the period: > 0 charged, < 0 credited. */
  adjustment: number;
  /**
   * The invoice the change prices (the one of the company's due date) and its amount after it;
   * `late`: that due date has passed, so the change bills the open period in full (no paid days
   * are left). Null without a due date, for a free plan, or when that invoice is already paid.
   */
  invoice: { dueDate: string; value: number; late: boolean } | null;
};

export type CheckoutInfo = {
  invoice: InvoiceView;
  billing: {
    name: string;
    email: string;
    zipcode: string;
    address: string;
    state: string;
    city: string;
  };
  plan: { name: string; value: number; users: number; connections: number; queues: number } | null;
  /** Issue 50 item 12: what the invoice adds (> 0) or credits (< 0) for a change of plan. */
  adjustment: number;
  /** The provider making the charge; "asaas" needs a CPF or CNPJ. */
  provider: "static" | "asaas";
};
