import assert from "node:assert/strict";
import {
  cookieValue,
  createCompany,
  createTestApp,
  login,
  type TestApp,
  withApp,
} from "../helpers/app.ts";
import { serve, TestSocket } from "../helpers/server.ts";

/** Issue 30 item 2: sessions a user sees and ends; admins for their company. */

type Listed = {
  sessions: { id: number; current: boolean; userId: number; ip: string; userAgent: string }[];
};

async function sessions(t: TestApp, token: string, scope = "own"): Promise<Listed> {
  const res = await t.request("GET", `/api/sessions?scope=${scope}`, { token });
  assert.equal(res.status, 200);
  return await res.json();
}

async function allowSeveral(t: TestApp, adminToken: string) {
  const res = await t.request("PUT", "/api/settings/multipleSessions", {
    token: adminToken,
    body: { value: "enabled" },
  });
  assert.equal(res.status, 200);
}

async function loginFrom(t: TestApp, email: string, password: string, agent: string, addr: string) {
  const res = await t.request("POST", "/api/auth/login", {
    body: { email, password },
    headers: { "user-agent": agent },
    remoteAddr: addr,
  });
  assert.equal(res.status, 200);
  return (await res.json()).token as string;
}

Deno.test("sessions - one session per user by default: a new login ends the other", () =>
  withApp(async (t) => {
    const c = await createCompany(t, "Acme");
    const phone = await loginFrom(t, c.user.email, c.user.password, "Phone", "203.0.113.7");
    const me = await t.request("GET", "/api/auth/me", { token: c.user.token });
    assert.equal(me.status, 401);
    await me.body?.cancel();
    const listed = await sessions(t, phone);
    assert.equal(listed.sessions.length, 1);
    assert.equal(listed.sessions[0].current, true);
    assert.equal(listed.sessions[0].userAgent, "Phone");
    assert.equal(listed.sessions[0].ip, "203.0.113.7");
  }));

Deno.test("sessions - with several allowed, a user lists theirs and ends one; its sockets close at once", async () => {
  const t = await createTestApp();
  const s = serve(t);
  try {
    const c = await createCompany(t, "Acme");
    await allowSeveral(t, c.admin.token);
    const laptop = await loginFrom(t, c.user.email, c.user.password, "Laptop", "203.0.113.1");
    const phone = await loginFrom(t, c.user.email, c.user.password, "Phone", "203.0.113.2");
    const phoneSocket = await TestSocket.connect(s.wsUrl, phone, "message");
    const laptopSocket = await TestSocket.connect(s.wsUrl, laptop, "message");

    const listed = await sessions(t, laptop);
    // The helper's own login and the two above: all live.
    assert.equal(listed.sessions.length, 3);
    const phoneRow = listed.sessions.find((x) => x.userAgent === "Phone")!;
    assert.equal(listed.sessions.find((x) => x.current)?.userAgent, "Laptop");

    const ended = await t.request("DELETE", `/api/sessions/${phoneRow.id}`, { token: laptop });
    assert.equal(ended.status, 204);
    const told = await phoneSocket.next((e) => e.event === "company-" + c.id + "-auth");
    assert.deepEqual(told.data, { action: "sessionEnded", reason: "endedByUser" });
    assert.equal((await phoneSocket.closed).code, 4001);
    const refused = await t.request("GET", "/api/auth/me", { token: phone });
    assert.equal(refused.status, 401);
    await refused.body?.cancel();

    // The other session goes on and heard nothing.
    await laptopSocket.settle();
    assert.deepEqual(laptopSocket.named(`company-${c.id}-auth`), []);
    const still = await t.request("GET", "/api/auth/me", { token: laptop });
    assert.equal(still.status, 200);
    await still.body?.cancel();
    assert.equal((await sessions(t, laptop)).sessions.length, 2);

    const again = await t.request("DELETE", `/api/sessions/${phoneRow.id}`, { token: laptop });
    assert.equal(again.status, 404);
    assert.equal((await again.json()).error, "ERR_NO_SESSION_FOUND");
    const audit = await t.deps.db.selectFrom("audit_logs").selectAll().where("companyId", "=", c.id)
      .where("action", "=", "session.ended").execute();
    assert.equal(audit.length, 1);
    assert.equal(audit[0].entityId, String(phoneRow.id));
    await laptopSocket.close();
  } finally {
    t.deps.hub.closeAll();
    await s.close();
    await t.close();
  }
});

Deno.test("sessions - a session ended from another device says so to its token and its refresh cookie; the device that ended it keeps going (issue 50 item 14)", () =>
  withApp(async (t) => {
    const c = await createCompany(t, "Acme");
    await allowSeveral(t, c.admin.token);
    const laptop = await login(t, c.user.email, c.user.password);
    const phone = await login(t, c.user.email, c.user.password);
    const phoneRow = (await sessions(t, phone.token)).sessions.find((x) => x.current)!;
    const ended = await t.request("DELETE", `/api/sessions/${phoneRow.id}`, {
      token: laptop.token,
    });
    assert.equal(ended.status, 204);

    const me = await t.request("GET", "/api/auth/me", { token: phone.token });
    assert.equal(me.status, 401);
    const body = await me.json();
    assert.equal(body.error, "ERR_SESSION_ENDED_ELSEWHERE");
    assert.equal(body.message, "Esta sessão foi encerrada em outro dispositivo");
    const refreshed = await t.request("POST", "/api/auth/refresh_token", {
      headers: { cookie: cookieValue(phone.cookie) },
    });
    assert.equal(refreshed.status, 401);
    assert.equal((await refreshed.json()).error, "ERR_SESSION_ENDED_ELSEWHERE");
    // Its revoked cookie is not taken for a stolen one: the laptop's session lives on.
    const still = await t.request("GET", "/api/auth/me", { token: laptop.token });
    assert.equal(still.status, 200);
    await still.body?.cancel();
    const laptopRefresh = await t.request("POST", "/api/auth/refresh_token", {
      headers: { cookie: cookieValue(laptop.cookie) },
    });
    assert.equal(laptopRefresh.status, 200);
    await laptopRefresh.body?.cancel();

    // A plain logout is still the plain expired session.
    const out = await t.request("DELETE", "/api/auth/logout", { token: laptop.token });
    await out.body?.cancel();
    const after = await t.request("GET", "/api/auth/me", { token: laptop.token });
    assert.equal(after.status, 401);
    assert.equal((await after.json()).error, "ERR_SESSION_EXPIRED");
  }));

Deno.test("sessions - admins see and end their company's sessions; users and other companies cannot", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const b = await createCompany(t, "Beta");
    const userSession = (await sessions(t, a.user.token)).sessions[0];

    const byUser = await t.request("GET", "/api/sessions?scope=company", { token: a.user.token });
    assert.equal(byUser.status, 403);
    assert.equal((await byUser.json()).error, "ERR_NO_PERMISSION");
    const endByUser = await t.request(
      "DELETE",
      `/api/sessions/${(await sessions(t, a.admin.token)).sessions[0].id}`,
      {
        token: a.user.token,
      },
    );
    assert.equal(endByUser.status, 403);
    await endByUser.body?.cancel();

    const company = await sessions(t, a.admin.token, "company");
    assert.deepEqual(company.sessions.map((x) => x.userId).sort(), [a.admin.id, a.user.id].sort());
    const otherCompany = await t.request("DELETE", `/api/sessions/${userSession.id}`, {
      token: b.admin.token,
    });
    assert.equal(otherCompany.status, 404);
    await otherCompany.body?.cancel();
    assert.ok(
      !(await sessions(t, b.admin.token, "company")).sessions.some((x) => x.id === userSession.id),
    );

    const ended = await t.request("DELETE", `/api/sessions/${userSession.id}`, {
      token: a.admin.token,
    });
    assert.equal(ended.status, 204);
    const refused = await t.request("GET", "/api/auth/me", { token: a.user.token });
    assert.equal(refused.status, 401);
    await refused.body?.cancel();
    const row = await t.deps.db.selectFrom("sessions").select("endReason").where(
      "companyId",
      "=",
      a.id,
    )
      .where("id", "=", userSession.id).executeTakeFirstOrThrow();
    assert.equal(row.endReason, "endedByAdmin");
    // The user logs in again.
    assert.equal(typeof (await login(t, a.user.email, a.user.password)).token, "string");
  }));

Deno.test("sessions - with several allowed, a logout ends only its own session", () =>
  withApp(async (t) => {
    const c = await createCompany(t, "Acme");
    await allowSeveral(t, c.admin.token);
    const laptop = await loginFrom(t, c.user.email, c.user.password, "Laptop", "203.0.113.1");
    const phone = await loginFrom(t, c.user.email, c.user.password, "Phone", "203.0.113.2");
    const out = await t.request("DELETE", "/api/auth/logout", { token: phone });
    assert.equal(out.status, 204);
    const gone = await t.request("GET", "/api/auth/me", { token: phone });
    assert.equal(gone.status, 401);
    await gone.body?.cancel();
    const still = await sessions(t, laptop);
    assert.ok(still.sessions.some((x) => x.current));
    assert.ok(!still.sessions.some((x) => x.userAgent === "Phone"));
  }));
