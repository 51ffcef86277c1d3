import assert from "node:assert/strict";
import { createCompany, type TestApp, withApp } from "../helpers/app.ts";
import { planChangeAdjustment } from "../../server/billing/plan_change.ts";

/**
 * Issue 29 item 3: the admin chooses another plan; the difference for the days left of the paid
 * period goes on the next invoice; limits apply at once; below the current usage is refused.
 * The test clock: 2026-11-22T12:00Z.
 */

async function addPlan(t: TestApp, name: string, values: Record<string, number>) {
  const stamp = t.clock.now().toISOString();
  const row = await t.deps.db.insertInto("plans").values({
    name,
    users: 0,
    connections: 0,
    queues: 0,
    campaigns: 0,
    schedules: 0,
    // A price in reais, as a super user types it; the column holds cents (migration 0700).
    ...Object.fromEntries(
      Object.entries({ value: 0, ...values }).map(([k, v]) =>
        k === "value" ? ["valueCents", Math.round(v * 100)] : [k, v]
      ),
    ),
    createdAt: stamp,
    updatedAt: stamp,
  }).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

async function change(t: TestApp, token: string, planId: number) {
  const res = await t.request("PUT", "/api/subscription/plan", { token, body: { planId } });
  return { status: res.status, body: await res.json() };
}

Deno.test("plan change - the adjustment: the price difference for the days left of the period", () => {
  const base = { recurrence: "MENSAL", dueDate: "2026-12-07", today: "2026-11-22" };
  // 2026-11-07 .. 2026-12-07: 30 days, 15 left.
  assert.equal(planChangeAdjustment({ ...base, oldValue: 99, newValue: 159 }), 30);
  assert.equal(planChangeAdjustment({ ...base, oldValue: 159, newValue: 99 }), -30);
  assert.equal(
    planChangeAdjustment({ ...base, oldValue: 99, newValue: 159, today: "2026-12-08" }),
    0,
  );
  assert.equal(
    planChangeAdjustment({ ...base, recurrence: "TRIMESTRAL", oldValue: 100, newValue: 200 }),
    49.45, // 2026-09-07 .. 2026-12-07: 91 days, 15 left
  );
});

Deno.test("plan change - up, then down: the next invoice carries the difference; limits at once; usage named; roles", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha", { dueDate: "2026-12-07" });
    const b = await createCompany(t, "Beta", { dueDate: "2026-12-07" });
    const pro = await addPlan(t, "Pro", { value: 159, users: 10, useKanban: 0 });
    const solo = await addPlan(t, "Solo", { value: 19, users: 1 });
    const small = await addPlan(t, "Pequeno", { value: 49, users: 5 });

    // Issue 50 item 12: the confirmation's amount, asked before the change.
    const quote = await t.request("GET", `/api/subscription/plan/${pro}/quote`, {
      token: a.admin.token,
    });
    assert.deepEqual(await quote.json(), {
      plan: { id: pro, name: "Pro", value: 159 },
      adjustment: 30,
      // The next invoice's amount said before the change: 159 + 30 (99 already paid for it).
      invoice: { dueDate: "2026-12-07", value: 189, late: false },
    });
    const userQuote = await t.request("GET", `/api/subscription/plan/${pro}/quote`, {
      token: a.user.token,
    });
    assert.equal(userQuote.status, 403);
    const up = await change(t, a.admin.token, pro);
    assert.equal(up.status, 200, JSON.stringify(up.body));
    // The checkout's review names the adjustment the invoice carries.
    const review = await (await t.request("GET", `/api/invoices/${up.body.invoice.id}/checkout`, {
      token: a.admin.token,
    })).json();
    assert.deepEqual([review.invoice.value, review.plan.value, review.adjustment], [189, 159, 30]);
    assert.deepEqual([up.body.plan.name, up.body.adjustment], ["Pro", 30]);
    assert.deepEqual([up.body.invoice.value, up.body.invoice.dueDate], [189, "2026-12-07"]);
    assert.match(up.body.invoice.detail, /Pro - MENSAL \(troca de plano: \+R\$ 30,00\)/);
    // Limits and flags at once: the session reads the new plan, kanban is off.
    const me = await (await t.request("GET", "/api/auth/me", { token: a.admin.token })).json();
    assert.equal(me.company.plan.name, "Pro");
    const kanban = await t.request("GET", "/api/ticket/kanban", { token: a.admin.token });
    assert.equal(kanban.status, 403);
    assert.equal((await kanban.json()).error, "ERR_PLAN_FEATURE_DISABLED");

    // Below the usage (2 users): refused, naming it.
    const tooSmall = await change(t, a.admin.token, solo);
    assert.equal(tooSmall.status, 400);
    assert.equal(tooSmall.body.error, "ERR_PLAN_LIMIT");
    assert.match(tooSmall.body.message, /2 usuários \(o plano permite 1\)/);

    // Down the same day: 159 -> 49 credits 55; the +30 of the first change stays on the invoice.
    const down = await change(t, a.admin.token, small);
    assert.equal(down.status, 200);
    assert.equal(down.body.adjustment, -55);
    assert.equal(down.body.invoice.id, up.body.invoice.id);
    assert.equal(down.body.invoice.value, 49 + 30 - 55);
    const invoices = await t.deps.db.selectFrom("invoices").select("id")
      .where("companyId", "=", a.id).execute();
    assert.equal(invoices.length, 1);
    const bInvoices = await t.deps.db.selectFrom("invoices").select("id")
      .where("companyId", "=", b.id).execute();
    assert.equal(bInvoices.length, 0);

    const same = await change(t, a.admin.token, small);
    assert.equal(same.status, 400);
    const missing = await change(t, a.admin.token, 999999);
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, "ERR_NO_PLAN_FOUND");
    const user = await change(t, a.user.token, pro);
    assert.equal(user.status, 403);
    assert.equal(user.body.error, "ERR_NO_PERMISSION");
  }));

Deno.test("plan change - off when the platform says so", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha", { dueDate: "2026-12-07" });
    const pro = await addPlan(t, "Pro", { value: 159 });
    const res = await change(t, a.admin.token, pro);
    assert.equal(res.status, 403);
    assert.equal(res.body.error, "ERR_PLAN_CHANGE_DISABLED");
  }, { PLAN_CHANGE_ENABLED: "false" }));
