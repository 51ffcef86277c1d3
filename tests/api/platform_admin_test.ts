import assert from "node:assert/strict";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createCompany,
  login,
  type TestApp,
  twoCompanies,
  withApp,
} from "../helpers/app.ts";
import {
  insertContact,
  insertTicket,
  insertWhatsapp,
  sockets,
  withServedApp,
} from "../helpers/admin_fixtures.ts";
import { deadline } from "../helpers/server.ts";
import { SOCKET_AUTH_FAILED } from "../../server/realtime/socket.ts";

/**
 * Issue 11: companies and plans administered by super users (seeds/001 sections 2, 3, 5, 7).
 * Every platform route refuses a company admin (403); bad input leaves nothing half-written.
 */

async function rootToken(t: TestApp) {
  return (await login(t, ADMIN_EMAIL, ADMIN_PASSWORD)).token;
}

async function count(t: TestApp, table: "companies" | "plans" | "helps") {
  const row = await t.deps.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function newPlan(t: TestApp, token: string, body: Record<string, unknown>) {
  const res = await t.request("POST", "/api/plans", { token, body });
  assert.equal(res.status, 201, await res.clone().text());
  return await res.json();
}

Deno.test("platform - every super-only route answers 403 to a company admin and changes nothing", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const before = { companies: await count(t, "companies"), plans: await count(t, "plans") };
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/companies"],
      ["GET", "/api/companies/list"],
      ["POST", "/api/companies", { name: "X", email: "x@x.test", planId: 1 }],
      ["PUT", `/api/companies/${b.id}`, { status: false }],
      ["DELETE", `/api/companies/${b.id}`],
      ["GET", "/api/plans/all"],
      ["GET", "/api/plans/1"],
      ["POST", "/api/plans", { name: "Grátis" }],
      ["PUT", "/api/plans/1", { users: 1 }],
      ["DELETE", "/api/plans/1"],
      ["POST", "/api/helps", { title: "Vídeo" }],
      ["PUT", "/api/helps/1", { title: "Vídeo" }],
      ["DELETE", "/api/helps/1"],
    ];
    for (const [method, path, body] of calls) {
      const res = await t.request(method, path, { token: a.admin.token, body });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal((await res.json()).error, "ERR_NO_PERMISSION", `${method} ${path}`);
      const anonymous = await t.request(method, path, { body });
      assert.equal(anonymous.status, 401, `${method} ${path} without a token`);
    }
    assert.deepEqual(
      { companies: await count(t, "companies"), plans: await count(t, "plans") },
      before,
    );
    const row = await t.deps.db.selectFrom("companies").select("status").where("id", "=", b.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, 1);
  }));

Deno.test("plans - defaults, public list, edit, duplicate names, negative limits, in-use delete", () =>
  withApp(async (t) => {
    const root = await rootToken(t);
    const plan = await newPlan(t, root, { name: "Básico", value: 49.9 });
    // seeds/001 section 9: switches on, numbers 0.
    assert.deepEqual(plan, {
      id: plan.id,
      name: "Básico",
      value: 49.9,
      users: 0,
      connections: 0,
      queues: 0,
      useCampaigns: true,
      useSchedules: true,
      useInternalChat: true,
      useExternalApi: true,
      useKanban: true,
      useOpenAi: true,
      useIntegrations: true,
      useAssist: true,
    });
    const list = await t.request("GET", "/api/plans/list");
    assert.equal(list.status, 200);
    assert.ok((await list.json()).some((p: { name: string }) => p.name === "Básico"));

    const dup = await t.request("POST", "/api/plans", { token: root, body: { name: "básico" } });
    assert.equal(dup.status, 409);
    const dupBody = await dup.json();
    assert.equal(dupBody.error, "ERR_DUPLICATED_NAME");
    assert.match(dupBody.message, /^Não foi possível realizar a operação/);

    const negative = await t.request("PUT", `/api/plans/${plan.id}`, {
      token: root,
      body: { users: -1 },
    });
    assert.equal(negative.status, 400);
    assert.equal((await negative.json()).error, "ERR_VALIDATION");
    const edited = await t.request("PUT", `/api/plans/${plan.id}`, {
      token: root,
      body: { users: 3, useKanban: false },
    });
    assert.equal(edited.status, 200);
    const changed = await edited.json();
    assert.equal(changed.users, 3);
    assert.equal(changed.useKanban, false);
    assert.equal(
      (await (await t.request("GET", `/api/plans/${plan.id}`, { token: root })).json()).users,
      3,
    );

    const company = await createCompany(t, "Gama");
    await t.deps.db.updateTable("companies").set({ planId: plan.id }).where("id", "=", company.id)
      .execute();
    const inUse = await t.request("DELETE", `/api/plans/${plan.id}`, { token: root });
    assert.equal(inUse.status, 409);
    assert.equal((await inUse.json()).error, "ERR_PLAN_IN_USE");
    assert.ok(
      await t.deps.db.selectFrom("plans").select("id").where("id", "=", plan.id).executeTakeFirst(),
    );

    const spare = await newPlan(t, root, { name: "Sobra" });
    assert.equal(
      (await t.request("DELETE", `/api/plans/${spare.id}`, { token: root })).status,
      204,
    );
    assert.equal((await t.request("GET", `/api/plans/${spare.id}`, { token: root })).status, 404);
  }));

Deno.test("companies admin - create, list, search, edit; duplicates and bad dates refused whole", () =>
  withApp(async (t) => {
    const root = await rootToken(t);
    const plan = await newPlan(t, root, { name: "Pro", users: 5 });
    const created = await t.request("POST", "/api/companies", {
      token: root,
      body: {
        name: "Delta",
        email: "Contato@Delta.test",
        phone: "5511999990000",
        planId: plan.id,
        status: true,
        campaignsEnabled: false,
        dueDate: "2026-12-10",
        recurrence: "MENSAL",
      },
    });
    assert.equal(created.status, 201, await created.clone().text());
    const delta = await created.json();
    assert.equal(delta.email, "contato@delta.test");
    assert.deepEqual(delta.plan, { id: plan.id, name: "Pro" });
    assert.equal(delta.campaignsEnabled, false);
    assert.equal(delta.dueDate, "2026-12-10");
    const settings = await t.deps.db.selectFrom("settings").select(["key", "value"])
      .where("companyId", "=", delta.id).execute();
    assert.ok(settings.some((s) => s.key === "userRating"), "default settings written");
    assert.ok(settings.some((s) => s.key === "campaignsEnabled" && s.value === "false"));

    const before = await count(t, "companies");
    for (
      const [body, code] of [
        [{ name: "delta", email: "outro@x.test", planId: plan.id }, "ERR_DUPLICATED_NAME"],
        [{ name: "Épsilon", email: "contato@delta.test", planId: plan.id }, "ERR_DUPLICATED_EMAIL"],
        [
          { name: "Épsilon", email: "e@x.test", planId: plan.id, dueDate: "2026-02-30" },
          "ERR_VALIDATION",
        ],
        [
          { name: "Épsilon", email: "e@x.test", planId: plan.id, dueDate: "amanhã" },
          "ERR_VALIDATION",
        ],
        [
          { name: "Épsilon", email: "e@x.test", planId: plan.id, recurrence: "SEMANAL" },
          "ERR_VALIDATION",
        ],
        [{ name: "Épsilon", email: "e@x.test", planId: 999 }, "ERR_NO_PLAN_FOUND"],
        [{ name: "Épsilon", planId: plan.id }, "ERR_VALIDATION"],
      ] as const
    ) {
      const res = await t.request("POST", "/api/companies", { token: root, body });
      assert.equal((await res.json()).error, code, JSON.stringify(body));
      assert.ok(res.status >= 400 && res.status < 500);
    }
    assert.equal(await count(t, "companies"), before);

    // Every recurrence of seeds/001 section 9 is accepted by the server.
    for (const recurrence of ["BIMESTRAL", "TRIMESTRAL", "SEMESTRAL", "ANUAL", "MENSAL"]) {
      const res = await t.request("PUT", `/api/companies/${delta.id}`, {
        token: root,
        body: { recurrence },
      });
      assert.equal((await res.json()).recurrence, recurrence);
    }
    // With a password the company's first admin is created too, and can log in.
    const withAdmin = await t.request("POST", "/api/companies", {
      token: root,
      body: { name: "Zeta", email: "zeta@x.test", planId: plan.id, password: "segredo1" },
    });
    assert.equal(withAdmin.status, 201);
    const zeta = await login(t, "zeta@x.test", "segredo1");
    assert.equal(zeta.user.profile, "admin");
    assert.equal(zeta.user.company.name, "Zeta");
    const taken = await t.request("POST", "/api/companies", {
      token: root,
      body: { name: "Eta", email: ADMIN_EMAIL, planId: plan.id, password: "segredo1" },
    });
    assert.equal((await taken.json()).error, "ERR_DUPLICATED_EMAIL");

    const page = await (await t.request("GET", "/api/companies?searchParam=delt", { token: root }))
      .json();
    assert.deepEqual(page.companies.map((c: { name: string }) => c.name), ["Delta"]);
    assert.equal(page.count, 1);
    assert.equal(page.hasMore, false);
    const all = await (await t.request("GET", "/api/companies/list", { token: root })).json();
    assert.equal(all.length, await count(t, "companies"));
    const one = await (await t.request("GET", `/api/companies/${delta.id}`, { token: root }))
      .json();
    assert.equal(one.name, "Delta");
  }));

Deno.test("companies admin - a company switched off cannot log in, its sockets close, its connections stop", () =>
  withApp(async (t) => {
    const root = await rootToken(t);
    const { a, b } = await twoCompanies(t);
    const w = await insertWhatsapp(t, a.id, "Principal");
    await t.deps.db.updateTable("whatsapps").set({ status: "CONNECTED" }).where("id", "=", w.id)
      .execute();
    await withServedApp(t, async (wsUrl) => {
      const [sa, sb] = await sockets(wsUrl, a.user.token, b.user.token);
      const off = await t.request("PUT", `/api/companies/${a.id}`, {
        token: root,
        body: { status: false },
      });
      assert.equal(off.status, 200);
      assert.equal((await off.json()).status, false);
      const closed = await deadline(sa.closed, 5000, () => "A's socket stayed open");
      assert.equal(closed.code, SOCKET_AUTH_FAILED);
      assert.equal(sb.ws.readyState, WebSocket.OPEN);
    });
    const conn = await t.deps.db.selectFrom("whatsapps").select("status").where("id", "=", w.id)
      .executeTakeFirstOrThrow();
    assert.equal(conn.status, "DISCONNECTED");
    const again = await t.request("POST", "/api/auth/login", {
      body: { email: a.admin.email, password: a.admin.password },
    });
    assert.equal(again.status, 401);
    assert.equal((await again.json()).error, "ERR_SUBSCRIPTION_EXPIRED");
    const old = await t.request("GET", "/api/auth/me", { token: a.admin.token });
    assert.equal(old.status, 401);
    // B is untouched.
    assert.equal((await t.request("GET", "/api/auth/me", { token: b.admin.token })).status, 200);
    const on = await t.request("PUT", `/api/companies/${a.id}`, {
      token: root,
      body: { status: true },
    });
    assert.equal(on.status, 200);
    await login(t, a.admin.email, a.admin.password);
  }));

Deno.test("companies admin - delete removes every row and file of the company, not the other's; the platform's company is refused", () =>
  withApp(async (t) => {
    const root = await rootToken(t);
    const { a, b } = await twoCompanies(t);
    for (const c of [a, b]) {
      const w = await insertWhatsapp(t, c.id);
      const contact = await insertContact(t, c.id, {
        name: "Cliente",
        number: `55119${c.id}0000000`,
      });
      await insertTicket(t, c.id, { contactId: contact.id });
      await t.deps.db.insertInto("baileys_auth").values({
        companyId: c.id,
        whatsappId: w.id,
        category: "creds",
        id: "creds",
        value: "{}",
        updatedAt: t.clock.now().toISOString(),
      }).execute();
      await Deno.mkdir(`${t.dir}/media/${c.id}`, { recursive: true });
      await Deno.writeTextFile(`${t.dir}/media/${c.id}/x.txt`, "file");
    }
    const own = await t.deps.db.selectFrom("users").select("companyId").where("super", "=", 1)
      .executeTakeFirstOrThrow();
    const refused = await t.request("DELETE", `/api/companies/${own.companyId}`, { token: root });
    assert.equal(refused.status, 403);
    assert.equal((await refused.json()).error, "ERR_COMPANY_PROTECTED");

    const off = await t.request("PUT", `/api/companies/${own.companyId}`, {
      token: root,
      body: { status: false },
    });
    assert.equal(off.status, 403);
    assert.equal((await off.json()).error, "ERR_COMPANY_PROTECTED");

    const res = await t.request("DELETE", `/api/companies/${a.id}`, { token: root });
    assert.equal(res.status, 204);
    const tables = [
      "users",
      "whatsapps",
      "contacts",
      "tickets",
      "settings",
      "baileys_auth",
      "sessions",
    ] as const;
    for (const table of tables) {
      const left = await t.deps.db.selectFrom(table).select((eb) =>
        eb.fn.countAll<number>().as("n")
      )
        .where("companyId", "=", a.id).executeTakeFirstOrThrow();
      assert.equal(Number(left.n), 0, `${table} of A`);
      const kept = await t.deps.db.selectFrom(table).select((eb) =>
        eb.fn.countAll<number>().as("n")
      )
        .where("companyId", "=", b.id).executeTakeFirstOrThrow();
      assert.ok(Number(kept.n) > 0, `${table} of B kept`);
    }
    await assert.rejects(Deno.stat(`${t.dir}/media/${a.id}`), Deno.errors.NotFound);
    assert.equal(await Deno.readTextFile(`${t.dir}/media/${b.id}/x.txt`), "file");
    assert.equal((await t.request("GET", `/api/companies/${a.id}`, { token: root })).status, 404);
    assert.equal(
      (await t.request("DELETE", `/api/companies/${a.id}`, { token: root })).status,
      404,
    );
  }));

Deno.test("platform - ids of plans, companies and helps are never handed out twice", () =>
  withApp(async (t) => {
    const root = await rootToken(t);
    const kinds: [string, (n: number) => Record<string, unknown>][] = [
      ["/api/plans", (n) => ({ name: `Plano ${n}` })],
      ["/api/helps", (n) => ({ title: `Vídeo ${n}` })],
      ["/api/companies", (n) => ({ name: `Cliente ${n}`, email: `e${n}@x.test`, planId: 1 })],
    ];
    for (const [path, body] of kinds) {
      const first = await (await t.request("POST", path, { token: root, body: body(1) })).json();
      assert.equal(
        (await t.request("DELETE", `${path}/${first.id}`, { token: root })).status,
        204,
        path,
      );
      const second = await (await t.request("POST", path, { token: root, body: body(2) })).json();
      assert.ok(second.id > first.id, `${path}: ${second.id} after ${first.id}`);
    }
  }));
