import assert from "node:assert/strict";
import { hasError, parsePix } from "pix-utils";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createCompany,
  createTestApp,
  login,
  restartTestApp,
  type TestApp,
  withApp,
} from "../helpers/app.ts";
import { sockets, withServedApp } from "../helpers/admin_fixtures.ts";
import { createDueInvoices } from "../../server/billing/service.ts";

const PIX = {
  PIX_KEY: "pix@balcao.test",
  PIX_MERCHANT_NAME: "Balcão",
  PIX_MERCHANT_CITY: "São Paulo",
};
// The test clock starts at 2026-11-22T12:00Z; INVOICE_DAYS_AHEAD defaults to 10.

async function invoicesOf(t: TestApp, companyId: number) {
  return await t.deps.db.selectFrom("invoices").selectAll().where("companyId", "=", companyId)
    .orderBy("dueDate").execute();
}

async function dueDateOf(t: TestApp, companyId: number) {
  return (await t.deps.db.selectFrom("companies").select("dueDate").where("id", "=", companyId)
    .executeTakeFirstOrThrow()).dueDate;
}

/** CRC16/CCITT-FALSE over the payload up to "6304", as EMVCo's Pix manual defines it. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

const BILLING = {
  firstName: "Maria",
  lastName: "Silva",
  address2: "Rua A, 10",
  city: "Santos",
  state: "SP",
  zipcode: "11000-000",
  country: "BR",
};

Deno.test("invoices job - one invoice per period ahead of the due date; twice, and after a restart, still one", async () => {
  let t = await createTestApp(PIX);
  try {
    const soon = await createCompany(t, "Soon", { dueDate: "2026-11-27", plan: { value: 49.9 } });
    const later = await createCompany(t, "Later", { dueDate: "2026-12-20" });
    const inactive = await createCompany(t, "Off", { dueDate: "2026-11-25" });
    await t.deps.db.updateTable("companies").set({ status: 0 }).where("id", "=", inactive.id)
      .execute();
    await t.deps.db.updateTable("companies").set({ recurrence: "TRIMESTRAL" })
      .where("id", "=", later.id).execute();

    const first = await createDueInvoices(t.deps);
    assert.equal(first.length, 1);
    assert.deepEqual(await createDueInvoices(t.deps), []);
    // Two ticks at once (a slow tick overlapping the next) still make none twice.
    await Promise.all([createDueInvoices(t.deps), createDueInvoices(t.deps)]);
    t = await restartTestApp(t);
    assert.deepEqual(await createDueInvoices(t.deps), []);
    const rows = await invoicesOf(t, soon.id);
    assert.equal(rows.length, 1);
    assert.deepEqual(
      [rows[0].dueDate, rows[0].valueCents, rows[0].status, rows[0].detail],
      ["2026-11-27", 4990, "open", "plan-Soon - MENSAL"],
    );
    assert.deepEqual(await invoicesOf(t, inactive.id), []);
    assert.deepEqual(await invoicesOf(t, later.id), []);

    // Ten days before Later's due date its invoice comes: three months of its plan (TRIMESTRAL).
    t.clock.set("2026-12-10T03:00:00.000Z");
    await createDueInvoices(t.deps);
    const laterRows = await invoicesOf(t, later.id);
    assert.deepEqual(laterRows.map((r) => [r.dueDate, r.valueCents]), [["2026-12-20", 29700]]);
  } finally {
    await t.close();
  }
});

Deno.test("invoices - list, read and isolation; users and other companies cannot see them", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha", { dueDate: "2026-11-25" });
    const b = await createCompany(t, "Beta", { dueDate: "2026-11-26" });
    await createDueInvoices(t.deps);
    const [aInvoice] = await invoicesOf(t, a.id);
    const [bInvoice] = await invoicesOf(t, b.id);

    const page = await (await t.request("GET", "/api/invoices/all", { token: a.admin.token }))
      .json();
    assert.deepEqual(page.invoices.map((i: { id: number }) => i.id), [aInvoice.id]);
    assert.equal(page.hasMore, false);
    assert.equal(page.invoices[0].companyName, undefined);
    const search = await (await t.request("GET", "/api/invoices/all?searchParam=nada", {
      token: a.admin.token,
    })).json();
    assert.equal(search.count, 0);
    const one = await t.request("GET", `/api/invoices/${aInvoice.id}`, { token: a.admin.token });
    assert.equal((await one.json()).value, 99);

    for (
      const [method, path, body] of [
        ["GET", `/api/invoices/${aInvoice.id}`, undefined],
        ["POST", "/api/subscription", { ...BILLING, invoiceId: aInvoice.id }],
      ] as const
    ) {
      const res = await t.request(method, path, { token: b.admin.token, body });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal((await res.json()).error, "ERR_NO_INVOICE_FOUND");
    }
    const forUser = await t.request("GET", "/api/invoices/all", { token: a.user.token });
    assert.equal(forUser.status, 403);
    const byAdmin = await t.request("PUT", `/api/invoices/${bInvoice.id}/paid`, {
      token: b.admin.token,
    });
    assert.equal(byAdmin.status, 403);
    assert.equal((await invoicesOf(t, b.id))[0].status, "open");
    assert.equal((await invoicesOf(t, a.id))[0].pixPayload, null);

    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const all = await (await t.request("GET", "/api/invoices/all", { token: root.token })).json();
    assert.deepEqual(
      all.invoices.map((i: { companyName: string }) => i.companyName).sort(),
      ["Alpha", "Beta"],
    );
  }, PIX));

Deno.test("invoices - a super user marks one paid: who and when recorded, due date moved, only that company hears it", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha", { dueDate: "2026-11-25" });
    const b = await createCompany(t, "Beta", { dueDate: "2026-11-26" });
    await createDueInvoices(t.deps);
    const [invoice] = await invoicesOf(t, a.id);
    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    await withServedApp(t, async (wsUrl) => {
      const [sa, admin, sb] = await sockets(wsUrl, a.user.token, a.admin.token, b.admin.token);
      const res = await t.request("PUT", `/api/invoices/${invoice.id}/paid`, {
        token: root.token,
      });
      assert.equal(res.status, 200);
      const body = await res.json();
      assert.equal(body.status, "paid");
      assert.equal(body.paidVia, "manual");
      assert.equal(body.paidByUserId, root.user.id);
      assert.equal(body.paidAt, t.clock.now().toISOString());
      const event = await sa.next((e) => e.event === `company-${a.id}-payment`);
      assert.deepEqual(event.data, {
        action: "CONCLUIDA",
        invoiceId: invoice.id,
        company: { id: a.id, dueDate: "2026-12-25" },
      });
      // The invoice list's live update reaches A's admins only.
      const update = await admin.next((e) => e.event === `company-${a.id}-invoice`);
      assert.deepEqual(
        [
          (update.data as { action: string }).action,
          (update.data as { record: { status: string } }).record.status,
        ],
        ["update", "paid"],
      );
      await sb.settle();
      assert.equal(sb.events.filter((e) => /-(payment|invoice)$/.test(e.event)).length, 0);
      assert.equal(sa.events.filter((e) => e.event.endsWith("-invoice")).length, 0);
    });
    assert.equal(await dueDateOf(t, a.id), "2026-12-25");
    assert.equal(await dueDateOf(t, b.id), "2026-11-26");
    const again = await t.request("PUT", `/api/invoices/${invoice.id}/paid`, { token: root.token });
    assert.equal(again.status, 409);
    assert.equal((await again.json()).error, "ERR_INVOICE_ALREADY_PAID");
    assert.equal(await dueDateOf(t, a.id), "2026-12-25");
    // A paid invoice has no checkout.
    const pay = await t.request("POST", "/api/subscription", {
      token: a.admin.token,
      body: { ...BILLING, invoiceId: invoice.id },
    });
    assert.equal(pay.status, 409);
    assert.equal((await pay.json()).error, "ERR_INVOICE_ALREADY_PAID");
  }, PIX));

Deno.test("invoices - paying advances the due date by each recurrence, from the later of today and the old date", () =>
  withApp(async (t) => {
    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const cases = [
      ["MENSAL", "2026-11-30", "2026-12-30"],
      ["BIMESTRAL", "2026-11-30", "2027-01-30"],
      ["TRIMESTRAL", "2026-11-30", "2027-02-28"],
      ["SEMESTRAL", "2026-11-30", "2027-05-30"],
      ["ANUAL", "2026-11-30", "2027-11-30"],
      // Overdue: counted from today (2026-11-22), not from the past due date.
      ["MENSAL", "2026-11-01", "2026-12-22"],
    ] as const;
    for (const [index, [recurrence, due, expected]] of cases.entries()) {
      // Created current (an expired company's users cannot log in), then given the case's date.
      const c = await createCompany(t, `R${index}`);
      await t.deps.db.updateTable("companies").set({ recurrence, dueDate: due })
        .where("id", "=", c.id).execute();
      await createDueInvoices(t.deps);
      const [invoice] = await invoicesOf(t, c.id);
      const res = await t.request("PUT", `/api/invoices/${invoice.id}/paid`, { token: root.token });
      assert.equal(res.status, 200);
      assert.equal(await dueDateOf(t, c.id), expected, `${recurrence} from ${due}`);
    }
  }, { ...PIX, LOGIN_MAX_ATTEMPTS: "100" }));

Deno.test("subscription - static Pix: a BR Code with the key, amount and txid that parses back with a valid CRC", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha", { dueDate: "2026-11-25", plan: { value: 149.9 } });
    await createDueInvoices(t.deps);
    const [invoice] = await invoicesOf(t, a.id);

    const missing = await t.request("POST", "/api/subscription", {
      token: a.admin.token,
      body: { invoiceId: invoice.id, firstName: " ", zipcode: "" },
    });
    assert.equal(missing.status, 400);
    assert.deepEqual((await missing.json()).fields, {
      firstName: ["O nome completo é obrigatório"],
      address2: ["O Endereço é obrigatório"],
      city: ["Cidade é obrigatória"],
      zipcode: ["CEP é obrigatório"],
      country: ["País é obrigatório"],
    });
    const wrongPrice = await t.request("POST", "/api/subscription", {
      token: a.admin.token,
      body: { ...BILLING, invoiceId: invoice.id, price: 1 },
    });
    assert.equal(wrongPrice.status, 400);
    assert.equal((await wrongPrice.json()).error, "ERR_PAYMENT_AMOUNT_MISMATCH");
    const byUser = await t.request("POST", "/api/subscription", {
      token: a.user.token,
      body: { ...BILLING, invoiceId: invoice.id },
    });
    assert.equal(byUser.status, 403);
    assert.equal((await invoicesOf(t, a.id))[0].pixPayload, null);

    const res = await t.request("POST", "/api/subscription", {
      token: a.admin.token,
      body: { ...BILLING, invoiceId: invoice.id, price: 149.9, cardNumber: "4111111111111111" },
    });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.valor.original, "149.90");
    assert.match(body.qrcode.imagemQrcode, /^data:image\/png;base64,/);
    const code: string = body.qrcode.qrcode;
    // The CRC: the last four hex digits are CRC16/CCITT-FALSE of everything before them.
    assert.equal(code.slice(-8, -4), "6304");
    assert.equal(code.slice(-4), crc16(code.slice(0, -4)));
    const parsed = parsePix(code);
    assert.ok(!hasError(parsed));
    assert.equal(parsed.type, "STATIC");
    if (parsed.type !== "STATIC") return;
    assert.equal(parsed.pixKey, "pix@balcao.test");
    assert.equal(parsed.transactionAmount, 149.9);
    assert.equal(parsed.txid, `FATURA${invoice.id}`);
    assert.equal(parsed.merchantName, "BALCAO");
    assert.equal(parsed.merchantCity, "SAO PAULO");
    // One changed digit and the CRC no longer matches.
    const tampered = code.replace("149.90", "140.90");
    assert.ok(hasError(parsePix(tampered)));

    // The billing data is kept on the company (the next checkout is prefilled); cards are not.
    const company = await t.deps.db.selectFrom("companies").selectAll().where("id", "=", a.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      [company.billingName, company.addressStreet, company.addressCity, company.addressZipCode],
      ["Maria Silva", "Rua A, 10", "Santos", "11000-000"],
    );
    const stored = await invoicesOf(t, a.id);
    assert.deepEqual([stored[0].provider, stored[0].pixPayload], ["static", code]);
  }, PIX));

Deno.test("invoices/current - the oldest unpaid invoice, or the current period's made once", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha", { dueDate: "2027-03-01" });
    const first = await t.request("POST", "/api/invoices/current", { token: a.admin.token });
    assert.equal(first.status, 201);
    const invoice = await first.json();
    assert.deepEqual([invoice.dueDate, invoice.status], ["2027-03-01", "open"]);
    const again = await t.request("POST", "/api/invoices/current", { token: a.admin.token });
    assert.equal(again.status, 200);
    assert.equal((await again.json()).id, invoice.id);
    assert.equal((await invoicesOf(t, a.id)).length, 1);
    // A plan that costs nothing makes no invoice, by the job or on demand.
    const free = await createCompany(t, "Free", { dueDate: "2026-11-25", plan: { value: 0 } });
    await createDueInvoices(t.deps);
    const none = await t.request("POST", "/api/invoices/current", { token: free.admin.token });
    assert.equal(none.status, 404);
    assert.equal((await none.json()).error, "ERR_NO_INVOICE_FOUND");
    assert.deepEqual(await invoicesOf(t, free.id), []);
  }, PIX));

Deno.test("invoices - paying switches a company the due-date job blocked back on, and its admin logs in", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha", { dueDate: "2026-11-25" });
    await createDueInvoices(t.deps);
    const [invoice] = await invoicesOf(t, a.id);
    // Eight days late: the due-date job (issue 11) has marked and blocked it.
    await t.deps.db.updateTable("companies").set({
      dueDate: "2026-11-14",
      status: 0,
      overdueSince: "2026-11-15",
      blockedAt: "2026-11-22",
    }).where("id", "=", a.id).execute();
    // Its plain user is refused; its admin may only pay (issue 29).
    const refused = await t.request("POST", "/api/auth/login", {
      body: { email: a.user.email, password: a.user.password },
    });
    assert.equal(refused.status, 401);
    const billingOnly = await login(t, a.admin.email, a.admin.password);
    assert.equal(
      (await t.request("GET", "/api/tickets", { token: billingOnly.token })).status,
      403,
    );
    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const res = await t.request("PUT", `/api/invoices/${invoice.id}/paid`, { token: root.token });
    assert.equal(res.status, 200);
    const company = await t.deps.db.selectFrom("companies").selectAll().where("id", "=", a.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      [company.dueDate, company.status, company.overdueSince, company.blockedAt],
      ["2026-12-22", 1, null, null],
    );
    await login(t, a.user.email, a.user.password);
  }, PIX));
