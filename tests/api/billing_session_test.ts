import assert from "node:assert/strict";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createCompany,
  login,
  type TestApp,
  type TestCompany,
  withApp,
} from "../helpers/app.ts";
import { withServedApp } from "../helpers/admin_fixtures.ts";
import { asaasEnv, startFakeAsaas } from "../fakes/asaas.ts";
import { createDueInvoices } from "../../server/billing/service.ts";
import { dueDateTick } from "../../server/companies/due_dates.ts";
import { SOCKET_AUTH_FAILED } from "../../server/realtime/socket.ts";

/**
 * Issue 29 item 1: a late company's admin signs in to a billing-only session; everything but
 * paying is refused (403 ERR_SUBSCRIPTION_OVERDUE), its sockets too; plain users stay refused;
 * paying switches the same token back to the whole app. The test clock: 2026-11-22T12:00Z.
 */

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

async function call(t: TestApp, token: string, method: string, path: string, body?: unknown) {
  const res = await t.request(method, path, { token, body });
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
}

/** The company's invoice of a past due date, then the due-date job (grace: 7 days) runs. */
async function lateCompany(t: TestApp, name: string, dueDate: string) {
  const company = await createCompany(t, name, { dueDate: "2026-12-20" });
  await t.deps.db.updateTable("companies").set({ dueDate }).where("id", "=", company.id).execute();
  await createDueInvoices(t.deps);
  await dueDateTick(t.deps);
  return company;
}

async function companyRow(t: TestApp, id: number) {
  return await t.deps.db.selectFrom("companies").select(["status", "blockedAt", "dueDate"])
    .where("id", "=", id).executeTakeFirstOrThrow();
}

async function refusedSocket(wsUrl: string, token: string) {
  const ws = new WebSocket(`${wsUrl}/socket?token=${token}`);
  const events: unknown[] = [];
  ws.onmessage = (m) => events.push(JSON.parse(String(m.data)));
  const closed = await new Promise<CloseEvent>((resolve) => ws.onclose = resolve);
  return { code: closed.code, events };
}

async function assertRestricted(t: TestApp, token: string) {
  for (const path of ["/api/tickets", "/api/contacts", "/api/users", "/api/queue"]) {
    const res = await call(t, token, "GET", path);
    assert.equal(res.status, 403, path);
    assert.equal(res.body.error, "ERR_SUBSCRIPTION_OVERDUE", path);
    assert.match(res.body.message, /Pague a fatura/);
  }
  const changed = await call(t, token, "POST", "/api/contacts", {
    name: "Novo",
    number: "5511911112222",
  });
  assert.equal(changed.status, 403);
  assert.equal((await call(t, token, "GET", "/api/invoices/all")).status, 200);
  const me = await call(t, token, "GET", "/api/auth/me");
  assert.equal(me.body.restricted, "billing");
}

async function loginAs(t: TestApp, c: TestCompany, who: "admin" | "user") {
  return await t.request("POST", "/api/auth/login", {
    body: { email: c[who].email, password: c[who].password },
  });
}

Deno.test("billing session - a late admin may only pay; a webhook (twice) switches the same token back; plain users stay out", async () => {
  const fake = startFakeAsaas();
  try {
    await withApp(async (t) => {
      // Past due (7 days of grace not over): not switched off yet.
      const late = await lateCompany(t, "Late", "2026-11-20");
      assert.equal((await companyRow(t, late.id)).status, 1);
      const res = await loginAs(t, late, "admin");
      assert.equal(res.status, 200);
      const answer = await res.json();
      assert.equal(answer.restricted, "billing");
      assert.match(answer.message, /Sua assinatura expirou em 20\/11\/2026/);
      assert.equal(answer.user.restricted, "billing");
      await assertRestricted(t, answer.token);

      const plain = await loginAs(t, late, "user");
      assert.equal(plain.status, 401);
      const refusal = await plain.json();
      assert.equal(refusal.error, "ERR_SUBSCRIPTION_EXPIRED");
      assert.match(refusal.message, /Sua assinatura expirou em 20\/11\/2026/);

      // Past due and grace: switched off by the due-date job, still the admin may pay.
      const off = await lateCompany(t, "Off", "2026-11-10");
      assert.deepEqual((await companyRow(t, off.id)).status, 0);
      const offLogin = await (await loginAs(t, off, "admin")).json();
      assert.equal(offLogin.restricted, "billing");
      const token = offLogin.token;
      await assertRestricted(t, token);

      await withServedApp(t, async (wsUrl) => {
        const refused = await refusedSocket(wsUrl, token);
        assert.equal(refused.code, SOCKET_AUTH_FAILED);
        assert.deepEqual(refused.events, [{
          event: "error",
          data: { error: "ERR_SUBSCRIPTION_OVERDUE" },
        }]);
      });

      // The checkout and the provider's webhook, delivered twice: paid once, switched on.
      const invoice = await t.deps.db.selectFrom("invoices").selectAll()
        .where("companyId", "=", off.id).where("status", "=", "open").executeTakeFirstOrThrow();
      const checkout = await call(t, token, "POST", "/api/subscription", {
        ...BILLING,
        invoiceId: invoice.id,
      });
      assert.equal(checkout.status, 200, JSON.stringify(checkout.body));
      const [payment] = fake.payments.values();
      const received = fake.receive(payment.id);
      for (let i = 0; i < 2; i++) {
        const hook = await t.request("POST", "/api/billing/asaas/webhook", {
          body: received,
          headers: { "asaas-access-token": TOKEN },
        });
        assert.equal(hook.status, 200);
        await hook.body?.cancel();
      }
      const after = await companyRow(t, off.id);
      assert.deepEqual([after.status, after.blockedAt], [1, null]);
      assert.ok(after.dueDate! > "2026-11-22");
      const paid = await t.deps.db.selectFrom("invoices").select("id")
        .where("companyId", "=", off.id).where("status", "=", "paid").execute();
      assert.equal(paid.length, 1);

      // The same token, no new login: the whole app.
      const tickets = await call(t, token, "GET", "/api/tickets");
      assert.equal(tickets.status, 200);
      const me = await call(t, token, "GET", "/api/auth/me");
      assert.equal(me.body.restricted, undefined);
      await withServedApp(t, async (wsUrl) => {
        const ws = new WebSocket(`${wsUrl}/socket?token=${token}`);
        const first = await new Promise<{ event: string }>((resolve) =>
          ws.onmessage = (m) => resolve(JSON.parse(String(m.data)))
        );
        assert.equal(first.event, "ready");
        ws.close();
      });
      // The first late company is still late.
      assert.equal((await call(t, answer.token, "GET", "/api/tickets")).status, 403);
    }, asaasEnv(fake, TOKEN));
  } finally {
    await fake.close();
  }
});

Deno.test("billing session - a company switched off by hand stays out, paid or not", () =>
  withApp(async (t) => {
    const c = await createCompany(t, "Hand", { dueDate: "2026-11-25" });
    await createDueInvoices(t.deps);
    await t.deps.db.updateTable("companies").set({ status: 0 }).where("id", "=", c.id).execute();
    const res = await loginAs(t, c, "admin");
    assert.equal(res.status, 401);
    assert.equal((await res.json()).error, "ERR_SUBSCRIPTION_EXPIRED");
    assert.equal((await call(t, c.admin.token, "GET", "/api/invoices/all")).status, 401);

    // A payment arriving while it is switched off by hand pays the invoice, moves the due date
    // and leaves it off: only a super user switches it on.
    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const invoice = await t.deps.db.selectFrom("invoices").select("id")
      .where("companyId", "=", c.id).executeTakeFirstOrThrow();
    const paid = await call(t, root.token, "PUT", `/api/invoices/${invoice.id}/paid`);
    assert.equal(paid.status, 200);
    const row = await companyRow(t, c.id);
    assert.deepEqual([row.status, row.dueDate! > "2026-11-25"], [0, true]);
    assert.equal((await loginAs(t, c, "admin")).status, 401);
  }));
