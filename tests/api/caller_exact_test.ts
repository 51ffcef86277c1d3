import assert from "node:assert/strict";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createCompany,
  createUser,
  login,
  withApp,
} from "../helpers/app.ts";
import { addContact, addQueue, addTicket, addUserToQueues } from "../helpers/tickets.ts";

/**
 * Issue 33: every request reads its caller in one statement (server/auth/repository.ts
 * findCaller) instead of five, and caches nothing: a deleted user, an ended session, a changed
 * plan and changed queues count on the very next request with the same token.
 */

Deno.test("caller - a deleted user is refused on the next request", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const v = await createUser(t, a.id, { name: "Vera", email: "vera@alpha.test" });
    assert.equal((await t.request("GET", "/api/tickets", { token: v.token })).status, 200);
    const del = await t.request("DELETE", `/api/users/${v.id}`, { token: a.admin.token });
    assert.equal(del.status, 204);
    const after = await t.request("GET", "/api/tickets", { token: v.token });
    assert.equal(after.status, 401);
    assert.equal((await after.json()).error, "ERR_UNAUTHORIZED");
  }));

Deno.test("caller - an ended session (logout, a newer login) is refused on the next request", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const first = await login(t, a.admin.email, a.admin.password);
    assert.equal((await t.request("GET", "/api/tickets", { token: first.token })).status, 200);
    // A newer login ends the first session.
    const second = await login(t, a.admin.email, a.admin.password);
    const ended = await t.request("GET", "/api/tickets", { token: first.token });
    assert.equal(ended.status, 401);
    assert.equal((await ended.json()).error, "ERR_SESSION_EXPIRED");
    assert.equal((await t.request("GET", "/api/tickets", { token: second.token })).status, 200);
    // A logout ends the second.
    const out = await t.request("DELETE", "/api/auth/logout", { token: second.token });
    assert.ok(out.status < 300, String(out.status));
    const afterLogout = await t.request("GET", "/api/tickets", { token: second.token });
    assert.equal(afterLogout.status, 401);
    assert.equal((await afterLogout.json()).error, "ERR_SESSION_EXPIRED");
  }));

Deno.test("caller - a changed plan counts on the next request, both ways", () =>
  withApp(async (t) => {
    const root = (await login(t, ADMIN_EMAIL, ADMIN_PASSWORD)).token;
    const a = await createCompany(t, "Alpha");
    const created = await t.request("POST", "/api/plans", {
      token: root,
      body: { name: "Sem agenda", useSchedules: false },
    });
    const plan = await created.json();
    assert.equal((await t.request("GET", "/api/schedules", { token: a.admin.token })).status, 200);
    const moved = await t.request("PUT", `/api/companies/${a.id}`, {
      token: root,
      body: { planId: plan.id },
    });
    assert.equal(moved.status, 200);
    const refused = await t.request("GET", "/api/schedules", { token: a.admin.token });
    assert.equal(refused.status, 403);
    assert.equal((await refused.json()).error, "ERR_PLAN_FEATURE_DISABLED");
    // The plan itself edited: the flag back on, the same token passes at once.
    const edited = await t.request("PUT", `/api/plans/${plan.id}`, {
      token: root,
      body: { useSchedules: true },
    });
    assert.equal(edited.status, 200);
    assert.equal((await t.request("GET", "/api/schedules", { token: a.admin.token })).status, 200);
  }));

Deno.test("caller - the user's queues as they are now decide what the next list shows", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const queueId = await addQueue(t, a.id, "Vendas");
    const u = await createUser(t, a.id, { name: "Ugo", email: "ugo@alpha.test" });
    const contactId = await addContact(t, a.id, "Cliente", "5511987650001");
    const ticketId = (await addTicket(t, a.id, { contactId, queueId, status: "pending" })).id;
    const pendingIds = async () => {
      const res = await t.request("GET", "/api/tickets?status=pending", { token: u.token });
      assert.equal(res.status, 200);
      return ((await res.json()).tickets as { id: number }[]).map((x) => x.id);
    };
    assert.deepEqual(await pendingIds(), []);
    await addUserToQueues(t, a.id, u.id, [queueId]);
    assert.deepEqual(await pendingIds(), [ticketId]);
    await t.deps.db.deleteFrom("user_queues").where("companyId", "=", a.id)
      .where("userId", "=", u.id).execute();
    assert.deepEqual(await pendingIds(), []);
  }));
