import { Hono } from "hono";
import { createStaticPix } from "pix-utils";

/**
 * A fake of the Asaas v3 API (docs.asaas.com), the endpoints Balcão calls, served on port 0:
 *   POST /v3/customers, POST /v3/payments, GET /v3/payments/:id, GET /v3/payments/:id/pixQrCode.
 * Requests must carry `access_token`; customers need name and cpfCnpj, payments an existing
 * customer, billingType, a positive value and a dueDate, as the documentation says. `receive`
 * settles a payment as Asaas does when the Pix arrives and returns the webhook Asaas would send.
 */
export type FakePayment = {
  object: "payment";
  id: string;
  customer: string;
  billingType: string;
  value: number;
  dueDate: string;
  status: string;
  description: string | null;
  externalReference: string | null;
};

export type FakeAsaas = {
  url: string;
  apiKey: string;
  customers: Map<string, Record<string, unknown>>;
  payments: Map<string, FakePayment>;
  /** Every request, "METHOD /path". */
  calls: string[];
  /** Set to answer pixQrCode with a payload whose CRC is wrong (a misbehaving provider). */
  breakPix: boolean;
  /** Marks a payment RECEIVED and returns the PAYMENT_RECEIVED webhook body. */
  receive(paymentId: string, event?: string): { id: string; event: string; payment: FakePayment };
  close(): Promise<void>;
};

const PNG_1PX =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

export function startFakeAsaas(apiKey = "fake-asaas-key"): FakeAsaas {
  const customers = new Map<string, Record<string, unknown>>();
  const payments = new Map<string, FakePayment>();
  const calls: string[] = [];
  let seq = 0;
  let events = 0;
  const app = new Hono();
  const error = (description: string, status: 400 | 401 | 404) =>
    Response.json({ errors: [{ code: "invalid_request", description }] }, { status });

  app.use("*", async (c, next) => {
    calls.push(`${c.req.method} ${new URL(c.req.url).pathname}`);
    if (c.req.header("access_token") !== apiKey) return error("invalid access_token", 401);
    await next();
  });

  app.post("/v3/customers", async (c) => {
    const body = await c.req.json().catch(() => ({}));
    if (!body.name) return error("O nome do cliente deve ser informado.", 400);
    if (!body.cpfCnpj) return error("O CPF/CNPJ do cliente deve ser informado.", 400);
    const id = `cus_${String(++seq).padStart(12, "0")}`;
    customers.set(id, { object: "customer", id, ...body });
    return c.json(customers.get(id));
  });

  app.post("/v3/payments", async (c) => {
    const body = await c.req.json().catch(() => ({}));
    if (!customers.has(body.customer)) return error("Cliente inválido.", 400);
    if (!["PIX", "BOLETO", "CREDIT_CARD", "UNDEFINED"].includes(body.billingType)) {
      return error("Forma de pagamento inválida.", 400);
    }
    if (!(typeof body.value === "number" && body.value > 0)) return error("Valor inválido.", 400);
    if (!/^\d{4}-\d{2}-\d{2}$/.test(body.dueDate ?? "")) return error("Vencimento inválido.", 400);
    const id = `pay_${String(++seq).padStart(12, "0")}`;
    const payment: FakePayment = {
      object: "payment",
      id,
      customer: body.customer,
      billingType: body.billingType,
      value: body.value,
      dueDate: body.dueDate,
      status: "PENDING",
      description: body.description ?? null,
      externalReference: body.externalReference ?? null,
    };
    payments.set(id, payment);
    return c.json(payment);
  });

  app.get("/v3/payments/:id", (c) => {
    const payment = payments.get(c.req.param("id"));
    return payment ? c.json(payment) : error("Cobrança não encontrada.", 404);
  });

  app.get("/v3/payments/:id/pixQrCode", (c) => {
    const payment = payments.get(c.req.param("id"));
    if (!payment) return error("Cobrança não encontrada.", 404);
    const payload = createStaticPix({
      merchantName: "ASAAS FAKE",
      merchantCity: "JOINVILLE",
      pixKey: "00000000-0000-0000-0000-000000000000",
      transactionAmount: payment.value,
      txid: payment.id.replace(/_/g, ""),
      infoAdicional: "",
    }).throwIfError().toBRCode();
    return c.json({
      encodedImage: PNG_1PX,
      payload: fake.breakPix ? `${payload.slice(0, -4)}0000` : payload,
      expirationDate: `${payment.dueDate} 23:59:59`,
    });
  });

  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, app.fetch);
  const { port } = server.addr as Deno.NetAddr;
  const fake: FakeAsaas = {
    url: `http://127.0.0.1:${port}/v3`,
    apiKey,
    customers,
    payments,
    calls,
    receive(paymentId, event = "PAYMENT_RECEIVED") {
      const payment = payments.get(paymentId);
      if (!payment) throw new Error(`no payment ${paymentId}`);
      payment.status = event === "PAYMENT_CONFIRMED" ? "CONFIRMED" : "RECEIVED";
      return { id: `evt_${++events}&${paymentId}`, event, payment: { ...payment } };
    },
    breakPix: false,
    close: () => server.shutdown(),
  };
  return fake;
}

/** The app's environment for PAYMENT_PROVIDER=asaas against `fake`, with a webhook token. */
export function asaasEnv(fake: FakeAsaas, webhookToken: string): Record<string, string> {
  return {
    PAYMENT_PROVIDER: "asaas",
    ASAAS_API_URL: fake.url,
    ASAAS_API_KEY: fake.apiKey,
    ASAAS_WEBHOOK_TOKEN: webhookToken,
  };
}
