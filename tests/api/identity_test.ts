import assert from "node:assert/strict";
import { hashPassword } from "../../server/auth/passwords.ts";
import { signAccessToken } from "../../server/auth/tokens.ts";
import {
  cookieValue,
  createCompany,
  login,
  type TestApp,
  type TestCompany,
  withApp,
} from "../helpers/app.ts";

/**
 * Issue 19: a deleted user's token must never become someone else's. The five steps: V logs in
 * and keeps its tokens; the admin deletes V; the admin creates W; W logs in; V's access token and
 * refresh cookie are refused. On main before the fix W got V's id, V's token carried the same
 * company, user id and token version as W's, and answered 200 as W.
 */

async function createByAdmin(t: TestApp, a: TestCompany, name: string, profile = "admin") {
  const res = await t.request("POST", "/api/users", {
    token: a.admin.token,
    body: { name, email: `${name.toLowerCase()}@alpha.test`, password: "secret1", profile },
  });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as { id: number; email: string };
}

async function refreshWith(t: TestApp, setCookie: string) {
  return await t.request("POST", "/api/auth/refresh_token", {
    headers: { cookie: cookieValue(setCookie) },
  });
}

Deno.test("identity - a deleted user's access token and refresh cookie never pass as the next user", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    // 1. V is created and logs in, keeping its access token and refresh cookie.
    const v = await createByAdmin(t, a, "Vera");
    const vSession = await login(t, v.email, "secret1");
    assert.equal((await t.request("GET", "/api/tickets", { token: vSession.token })).status, 200);
    // 2. The admin deletes V.
    const del = await t.request("DELETE", `/api/users/${v.id}`, { token: a.admin.token });
    assert.equal(del.status, 204);
    // 3. The admin creates W, an admin.
    const w = await createByAdmin(t, a, "Wagner");
    // 4. W logs in once.
    const wSession = await login(t, w.email, "secret1");
    // 5. V's tokens are refused; W's work.
    const asV = await t.request("GET", "/api/tickets", { token: vSession.token });
    assert.equal(asV.status, 401);
    assert.equal((await t.request("GET", "/api/users", { token: vSession.token })).status, 401);
    assert.equal((await refreshWith(t, vSession.cookie)).status, 401);
    assert.equal((await t.request("GET", "/api/tickets", { token: wSession.token })).status, 200);
    // W got a new id, never V's (on main before the fix it got V's, and step 5 answered 200).
    assert.ok(w.id > v.id);
  }));

Deno.test("identity - even if an id came back, a token only works for the session it was issued for", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const v = await createByAdmin(t, a, "Vera");
    const vSession = await login(t, v.email, "secret1");
    assert.equal(
      (await t.request("DELETE", `/api/users/${v.id}`, { token: a.admin.token })).status,
      204,
    );
    // A row with V's id again (as a database restored from a backup, or an id freed before
    // migration 0050, could give): same company, same id, same token version after one login.
    const stamp = t.clock.now().toISOString();
    await t.deps.db.insertInto("users").values({
      id: v.id,
      companyId: a.id,
      name: "Wagner",
      email: "wagner@alpha.test",
      passwordHash: await hashPassword("secret1", 4),
      profile: "admin",
      whatsappId: null,
      lastSeenAt: null,
      createdAt: stamp,
      updatedAt: stamp,
    }).execute();
    const wSession = await login(t, "wagner@alpha.test", "secret1");
    assert.equal(wSession.user.id, v.id);
    const asV = await t.request("GET", "/api/tickets", { token: vSession.token });
    assert.equal(asV.status, 401);
    assert.equal((await asV.json()).error, "ERR_SESSION_EXPIRED");
    assert.equal((await refreshWith(t, vSession.cookie)).status, 401);
    const me = await t.request("GET", "/api/auth/me", { token: wSession.token });
    assert.equal(me.status, 200);
    assert.equal((await me.json()).email, "wagner@alpha.test");
  }));

Deno.test("identity - sessions: a login starts one, a logout or a password change ends it with its tokens", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const first = await login(t, a.user.email, a.user.password);
    const rows = () =>
      t.deps.db.selectFrom("sessions").select(["userId", "endedAt", "endReason"])
        .where("userId", "=", a.user.id).orderBy("id").execute();
    // createCompany logged the user in once already: that session ended with this login.
    assert.deepEqual((await rows()).map((r) => r.endReason), ["newLogin", null]);
    // A refresh keeps the session: the new tokens carry the same one.
    const refreshed = await refreshWith(t, first.cookie);
    assert.equal(refreshed.status, 200);
    const { token } = await refreshed.json();
    assert.equal((await t.request("GET", "/api/tickets", { token })).status, 200);
    assert.equal((await rows()).length, 2);
    // Logout ends it: the access token and the refreshed one are refused at once.
    const out = await t.request("DELETE", "/api/auth/logout", { token });
    assert.ok(out.status < 300);
    assert.equal((await t.request("GET", "/api/tickets", { token })).status, 401);
    assert.equal((await t.request("GET", "/api/tickets", { token: first.token })).status, 401);
    assert.deepEqual((await rows()).map((r) => r.endReason), ["newLogin", "logout"]);
    // A password changed by an admin ends the new session too.
    const second = await login(t, a.user.email, a.user.password);
    const put = await t.request("PUT", `/api/users/${a.user.id}`, {
      token: a.admin.token,
      body: { password: "another1" },
    });
    assert.equal(put.status, 200);
    assert.equal((await t.request("GET", "/api/tickets", { token: second.token })).status, 401);
    assert.equal((await refreshWith(t, second.cookie)).status, 401);
    assert.equal((await rows()).at(-1)?.endReason, "passwordChanged");
    // An admin changing the profile ends the session too: the old token carried the old rights.
    const third = await login(t, a.user.email, "another1");
    const promoted = await t.request("PUT", `/api/users/${a.user.id}`, {
      token: a.admin.token,
      body: { profile: "admin" },
    });
    assert.equal(promoted.status, 200);
    assert.equal((await t.request("GET", "/api/tickets", { token: third.token })).status, 401);
    assert.equal((await rows()).at(-1)?.endReason, "profileChanged");
  }));

Deno.test("identity - a signed token is refused unless its session is its own user's live one", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const sessions = await t.deps.db.selectFrom("sessions").select(["userId", "publicId"])
      .where("endedAt", "is", null).execute();
    const own = sessions.find((s) => s.userId === a.user.id)!.publicId;
    const admins = sessions.find((s) => s.userId === a.admin.id)!.publicId;
    const user = await t.deps.db.selectFrom("users").select("tokenVersion")
      .where("id", "=", a.user.id).executeTakeFirstOrThrow();
    // Signed with the server's own secret: only the session check tells these apart.
    const sign = (sessionId: string) =>
      signAccessToken(
        { userId: a.user.id, companyId: a.id, tokenVersion: user.tokenVersion, sessionId },
        t.deps.secrets.access,
        60,
        t.clock.now(),
      );
    const get = async (sessionId: string) =>
      (await t.request("GET", "/api/tickets", { token: await sign(sessionId) })).status;
    assert.equal(await get(own), 200);
    assert.equal(await get(admins), 401);
    assert.equal(await get("a-guessed-session-id"), 401);
    assert.ok(own.length >= 32);
  }));
