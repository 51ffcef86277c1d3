import assert from "node:assert/strict";
import { defaultWorkingHours } from "../../server/queues/hours.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, login, twoCompanies, withApp } from "../helpers/app.ts";

const hours = [
  { weekday: "Segunda-feira", weekdayEn: "monday", startTime: "07:00", endTime: "19:00" },
  { weekday: "Terça-feira", weekdayEn: "tuesday", startTime: "07:00", endTime: "19:00" },
  { weekday: "Domingo", weekdayEn: "sunday", startTime: "00:00", endTime: "00:00" },
];

Deno.test("companies - a user reads their own company; default hours until some are saved", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const res = await t.request("GET", `/api/companies/${a.id}`, { token: a.user.token });
    assert.equal(res.status, 200);
    const company = await res.json();
    assert.equal(company.id, a.id);
    assert.equal(company.name, "Alpha");
    assert.equal(company.status, true);
    assert.match(company.dueDate, /^\d{4}-\d{2}-\d{2}$/);
    assert.deepEqual(company.schedules, defaultWorkingHours());
  }));

Deno.test("companies listPlan - the company's plan with feature flags", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const res = await t.request("GET", `/api/companies/listPlan/${a.id}`, { token: a.user.token });
    assert.equal(res.status, 200);
    const plan = await res.json();
    assert.equal(plan.name, "plan-Alpha");
    assert.equal(plan.users, 50);
    assert.equal(plan.useKanban, true);
    assert.equal(typeof plan.useCampaigns, "boolean");
  }));

Deno.test("companies schedules - admins save validated working hours", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const res = await t.request("PUT", `/api/companies/${a.id}/schedules`, {
      token: a.admin.token,
      body: { schedules: hours },
    });
    assert.equal(res.status, 200);
    assert.deepEqual((await res.json()).schedules, hours);
    const row = await t.deps.db.selectFrom("companies").select("schedules").where("id", "=", a.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(row.schedules), hours);
    const bad = await t.request("PUT", `/api/companies/${a.id}/schedules`, {
      token: a.admin.token,
      body: { schedules: [{ ...hours[0], startTime: "19:00", endTime: "07:00" }] },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual((await bad.json()).fields["schedules.0.endTime"], [
      "startTime must not be after endTime",
    ]);
    const badTime = await t.request("PUT", `/api/companies/${a.id}/schedules`, {
      token: a.admin.token,
      body: { schedules: [{ ...hours[0], startTime: "7h" }] },
    });
    assert.equal(badTime.status, 400);
    const byUser = await t.request("PUT", `/api/companies/${a.id}/schedules`, {
      token: a.user.token,
      body: { schedules: hours },
    });
    assert.equal(byUser.status, 403);
    const after = await t.deps.db.selectFrom("companies").select("schedules").where("id", "=", a.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(after.schedules), hours);
  }));

Deno.test("companies - company B cannot read A, its plan, or change A's hours; super users can read", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    for (const path of [`/api/companies/${a.id}`, `/api/companies/listPlan/${a.id}`]) {
      const res = await t.request("GET", path, { token: b.admin.token });
      assert.equal(res.status, 404, path);
      assert.equal((await res.json()).error, "ERR_NO_COMPANY_FOUND");
    }
    const put = await t.request("PUT", `/api/companies/${a.id}/schedules`, {
      token: b.admin.token,
      body: { schedules: hours },
    });
    assert.equal(put.status, 404);
    const row = await t.deps.db.selectFrom("companies").select("schedules").where("id", "=", a.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.schedules, "[]");
    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const bySuper = await t.request("GET", `/api/companies/${a.id}`, { token: root.token });
    assert.equal(bySuper.status, 200);
    const missing = await t.request("GET", "/api/companies/999999", { token: root.token });
    assert.equal(missing.status, 404);
  }));
