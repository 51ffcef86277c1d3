import assert from "node:assert/strict";
import { hasError, parsePix } from "pix-utils";
import { createCompany, type TestApp, withApp } from "../helpers/app.ts";
import { sockets, withServedApp } from "../helpers/admin_fixtures.ts";
import { asaasEnv, startFakeAsaas } from "../fakes/asaas.ts";
import { createDueInvoices } from "../../server/billing/service.ts";
import { reconcileCharges } from "../../server/billing/confirmation.ts";
import { ConfigError, loadConfig } from "../../server/config.ts";

const TOKEN = "whsec-asaas-test-token-0123456789abcdef";

const BILLING = {
  firstName: "Maria",
  lastName: "Silva",
  address2: "Rua A, 10",
  city: "Santos",
  state: "SP",
  zipcode: "11000-000",
  country: "BR",
  cpfCnpj: "123.456.789-09",
};

/** An app with PAYMENT_PROVIDER=asaas against a fresh fake Asaas, both closed afterwards. */
async function withAsaas(
  fn: (t: TestApp, fake: ReturnType<typeof startFakeAsaas>) => Promise<void>,
) {
  const fake = startFakeAsaas();
  try {
    await withApp((t) => fn(t, fake), asaasEnv(fake, TOKEN));
  } finally {
    await fake.close();
  }
}

function webhook(t: TestApp, body: unknown, token: string | null = TOKEN) {
  return t.request("POST", "/api/billing/asaas/webhook", {
    body,
    headers: token === null ? {} : { "asaas-access-token": token },
  });
}

async function invoiceRow(t: TestApp, id: number) {
  return await t.deps.db.selectFrom("invoices").selectAll().where("id", "=", id)
    .executeTakeFirstOrThrow();
}

async function dueDateOf(t: TestApp, companyId: number) {
  return (await t.deps.db.selectFrom("companies").select("dueDate").where("id", "=", companyId)
    .executeTakeFirstOrThrow()).dueDate;
}

async function openInvoice(t: TestApp, companyId: number) {
  await createDueInvoices(t.deps);
  return await t.deps.db.selectFrom("invoices").selectAll().where("companyId", "=", companyId)
    .where("status", "=", "open").executeTakeFirstOrThrow();
}

Deno.test("asaas - checkout creates the customer once and a PIX charge; its copy-and-paste code is a valid BR Code", () =>
  withAsaas(async (t, fake) => {
    const a = await createCompany(t, "Alpha", { dueDate: "2026-11-25" });
    const invoice = await openInvoice(t, a.id);
    const noTaxId = await t.request("POST", "/api/subscription", {
      token: a.admin.token,
      body: { ...BILLING, cpfCnpj: undefined, invoiceId: invoice.id },
    });
    assert.equal(noTaxId.status, 400);
    assert.deepEqual((await noTaxId.json()).fields, { cpfCnpj: ["CPF/CNPJ é obrigatório"] });
    assert.deepEqual(fake.calls, []);

    const res = await t.request("POST", "/api/subscription", {
      token: a.admin.token,
      body: { ...BILLING, invoiceId: invoice.id },
    });
    assert.equal(res.status, 200);
    const body = await res.json();
    const [payment] = fake.payments.values();
    assert.deepEqual(
      [payment.billingType, payment.value, payment.externalReference, payment.dueDate],
      ["PIX", 99, `invoice-${invoice.id}`, "2026-11-25"],
    );
    const [customer] = fake.customers.values();
    assert.deepEqual([customer.name, customer.cpfCnpj], ["Maria Silva", "12345678909"]);
    assert.equal(body.valor.original, "99.00");
    assert.ok(!hasError(parsePix(body.qrcode.qrcode)));
    assert.match(body.qrcode.imagemQrcode, /^data:image\/png;base64,iVBOR/);
    const row = await invoiceRow(t, invoice.id);
    assert.deepEqual([row.provider, row.chargeId], ["asaas", payment.id]);

    // Reopening the checkout shows the same charge: nothing new at Asaas.
    const calls = fake.calls.length;
    const again = await (await t.request("POST", "/api/subscription", {
      token: a.admin.token,
      body: { ...BILLING, invoiceId: invoice.id },
    })).json();
    assert.equal(again.qrcode.qrcode, body.qrcode.qrcode);
    assert.equal(fake.calls.length, calls);
  }));

Deno.test("asaas - a Pix code from Asaas whose CRC does not hold is refused and not stored", () =>
  withAsaas(async (t, fake) => {
    const a = await createCompany(t, "Alpha", { dueDate: "2026-11-25" });
    const invoice = await openInvoice(t, a.id);
    fake.breakPix = true;
    const res = await t.request("POST", "/api/subscription", {
      token: a.admin.token,
      body: { ...BILLING, invoiceId: invoice.id },
    });
    assert.equal(res.status, 502);
    assert.equal((await res.json()).error, "ERR_PAYMENT_PROVIDER");
    const row = await invoiceRow(t, invoice.id);
    assert.deepEqual([row.provider, row.chargeId, row.pixPayload], [null, null, null]);
  }));

Deno.test("asaas - a forged webhook pays nothing; a real one pays once, delivered twice or confirmed again", () =>
  withAsaas(async (t, fake) => {
    const a = await createCompany(t, "Alpha", { dueDate: "2026-11-25" });
    const b = await createCompany(t, "Beta", { dueDate: "2026-11-26" });
    const invoice = await openInvoice(t, a.id);
    await t.request("POST", "/api/subscription", {
      token: a.admin.token,
      body: { ...BILLING, invoiceId: invoice.id },
    });
    const chargeId = (await invoiceRow(t, invoice.id)).chargeId!;
    const pending = { id: "evt_forged", event: "PAYMENT_RECEIVED", payment: { id: chargeId } };

    await withServedApp(t, async (wsUrl) => {
      const [sa, sb] = await sockets(wsUrl, a.admin.token, b.admin.token);
      // Without the token, with a wrong one, or not JSON: 401 before anything is read.
      for (const token of [null, "x".repeat(TOKEN.length), `${TOKEN}x`]) {
        const res = await webhook(t, pending, token);
        assert.equal(res.status, 401);
        assert.equal((await res.json()).error, "ERR_INVALID_WEBHOOK");
      }
      const notJson = await t.request("POST", "/api/billing/asaas/webhook", {
        body: "{",
        headers: { "content-type": "application/json" },
      });
      assert.equal(notJson.status, 401);
      const otherProvider = await t.request("POST", "/api/billing/static/webhook", {
        body: pending,
        headers: { "asaas-access-token": TOKEN },
      });
      assert.equal(otherProvider.status, 401);
      // The right token with a body Asaas did not send: the charge is still pending at Asaas.
      const forged = await webhook(t, pending);
      assert.deepEqual(await forged.json(), { received: true, outcome: "notPaid" });
      const bad = await webhook(t, { event: "PAYMENT_RECEIVED" });
      assert.equal(bad.status, 400);
      assert.equal((await invoiceRow(t, invoice.id)).status, "open");
      assert.equal(await dueDateOf(t, a.id), "2026-11-25");

      const received = fake.receive(chargeId);
      const first = await webhook(t, received);
      assert.deepEqual(await first.json(), { received: true, outcome: "paid" });
      const event = await sa.next((e) => e.event === `company-${a.id}-payment`);
      assert.deepEqual(event.data, {
        action: "CONCLUIDA",
        invoiceId: invoice.id,
        company: { id: a.id, dueDate: "2026-12-25" },
      });
      const row = await invoiceRow(t, invoice.id);
      assert.deepEqual([row.status, row.paidVia, row.paidAt], [
        "paid",
        "asaas",
        t.clock.now().toISOString(),
      ]);

      const replay = await webhook(t, received);
      assert.deepEqual(await replay.json(), { received: true, outcome: "duplicateEvent" });
      const confirmed = await webhook(t, fake.receive(chargeId, "PAYMENT_CONFIRMED"));
      assert.deepEqual(await confirmed.json(), { received: true, outcome: "alreadyPaid" });
      const ignored = await webhook(t, {
        id: "evt_x",
        event: "PAYMENT_CREATED",
        payment: { id: chargeId },
      });
      assert.deepEqual(await ignored.json(), { received: true, outcome: "ignored" });
      assert.equal(await dueDateOf(t, a.id), "2026-12-25");
      assert.equal(sa.events.filter((e) => e.event.endsWith("-payment")).length, 1);
      await sb.settle();
      assert.equal(sb.events.filter((e) => e.event.endsWith("-payment")).length, 0);
    });
    const events = await t.deps.db.selectFrom("payment_events").select("eventId").execute();
    assert.equal(events.length, 2);
  }));

Deno.test("asaas - an amount that is not the invoice's pays nothing; the reconciliation job pays a charge whose webhook was lost, once", () =>
  withAsaas(async (t, fake) => {
    const a = await createCompany(t, "Alpha", { dueDate: "2026-11-25" });
    const b = await createCompany(t, "Beta", { dueDate: "2026-11-26" });
    const aInvoice = await openInvoice(t, a.id);
    const bInvoice = await openInvoice(t, b.id);
    for (const [c, invoice] of [[a, aInvoice], [b, bInvoice]] as const) {
      const res = await t.request("POST", "/api/subscription", {
        token: c.admin.token,
        body: { ...BILLING, invoiceId: invoice.id },
      });
      assert.equal(res.status, 200);
    }
    const aCharge = (await invoiceRow(t, aInvoice.id)).chargeId!;
    const bCharge = (await invoiceRow(t, bInvoice.id)).chargeId!;
    fake.payments.get(aCharge)!.value = 9.9;
    const short = await webhook(t, fake.receive(aCharge));
    assert.equal(short.status, 400);
    assert.equal((await short.json()).error, "ERR_PAYMENT_AMOUNT_MISMATCH");
    assert.equal((await invoiceRow(t, aInvoice.id)).status, "open");
    assert.equal(await dueDateOf(t, a.id), "2026-11-25");
    assert.deepEqual(await t.deps.db.selectFrom("payment_events").selectAll().execute(), []);

    // B's Pix arrived but its webhook never did.
    fake.receive(bCharge);
    assert.deepEqual(await reconcileCharges(t.deps), [bInvoice.id]);
    assert.deepEqual(await reconcileCharges(t.deps), []);
    assert.equal((await invoiceRow(t, bInvoice.id)).status, "paid");
    assert.equal(await dueDateOf(t, b.id), "2026-12-26");
    assert.equal((await invoiceRow(t, aInvoice.id)).status, "open");
  }));

Deno.test("asaas - the configuration needs the API key and a webhook token of 32+ characters", () => {
  assert.throws(() => loadConfig({ PAYMENT_PROVIDER: "asaas" }), ConfigError);
  assert.throws(
    () =>
      loadConfig({ PAYMENT_PROVIDER: "asaas", ASAAS_API_KEY: "k", ASAAS_WEBHOOK_TOKEN: "short" }),
    /ASAAS_WEBHOOK_TOKEN/,
  );
  assert.throws(() => loadConfig({ PAYMENT_PROVIDER: "paypal" }), /PAYMENT_PROVIDER/);
  const ok = loadConfig({
    PAYMENT_PROVIDER: "asaas",
    ASAAS_API_KEY: "k",
    ASAAS_WEBHOOK_TOKEN: TOKEN,
  });
  assert.deepEqual([ok.billing.provider, ok.billing.asaasApiUrl], [
    "asaas",
    "https://api.asaas.com/v3",
  ]);
});
