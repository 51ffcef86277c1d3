import assert from "node:assert/strict";
import { dueDateTick } from "../../server/companies/due_dates.ts";
import { ensureCurrentInvoice } from "../../server/billing/service.ts";
import { advanceDueDate } from "../../server/companies/due_dates.ts";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createCompany,
  login,
  type TestApp,
  withApp,
} from "../helpers/app.ts";

/** Issue 11: signup, help videos and due dates (seeds/001 sections 2, 4, 9). */

async function firstPlanId(t: TestApp): Promise<number> {
  const plans = await (await t.request("GET", "/api/plans/list")).json();
  return plans[0].id;
}

function signupBody(planId: number, n = 1) {
  return {
    name: "Maria Souza",
    companyName: `Loja ${n}`,
    email: `maria${n}@loja.test`,
    phone: "5511988887777",
    password: "segredo1",
    planId,
  };
}

async function rows(t: TestApp, table: "companies" | "users") {
  const r = await t.deps.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

Deno.test("signup - creates the company due in 3 days, MENSAL, its settings and first admin, who logs in", () =>
  withApp(async (t) => {
    const planId = await firstPlanId(t);
    const res = await t.request("POST", "/api/companies/cadastro", { body: signupBody(planId) });
    assert.equal(res.status, 201, await res.clone().text());
    const { companyId } = await res.json();
    const company = await t.deps.db.selectFrom("companies").selectAll().where("id", "=", companyId)
      .executeTakeFirstOrThrow();
    assert.equal(company.name, "Loja 1");
    assert.equal(company.dueDate, "2026-11-25"); // the test clock is 2026-11-22
    assert.equal(company.recurrence, "MENSAL");
    assert.equal(company.status, 1);
    assert.equal(company.planId, planId);
    const settings = await t.deps.db.selectFrom("settings").select(["key", "value"])
      .where("companyId", "=", companyId).execute();
    assert.ok(settings.some((s) => s.key === "campaignsEnabled" && s.value === "true"));
    const session = await login(t, "maria1@loja.test", "segredo1");
    assert.equal(session.user.companyId, companyId);
    assert.equal(session.user.profile, "admin");
    assert.equal(session.user.super, false);
    // An empty company: no tickets, no contacts of anyone else.
    const contacts = await (await t.request("GET", "/api/contacts", { token: session.token }))
      .json();
    assert.equal(contacts.count, 0);
  }));

Deno.test("signup - bad input, duplicates and a missing plan leave nothing written", () =>
  withApp(async (t) => {
    const planId = await firstPlanId(t);
    assert.equal(
      (await t.request("POST", "/api/companies/cadastro", { body: signupBody(planId) })).status,
      201,
    );
    const companies = await rows(t, "companies");
    const users = await rows(t, "users");
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...signupBody(planId, 2), email: "maria1@loja.test" }, 409, "ERR_DUPLICATED_EMAIL"],
      [{ ...signupBody(planId, 2), email: ADMIN_EMAIL }, 409, "ERR_DUPLICATED_EMAIL"],
      [{ ...signupBody(planId, 2), companyName: "loja 1" }, 409, "ERR_DUPLICATED_NAME"],
      [{ ...signupBody(planId, 2), name: "M" }, 400, "ERR_VALIDATION"],
      [{ ...signupBody(planId, 2), password: "1234" }, 400, "ERR_VALIDATION"],
      [{ ...signupBody(planId, 2), password: "x".repeat(51) }, 400, "ERR_VALIDATION"],
      [{ ...signupBody(planId, 2), email: "não é email" }, 400, "ERR_VALIDATION"],
      [{ ...signupBody(planId, 2), planId: 9999 }, 404, "ERR_NO_PLAN_FOUND"],
    ];
    for (const [body, status, code] of cases) {
      const res = await t.request("POST", "/api/companies/cadastro", { body });
      assert.equal(res.status, status, JSON.stringify(body));
      assert.equal((await res.json()).error, code);
    }
    assert.equal(await rows(t, "companies"), companies);
    assert.equal(await rows(t, "users"), users);
  }, { SIGNUP_MAX_PER_IP: "100" }));

Deno.test("signup - a flood from one address is rate limited; the switch turns signup off", async () => {
  await withApp(async (t) => {
    const planId = await firstPlanId(t);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await t.request("POST", "/api/companies/cadastro", {
        body: signupBody(planId, i),
      });
      statuses.push(res.status);
      await res.body?.cancel();
    }
    assert.deepEqual(statuses, [201, 201, 429, 429]);
    const flood = await t.request("POST", "/api/companies/cadastro", { body: {} });
    assert.equal((await flood.json()).error, "ERR_RATE_LIMITED");
    assert.equal(await rows(t, "companies"), 3);
  }, { SIGNUP_MAX_PER_IP: "2" });
  await withApp(async (t) => {
    const planId = await firstPlanId(t);
    const res = await t.request("POST", "/api/companies/cadastro", { body: signupBody(planId) });
    assert.equal(res.status, 403);
    assert.equal((await res.json()).error, "ERR_SIGNUP_DISABLED");
    assert.equal(await rows(t, "companies"), 1);
  }, { SIGNUP_ENABLED: "false" });
});

Deno.test("helps - super users write, everyone reads; a pasted YouTube URL becomes its id", () =>
  withApp(async (t) => {
    const root = (await login(t, ADMIN_EMAIL, ADMIN_PASSWORD)).token;
    const a = await createCompany(t, "Alpha");
    const created = await t.request("POST", "/api/helps", {
      token: root,
      body: {
        title: "Primeiros passos",
        description: "Como conectar",
        video: "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10s",
      },
    });
    assert.equal(created.status, 201);
    const help = await created.json();
    assert.equal(help.video, "dQw4w9WgXcQ");
    const bad = await t.request("POST", "/api/helps", {
      token: root,
      body: { title: "Outro", video: "https://example.com/video" },
    });
    assert.equal(bad.status, 400);
    const dup = await t.request("POST", "/api/helps", {
      token: root,
      body: { title: "primeiros passos" },
    });
    assert.equal(dup.status, 409);
    assert.equal((await dup.json()).error, "ERR_DUPLICATED_NAME");
    const list = await (await t.request("GET", "/api/helps/list", { token: a.user.token })).json();
    assert.deepEqual(list, [help]);
    const byUser = await t.request("PUT", `/api/helps/${help.id}`, {
      token: a.admin.token,
      body: { title: "Mudado" },
    });
    assert.equal(byUser.status, 403);
    const edited = await t.request("PUT", `/api/helps/${help.id}`, {
      token: root,
      body: { video: "https://youtu.be/9bZkp7q19f0" },
    });
    assert.equal((await edited.json()).video, "9bZkp7q19f0");
    assert.equal((await t.request("DELETE", `/api/helps/${help.id}`, { token: root })).status, 204);
    assert.equal((await t.request("DELETE", `/api/helps/${help.id}`, { token: root })).status, 404);
  }));

Deno.test("due dates - the job marks overdue, blocks after the grace days once, and paying restores", () =>
  withApp(async (t) => {
    const late = await createCompany(t, "Atrasada");
    const fine = await createCompany(t, "Em dia");
    await t.deps.db.updateTable("companies").set({ dueDate: "2026-11-20" })
      .where("id", "=", late.id).execute();
    const first = await dueDateTick(t.deps);
    assert.deepEqual(first, { markedOverdue: [late.id], blocked: [] });
    assert.deepEqual(await dueDateTick(t.deps), { markedOverdue: [], blocked: [] });
    t.clock.set("2026-11-28T12:00:00.000Z"); // 8 days after the due date, grace 7
    const blocked = await dueDateTick(t.deps);
    assert.deepEqual(blocked, { markedOverdue: [], blocked: [late.id] });
    assert.deepEqual(await dueDateTick(t.deps), { markedOverdue: [], blocked: [] });
    const row = await t.deps.db.selectFrom("companies").selectAll().where("id", "=", late.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, 0);
    assert.equal(row.overdueSince, "2026-11-22");
    const other = await t.deps.db.selectFrom("companies").select("status").where("id", "=", fine.id)
      .executeTakeFirstOrThrow();
    assert.equal(other.status, 1);
    // Login is refused with the date in the message (seeds/000 section 4); its admin's is a
    // billing-only session (issue 29).
    const refused = await t.request("POST", "/api/auth/login", {
      body: { email: late.user.email, password: late.user.password },
    });
    assert.equal(refused.status, 401);
    assert.match((await refused.json()).message, /20\/11\/2026/);

    // An invoice paid: due date one recurrence ahead of today (it was past), marks cleared,
    // switched on again.
    const due = await t.deps.db.transaction().execute((trx) =>
      advanceDueDate(trx, late.id, t.clock.now())
    );
    assert.equal(due, "2026-12-28");
    const paid = await t.deps.db.selectFrom("companies").selectAll().where("id", "=", late.id)
      .executeTakeFirstOrThrow();
    assert.equal(paid.status, 1);
    assert.equal(paid.overdueSince, null);
    assert.equal(paid.blockedAt, null);
    await login(t, late.user.email, late.user.password);
  }));

Deno.test("due dates - a super user marking the invoice of a blocked company paid switches it back on", () =>
  withApp(async (t) => {
    const root = (await login(t, ADMIN_EMAIL, ADMIN_PASSWORD)).token;
    const late = await createCompany(t, "Atrasada");
    await t.deps.db.updateTable("companies").set({ dueDate: "2026-11-01" })
      .where("id", "=", late.id).execute();
    assert.deepEqual((await dueDateTick(t.deps)).blocked, [late.id]);
    const company = await t.deps.db.selectFrom("companies").selectAll().where("id", "=", late.id)
      .executeTakeFirstOrThrow();
    const current = await ensureCurrentInvoice(t.deps, company);
    assert.ok(current);
    const paid = await t.request("PUT", `/api/invoices/${current.invoice.id}/paid`, {
      token: root,
    });
    assert.equal(paid.status, 200, await paid.clone().text());
    const after = await t.deps.db.selectFrom("companies").selectAll().where("id", "=", late.id)
      .executeTakeFirstOrThrow();
    assert.equal(after.status, 1);
    assert.equal(after.blockedAt, null);
    assert.equal(after.overdueSince, null);
    assert.equal(after.dueDate, "2026-12-22"); // a month from today (the old date was past)
    await login(t, late.admin.email, late.admin.password);
  }));
