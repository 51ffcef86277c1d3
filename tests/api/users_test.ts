import assert from "node:assert/strict";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createCompany,
  createUser,
  login,
  twoCompanies,
  withApp,
} from "../helpers/app.ts";
import { insertTicket, insertWhatsapp, sockets, withServedApp } from "../helpers/admin_fixtures.ts";
import type { TestApp } from "../helpers/app.ts";

async function queue(t: TestApp, companyId: number, name: string, color: string) {
  const stamp = t.clock.now().toISOString();
  return await t.deps.db.insertInto("queues").values({
    companyId,
    name,
    color,
    orderQueue: null,
    integrationId: null,
    promptId: null,
    mediaPath: null,
    mediaName: null,
    createdAt: stamp,
    updatedAt: stamp,
  }).returningAll().executeTakeFirstOrThrow();
}

const newUser = {
  name: "Carla Dias",
  email: "Carla@Alpha.test",
  password: "secret1",
  profile: "user",
};

Deno.test("users create - an admin adds a user with queues and default connection; the company hears it", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const sales = await queue(t, a.id, "Vendas", "#F44336");
    const conn = await insertWhatsapp(t, a.id, "Principal");
    await withServedApp(t, async (wsUrl) => {
      const [sa, sb] = await sockets(wsUrl, a.user.token, b.admin.token);
      const res = await t.request("POST", "/api/users", {
        token: a.admin.token,
        body: { ...newUser, queueIds: [sales.id], whatsappId: conn.id, allTicket: "enable" },
      });
      assert.equal(res.status, 201);
      const user = await res.json();
      assert.deepEqual({ ...user, id: 0, createdAt: "", updatedAt: "" }, {
        id: 0,
        name: "Carla Dias",
        email: "carla@alpha.test",
        profile: "user",
        super: false,
        companyId: a.id,
        whatsappId: conn.id,
        whatsapp: { id: conn.id, name: "Principal" },
        allTicket: "enable",
        online: false,
        maxOpenTickets: null,
        supervisedQueueIds: [],
        startWork: null,
        endWork: null,
        queues: [{ id: sales.id, name: "Vendas", color: "#F44336" }],
        twoFactor: false,
        createdAt: "",
        updatedAt: "",
      });
      const row = await t.deps.db.selectFrom("users").selectAll().where("id", "=", user.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.companyId, a.id);
      assert.notEqual(row.passwordHash, "secret1");
      const ev = await sa.next((e) => e.event === `company-${a.id}-user`);
      assert.deepEqual(ev.data, { action: "create", record: user, user });
      await sb.settle();
      assert.equal(sb.events.filter((e) => e.event.endsWith("-user")).length, 0);
    });
    const session = await login(t, "carla@alpha.test", "secret1");
    assert.equal(session.user.id > 0, true);
  }));

Deno.test("users create - form rules with the specification's messages", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const res = await t.request("POST", "/api/users", {
      token: a.admin.token,
      body: { name: "C", email: "nope", password: "1234" },
    });
    assert.equal(res.status, 400);
    const body = await res.json();
    assert.equal(body.error, "ERR_VALIDATION");
    assert.deepEqual(body.fields, {
      name: ["Muito curto!"],
      email: ["E-mail inválido"],
      password: ["Muito curto!"],
    });
    const missing = await (await t.request("POST", "/api/users", {
      token: a.admin.token,
      body: { name: "", email: "", password: "x".repeat(51) },
    })).json();
    assert.deepEqual(missing.fields, {
      name: ["Obrigatório"],
      email: ["Obrigatório"],
      password: ["Muito longo!"],
    });
  }));

Deno.test("users create - an email already used in any company is ERR_DUPLICATED_EMAIL", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const res = await t.request("POST", "/api/users", {
      token: a.admin.token,
      body: { ...newUser, email: b.user.email.toUpperCase() },
    });
    assert.equal(res.status, 409);
    assert.equal((await res.json()).error, "ERR_DUPLICATED_EMAIL");
    const upd = await t.request("PUT", `/api/users/${a.user.id}`, {
      token: a.admin.token,
      body: { email: a.admin.email },
    });
    assert.equal(upd.status, 409);
    assert.equal((await upd.json()).error, "ERR_DUPLICATED_EMAIL");
  }));

Deno.test("users create - only admins; super flag only from super users", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const byUser = await t.request("POST", "/api/users", { token: a.user.token, body: newUser });
    assert.equal(byUser.status, 403);
    assert.equal((await byUser.json()).error, "ERR_NO_PERMISSION");
    const superByAdmin = await t.request("POST", "/api/users", {
      token: a.admin.token,
      body: { ...newUser, super: true },
    });
    assert.equal(superByAdmin.status, 403);
    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const bySuper = await t.request("POST", "/api/users", {
      token: root.token,
      body: { ...newUser, super: true, profile: "admin" },
    });
    assert.equal(bySuper.status, 201);
    const created = await bySuper.json();
    assert.equal(created.super, true);
    assert.equal(created.companyId, root.user.companyId);
  }));

Deno.test("users create - userCreation disabled refuses non-super creation with ERR_USER_CREATION_DISABLED", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    await t.deps.db.updateTable("settings").set({ value: "disabled" }).where(
      "key",
      "=",
      "userCreation",
    )
      .execute();
    const res = await t.request("POST", "/api/users", { token: a.admin.token, body: newUser });
    assert.equal(res.status, 403);
    assert.equal((await res.json()).error, "ERR_USER_CREATION_DISABLED");
    const bySuper = await t.request("POST", "/api/users", { token: root.token, body: newUser });
    assert.equal(bySuper.status, 201);
  }));

Deno.test("users create - the plan's user limit is ERR_PLAN_LIMIT", () =>
  withApp(async (t) => {
    const small = await createCompany(t, "Small", { plan: { users: 2 } });
    const res = await t.request("POST", "/api/users", { token: small.admin.token, body: newUser });
    assert.equal(res.status, 403);
    const body = await res.json();
    assert.equal(body.error, "ERR_PLAN_LIMIT");
    assert.match(body.message, /2 usuários/);
    const count = await t.deps.db.selectFrom("users").select((eb) => eb.fn.countAll().as("n"))
      .where("companyId", "=", small.id).executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 2);
  }));

Deno.test("users create - queues and connections of another company look missing", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const bQueue = await queue(t, b.id, "Beta queue", "#2196F3");
    const bConn = await insertWhatsapp(t, b.id);
    const q = await t.request("POST", "/api/users", {
      token: a.admin.token,
      body: { ...newUser, queueIds: [bQueue.id] },
    });
    assert.equal(q.status, 404);
    assert.equal((await q.json()).error, "ERR_NO_QUEUE_FOUND");
    const w = await t.request("POST", "/api/users", {
      token: a.admin.token,
      body: { ...newUser, whatsappId: bConn.id },
    });
    assert.equal(w.status, 404);
    assert.equal((await w.json()).error, "ERR_NO_WAPP_FOUND");
    const upd = await t.request("PUT", `/api/users/${a.user.id}`, {
      token: a.admin.token,
      body: { queueIds: [bQueue.id] },
    });
    assert.equal(upd.status, 404);
    assert.deepEqual(
      await t.deps.db.selectFrom("user_queues").selectAll().where("userId", "=", a.user.id)
        .execute(),
      [],
    );
  }));

Deno.test("users update - a user edits only their own name, email and password", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const sales = await queue(t, a.id, "Vendas", "#F44336");
    await t.deps.db.insertInto("user_queues").values({
      companyId: a.id,
      userId: a.user.id,
      queueId: sales.id,
    }).execute();
    // the profile dialog sends every field; unchanged admin fields are not changes
    const own = await t.request("PUT", `/api/users/${a.user.id}`, {
      token: a.user.token,
      body: {
        name: "New Name",
        email: "new@alpha.test",
        password: "",
        profile: "user",
        queueIds: [sales.id],
        whatsappId: null,
      },
    });
    assert.equal(own.status, 200);
    const body = await own.json();
    assert.equal(body.name, "New Name");
    assert.equal(body.email, "new@alpha.test");
    assert.equal(body.sessionEnded, false);
    for (
      const change of [
        { profile: "admin" },
        { queueIds: [] },
        { allTicket: "enable" },
        { super: true },
      ]
    ) {
      const res = await t.request("PUT", `/api/users/${a.user.id}`, {
        token: a.user.token,
        body: change,
      });
      assert.equal(res.status, 403, JSON.stringify(change));
      assert.equal((await res.json()).error, "ERR_NO_PERMISSION");
    }
    const other = await t.request("PUT", `/api/users/${a.admin.id}`, {
      token: a.user.token,
      body: { name: "Hacked" },
    });
    assert.equal(other.status, 403);
    const row = await t.deps.db.selectFrom("users").selectAll().where("id", "=", a.user.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual([row.profile, row.allTicket, row.super], ["user", "disable", 0]);
    const admin = await t.deps.db.selectFrom("users").select("name").where("id", "=", a.admin.id)
      .executeTakeFirstOrThrow();
    assert.equal(admin.name, "Alpha Admin");
  }));

Deno.test("users update - admins change others' profile and queues, never their own profile", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const sales = await queue(t, a.id, "Vendas", "#F44336");
    const res = await t.request("PUT", `/api/users/${a.user.id}`, {
      token: a.admin.token,
      body: { profile: "admin", queueIds: [sales.id], allTicket: "enable" },
    });
    assert.equal(res.status, 200);
    const user = await res.json();
    assert.equal(user.profile, "admin");
    assert.deepEqual(user.queues.map((q: { id: number }) => q.id), [sales.id]);
    const self = await t.request("PUT", `/api/users/${a.admin.id}`, {
      token: a.admin.token,
      body: { profile: "user" },
    });
    assert.equal(self.status, 403);
    const row = await t.deps.db.selectFrom("users").select("profile").where("id", "=", a.admin.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.profile, "admin");
  }));

Deno.test("users update - a company admin cannot edit or delete a super user", () =>
  withApp(async (t) => {
    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const companyAdmin = await t.request("POST", "/api/users", {
      token: root.token,
      body: { ...newUser, profile: "admin" },
    });
    const other = await companyAdmin.json();
    const session = await login(t, other.email, newUser.password);
    const res = await t.request("PUT", `/api/users/${root.user.id}`, {
      token: session.token,
      body: { password: "taken-over" },
    });
    assert.equal(res.status, 403);
    const del = await t.request("DELETE", `/api/users/${root.user.id}`, { token: session.token });
    assert.equal(del.status, 403);
    await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
  }));

Deno.test("users update - a new password ends that user's sessions; the caller's own change says so", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    await withServedApp(t, async (wsUrl) => {
      const [su] = await sockets(wsUrl, a.user.token);
      const byAdmin = await t.request("PUT", `/api/users/${a.user.id}`, {
        token: a.admin.token,
        body: { password: "changed1" },
      });
      assert.equal(byAdmin.status, 200);
      assert.equal((await byAdmin.json()).sessionEnded, false);
      const ev = await su.next((e) => e.event === `company-${a.id}-auth`);
      assert.deepEqual(ev.data, { action: "sessionEnded", reason: "passwordChanged" });
      await su.closed;
      const old = await t.request("GET", "/api/auth/me", { token: a.user.token });
      assert.equal(old.status, 401);
      const admin = await t.request("GET", "/api/auth/me", { token: a.admin.token });
      assert.equal(admin.status, 200);
    });
    const fresh = await login(t, a.user.email, "changed1");
    const own = await t.request("PUT", `/api/users/${a.user.id}`, {
      token: fresh.token,
      body: { password: "changed2" },
    });
    assert.equal(own.status, 200);
    assert.equal((await own.json()).sessionEnded, true);
    assert.equal((await t.request("GET", "/api/auth/me", { token: fresh.token })).status, 401);
    const refresh = await t.request("POST", "/api/auth/refresh_token", {
      headers: { cookie: fresh.cookie.split(";")[0] },
    });
    assert.equal(refresh.status, 401);
    await login(t, a.user.email, "changed2");
  }));

Deno.test("users delete - releases the user's open tickets to pending and tells the lists", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const open = await insertTicket(t, a.id, { status: "open", userId: a.user.id });
    const closed = await insertTicket(t, a.id, { status: "closed", userId: a.user.id });
    await withServedApp(t, async (wsUrl) => {
      const [sa] = await sockets(wsUrl, a.admin.token);
      sa.send("joinTickets", "pending");
      await sa.settle();
      const self = await t.request("DELETE", `/api/users/${a.admin.id}`, { token: a.admin.token });
      assert.equal(self.status, 403);
      const byUser = await t.request("DELETE", `/api/users/${a.admin.id}`, {
        token: a.user.token,
      });
      assert.equal(byUser.status, 403);
      const res = await t.request("DELETE", `/api/users/${a.user.id}`, { token: a.admin.token });
      assert.equal(res.status, 204);
      const tickets = await t.deps.db.selectFrom("tickets").select(["id", "status", "userId"])
        .orderBy("id").execute();
      assert.deepEqual(tickets, [
        { id: open.id, status: "pending", userId: null },
        { id: closed.id, status: "closed", userId: null },
      ]);
      const ev = await sa.next((e) =>
        e.event === `company-${a.id}-ticket` &&
        (e.data as { ticket?: { id: number } }).ticket?.id === open.id
      );
      const data = ev.data as { action: string; ticket: { status: string; userId: null } };
      assert.equal(data.action, "update");
      assert.equal(data.ticket.status, "pending");
      assert.equal(data.ticket.userId, null);
      const userEv = await sa.next((e) => e.event === `company-${a.id}-user`);
      assert.deepEqual(userEv.data, { action: "delete", id: a.user.id, userId: a.user.id });
    });
    assert.equal(
      await t.deps.db.selectFrom("users").select("id").where("id", "=", a.user.id)
        .executeTakeFirst(),
      undefined,
    );
  }));

Deno.test("users list - pages by name with search; list endpoint for pickers; never secrets", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const page = await (await t.request("GET", "/api/users?pageNumber=1", {
      token: a.user.token,
    })).json();
    assert.equal(page.count, 2);
    assert.equal(page.hasMore, false);
    assert.deepEqual(page.users.map((u: { name: string }) => u.name), [
      "Alpha Admin",
      "Alpha User",
    ]);
    for (const u of page.users) {
      assert.equal("passwordHash" in u, false);
      assert.equal("tokenVersion" in u, false);
    }
    const found = await (await t.request("GET", "/api/users?searchParam=user@", {
      token: a.user.token,
    })).json();
    assert.deepEqual(found.users.map((u: { name: string }) => u.name), ["Alpha User"]);
    const list = await (await t.request("GET", "/api/users/list", { token: a.user.token })).json();
    assert.deepEqual(list.map((u: { name: string }) => u.name), ["Alpha Admin", "Alpha User"]);
    assert.deepEqual(Object.keys(list[0]).sort(), [
      "email",
      "id",
      "name",
      "online",
      "profile",
      "queues",
    ]);
    const one = await (await t.request("GET", `/api/users/${a.admin.id}`, { token: a.user.token }))
      .json();
    assert.equal(one.name, "Alpha Admin");
    assert.equal("passwordHash" in one, false);
  }));

Deno.test("users - company B cannot read, list, change or delete company A's users", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    for (
      const [method, body] of [["GET", undefined], ["PUT", { name: "Hacked" }], [
        "DELETE",
        undefined,
      ]] as const
    ) {
      const res = await t.request(method, `/api/users/${a.user.id}`, {
        token: b.admin.token,
        body,
      });
      assert.equal(res.status, 404, method);
      assert.equal((await res.json()).error, "ERR_NO_USER_FOUND");
    }
    const page = await (await t.request("GET", "/api/users", { token: b.admin.token })).json();
    assert.deepEqual(page.users.map((u: { companyId: number }) => u.companyId), [b.id, b.id]);
    const list = await (await t.request("GET", "/api/users/list?searchParam=Alpha", {
      token: b.admin.token,
    })).json();
    assert.deepEqual(list, []);
    const row = await t.deps.db.selectFrom("users").select("name").where("id", "=", a.user.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.name, "Alpha User");
  }));

Deno.test("users update - new queues reach the user's open sockets (ticket events follow them)", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const sales = await queue(t, a.id, "Vendas", "#F44336");
    const leaving = await createUser(t, a.id, { name: "Leaving", email: "leaving@alpha.test" });
    const ticket = await insertTicket(t, a.id, {
      status: "open",
      userId: leaving.id,
      queueId: sales.id,
    });
    await withServedApp(t, async (wsUrl) => {
      const [su] = await sockets(wsUrl, a.user.token);
      su.send("joinTickets", "pending");
      await su.settle();
      const res = await t.request("PUT", `/api/users/${a.user.id}`, {
        token: a.admin.token,
        body: { queueIds: [sales.id] },
      });
      assert.equal(res.status, 200);
      // the released ticket is pending in Vendas with no user: now visible to a.user
      await t.request("DELETE", `/api/users/${leaving.id}`, { token: a.admin.token });
      const ev = await su.next((e) =>
        e.event === `company-${a.id}-ticket` &&
        (e.data as { ticket?: { id: number } }).ticket?.id === ticket.id
      );
      assert.equal((ev.data as { ticket: { status: string } }).ticket.status, "pending");
    });
  }));
