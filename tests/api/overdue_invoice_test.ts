import assert from "node:assert/strict";
import { createCompany, login, type TestApp, withApp } from "../helpers/app.ts";

/**
 * Issue 50 item 2: a late company's admin lands on /financeiro and must find an invoice to pay
 * (made when missing, once), the session says whether the lapsed period was the trial, and
 * another plan may be chosen while late. The test clock: 2026-11-22T12:00Z.
 */

async function lateAdmin(t: TestApp, name: string) {
  const company = await createCompany(t, name);
  // The super user set the due date in the past; no invoice was ever made.
  await t.deps.db.updateTable("companies").set({ dueDate: "2026-11-10" })
    .where("id", "=", company.id).execute();
  const session = await login(t, company.admin.email, company.admin.password);
  return { company, session };
}

async function invoices(t: TestApp, token: string) {
  const res = await t.request("GET", "/api/invoices/all", { token });
  assert.equal(res.status, 200);
  return (await res.json()).invoices as { id: number; status: string; dueDate: string }[];
}

Deno.test("overdue - a late company's admin always finds the open invoice on /financeiro, made once; others see none of it", () =>
  withApp(async (t) => {
    const { company, session } = await lateAdmin(t, "Alpha");
    const other = await createCompany(t, "Beta");
    const first = await invoices(t, session.token);
    assert.equal(first.length, 1);
    assert.equal(first[0].status, "open");
    assert.equal(first[0].dueDate.slice(0, 10), "2026-11-10");
    // Listing again makes no second one.
    assert.deepEqual((await invoices(t, session.token)).map((i) => i.id), [first[0].id]);
    const rows = await t.deps.db.selectFrom("invoices").select("id")
      .where("companyId", "=", company.id).execute();
    assert.equal(rows.length, 1);
    // It can be paid: its checkout answers the company's own invoice.
    const checkout = await t.request("GET", `/api/invoices/${first[0].id}/checkout`, {
      token: session.token,
    });
    assert.equal(checkout.status, 200);
    // Another company neither sees it nor gets one.
    assert.deepEqual(await invoices(t, other.admin.token), []);
    const foreign = await t.request("GET", `/api/invoices/${first[0].id}/checkout`, {
      token: other.admin.token,
    });
    assert.equal(foreign.status, 404);
  }));

Deno.test("overdue - the session tells a lapsed trial from a lapsed subscription", () =>
  withApp(async (t) => {
    const { company, session } = await lateAdmin(t, "Alpha");
    assert.equal(session.user.company.trial, true);
    const stamp = t.clock.now().toISOString();
    await t.deps.db.insertInto("invoices").values({
      companyId: company.id,
      detail: "plano - MENSAL",
      valueCents: 9900,
      dueDate: "2026-10-10",
      status: "paid",
      paidAt: stamp,
      paidByUserId: null,
      paidVia: "manual",
      provider: null,
      chargeId: null,
      pixPayload: null,
      createdAt: stamp,
      updatedAt: stamp,
    }).execute();
    const again = await login(t, company.admin.email, company.admin.password);
    assert.equal(again.user.company.trial, false);
    const me = await (await t.request("GET", "/api/auth/me", { token: again.token })).json();
    assert.equal(me.company.trial, false);
  }));

Deno.test("overdue - a late company's admin may choose another plan; its open invoice follows", () =>
  withApp(async (t) => {
    const { session } = await lateAdmin(t, "Alpha");
    const stamp = t.clock.now().toISOString();
    const pro = await t.deps.db.insertInto("plans").values({
      name: "Pro",
      users: 50,
      connections: 50,
      queues: 50,
      campaigns: 0,
      schedules: 0,
      valueCents: 15900,
      createdAt: stamp,
      updatedAt: stamp,
    }).returning("id").executeTakeFirstOrThrow();
    // Issue 50 item 12: the confirmation's amount for a late company: nothing of the period was
    // paid, so its open invoice becomes the new plan's whole price, with no adjustment.
    const quote = await t.request("GET", `/api/subscription/plan/${pro.id}/quote`, {
      token: session.token,
    });
    assert.deepEqual(await quote.json(), {
      plan: { id: pro.id, name: "Pro", value: 159 },
      adjustment: 0,
      invoice: { dueDate: "2026-11-10", value: 159, late: true },
    });
    const res = await t.request("PUT", "/api/subscription/plan", {
      token: session.token,
      body: { planId: pro.id },
    });
    assert.equal(res.status, 200, await res.clone().text());
    const body = await res.json();
    assert.equal(body.plan.name, "Pro");
    const open = (await invoices(t, session.token)).filter((i) => i.status === "open");
    assert.equal(open.length, 1);
    const value = await t.deps.db.selectFrom("invoices").select("valueCents")
      .where("id", "=", open[0].id).executeTakeFirstOrThrow();
    assert.equal(value.valueCents, 15900);
  }, { PLAN_CHANGE_ENABLED: "true" }));
