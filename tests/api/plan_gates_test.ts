import assert from "node:assert/strict";
import { PLAN_GATES } from "../../server/auth/middleware.ts";
import { CHANNEL_FLAGS, FEATURE_FLAGS, flagForPath } from "../../server/plans/features.ts";
import { Hub } from "../../server/realtime/hub.ts";
import type { Channel } from "../../server/realtime/events.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, createCompany, login, withApp } from "../helpers/app.ts";
import { sockets, withServedApp } from "../helpers/admin_fixtures.ts";

/**
 * Issue 11, deliverable 3: plan flags hold on every route, socket channel and at once.
 * The first test walks the app's route table: every route under a prefix of ROUTE_FLAGS (or
 * carrying a requirePlan middleware) is refused for a company whose plan lacks the flag, and is
 * not refused for that reason when the plan has it.
 */

const allOff = Object.fromEntries(FEATURE_FLAGS.map((f) => [f, 0]));

Deno.test("plan gates - every gated route of the route table refuses a plan without its flag", () =>
  withApp(async (t) => {
    const without = await createCompany(t, "Sem", { plan: allOff });
    const withAll = await createCompany(t, "Com");
    type Handler = Parameters<typeof PLAN_GATES.get>[0];
    const params = (path: string) => path.replace(/:[A-Za-z]+(\{[^}]*\})?/g, "1");
    // requirePlan mounted with `use("*")` gates everything under its prefix.
    const gatePrefixes: [string, string][] = [];
    for (const route of t.app.routes) {
      const flag = PLAN_GATES.get(route.handler as Handler);
      if (flag) gatePrefixes.push([route.path.replace(/\/?\*$/, ""), flag]);
    }
    const gated: { method: string; path: string; flag: string }[] = [];
    const seen = new Set<string>();
    for (const route of t.app.routes) {
      if (route.method === "ALL" || !route.path.startsWith("/api/")) continue;
      const path = params(route.path);
      const declared = PLAN_GATES.get(route.handler as Handler) ??
        gatePrefixes.find(([prefix]) =>
          route.path === prefix || route.path.startsWith(`${prefix}/`)
        )
          ?.[1];
      // One place: a route a sub-app gates itself is in ROUTE_FLAGS too, with the same flag.
      if (declared) assert.equal(flagForPath(path), declared, `${route.method} ${path}`);
      const flag = flagForPath(path) ?? declared;
      const key = `${route.method} ${path}`;
      if (!flag || seen.has(key)) continue;
      seen.add(key);
      gated.push({ method: route.method, path, flag });
    }
    // The walk is not vacuous: the schedules routes (useSchedules) are in it.
    assert.ok(gated.some((g) => g.path.startsWith("/api/schedules") && g.method === "POST"));
    for (const { method, path, flag } of gated) {
      const body = method === "GET" || method === "HEAD" ? undefined : {};
      const refused = await t.request(method, path, { token: without.admin.token, body });
      assert.equal(refused.status, 403, `${method} ${path} (${flag})`);
      assert.equal((await refused.json()).error, "ERR_PLAN_FEATURE_DISABLED", `${method} ${path}`);
      const allowed = await t.request(method, path, { token: withAll.admin.token, body });
      const text = await allowed.text();
      assert.ok(!text.includes("ERR_PLAN_FEATURE_DISABLED"), `${method} ${path} with ${flag}`);
    }
  }));

Deno.test("plan gates - moving a company to a plan without a flag applies at once: routes, socket events, the plan event", () =>
  withApp(async (t) => {
    const root = (await login(t, ADMIN_EMAIL, ADMIN_PASSWORD)).token;
    const a = await createCompany(t, "Alpha");
    const b = await createCompany(t, "Beta");
    const created = await t.request("POST", "/api/plans", {
      token: root,
      body: { name: "Sem agenda", useSchedules: false },
    });
    const plan = await created.json();
    const before = await t.request("GET", "/api/schedules", { token: a.admin.token });
    assert.equal(before.status, 200);
    await withServedApp(t, async (wsUrl) => {
      const [sa, sb] = await sockets(wsUrl, a.admin.token, b.admin.token);
      const moved = await t.request("PUT", `/api/companies/${a.id}`, {
        token: root,
        body: { planId: plan.id },
      });
      assert.equal(moved.status, 200);
      // The same token, no new login: refused now.
      const after = await t.request("GET", "/api/schedules", { token: a.admin.token });
      assert.equal(after.status, 403);
      assert.equal((await after.json()).error, "ERR_PLAN_FEATURE_DISABLED");
      const planEvent = await sa.next((e) => e.event === `company-${a.id}-plan`);
      assert.equal(
        (planEvent.data as { plan: { useSchedules: boolean } }).plan.useSchedules,
        false,
      );
      // The schedule channel no longer reaches A's open socket; B (flag on) still hears its own.
      t.deps.hub.publish(a.id, "schedule", { action: "reload", probe: "a1" });
      t.deps.hub.publish(b.id, "schedule", { action: "reload", probe: "b1" });
      await sb.next((e) => e.event === `company-${b.id}-schedule`);
      await sa.settle();
      assert.equal(sa.named(`company-${a.id}-schedule`).length, 0);
      assert.equal(sb.named(`company-${a.id}-plan`).length, 0, "B does not hear A's plan");

      // Editing the plan itself (flag back on) reaches the companies on it, at once.
      const edited = await t.request("PUT", `/api/plans/${plan.id}`, {
        token: root,
        body: { useSchedules: true },
      });
      assert.equal(edited.status, 200);
      await sa.next((e) =>
        e.event === `company-${a.id}-plan` &&
        (e.data as { plan: { useSchedules: boolean } }).plan.useSchedules === true
      );
      t.deps.hub.publish(a.id, "schedule", { action: "reload", probe: "a2" });
      await sa.next((e) => e.event === `company-${a.id}-schedule`);
      const back = await t.request("GET", "/api/schedules", { token: a.admin.token });
      assert.equal(back.status, 200);
      const me = await (await t.request("GET", "/api/auth/me", { token: a.admin.token })).json();
      assert.equal(me.company.plan.useSchedules, true);
    });
  }));

Deno.test("plan limits - users, connections and queues counted per company; 0 means no limit", () =>
  withApp(async (t) => {
    const limited = await createCompany(t, "Limitada", {
      plan: { users: 2, connections: 1, queues: 1 },
    });
    const open = await createCompany(t, "Livre", { plan: { users: 0, connections: 0, queues: 0 } });
    const user = (n: number) => ({
      name: `Pessoa ${n}`,
      email: `p${n}@x.test`,
      password: "secret1",
    });
    const refusedUser = await t.request("POST", "/api/users", {
      token: limited.admin.token,
      body: user(1),
    });
    assert.equal(refusedUser.status, 403);
    const body = await refusedUser.json();
    assert.equal(body.error, "ERR_PLAN_LIMIT");
    assert.match(body.message, /2 usuários/);
    const q1 = await t.request("POST", "/api/queue", {
      token: limited.admin.token,
      body: { name: "Uma", color: "#111111" },
    });
    assert.equal(q1.status, 201);
    const q2 = await t.request("POST", "/api/queue", {
      token: limited.admin.token,
      body: { name: "Duas", color: "#222222" },
    });
    assert.equal(q2.status, 403);
    assert.match((await q2.json()).message, /1 filas/);
    // 0 = no limit: more users and queues than any small plan allows.
    for (let i = 2; i < 5; i++) {
      const res = await t.request("POST", "/api/users", { token: open.admin.token, body: user(i) });
      assert.equal(res.status, 201);
      const q = await t.request("POST", "/api/queue", {
        token: open.admin.token,
        body: { name: `Fila ${i}`, color: `#00000${i}` },
      });
      assert.equal(q.status, 201);
    }
  }));

Deno.test("plan gates - every gated channel reaches only sockets whose plan has its flag", () => {
  const hub = new Hub();
  const heard = (label: string) => {
    const got: string[] = [];
    return { got, socket: { send: (text: string) => got.push(`${label} ${text}`), close() {} } };
  };
  const on = heard("on");
  const off = heard("off");
  // What enabledFlags gives for a plan with every flag, and for one with none.
  const every = new Set<string>(FEATURE_FLAGS);
  hub.add({ companyId: 1, userId: 1, profile: "admin", queueIds: [], flags: every }, on.socket);
  hub.add(
    { companyId: 1, userId: 2, profile: "admin", queueIds: [], flags: new Set() },
    off.socket,
  );
  for (const channel of Object.keys(CHANNEL_FLAGS) as Channel[]) {
    assert.equal(hub.publish(1, channel, { action: "reload" }), 1, channel);
  }
  assert.equal(on.got.length, Object.keys(CHANNEL_FLAGS).length);
  assert.deepEqual(off.got, []);
  // Channels without a flag reach both.
  assert.equal(hub.publish(1, "ticket", { action: "reload" }), 2);
});
