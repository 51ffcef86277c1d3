import assert from "node:assert/strict";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  cookieValue,
  createCompany,
  login,
  withApp,
} from "../helpers/app.ts";
import { REFRESH_REUSE_GRACE_MS } from "../../server/auth/service.ts";

Deno.test("auth login - answers a token and the user with company, settings and plan", () =>
  withApp(async (t) => {
    const res = await t.request("POST", "/api/auth/login", {
      body: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(typeof body.token, "string");
    assert.equal(body.user.email, ADMIN_EMAIL);
    assert.equal(body.user.super, true);
    assert.equal(body.user.profile, "admin");
    assert.equal(body.user.company.name, "Empresa 1");
    assert.ok(
      body.user.company.settings.some((s: { key: string }) => s.key === "sendGreetingAccepted"),
    );
    assert.equal(body.user.company.plan.useKanban, true);
    const cookie = res.headers.get("set-cookie") ?? "";
    assert.match(cookie, /^jrt=/);
    assert.match(cookie, /HttpOnly/);
    assert.match(cookie, /SameSite=Strict/);
  }));

Deno.test("auth login - wrong password is 401 ERR_INVALID_CREDENTIALS", () =>
  withApp(async (t) => {
    const res = await t.request("POST", "/api/auth/login", {
      body: { email: ADMIN_EMAIL, password: "nope-nope" },
    });
    assert.equal(res.status, 401);
    assert.deepEqual(await res.json(), {
      error: "ERR_INVALID_CREDENTIALS",
      message: "Invalid email or password",
    });
  }));

Deno.test("auth login - a plain user is refused after the company's due date, with the date in the message", () =>
  withApp(async (t) => {
    const c = await createCompany(t, "Late");
    await t.deps.db.updateTable("companies").set({ dueDate: "2026-11-01" }).where("id", "=", c.id)
      .execute();
    const res = await t.request("POST", "/api/auth/login", {
      body: { email: c.user.email, password: c.user.password },
    });
    assert.equal(res.status, 401);
    const body = await res.json();
    assert.equal(body.error, "ERR_SUBSCRIPTION_EXPIRED");
    assert.match(body.message, /01\/11\/2026/);
    // an existing token of that company stops working too
    const me = await t.request("GET", "/api/auth/me", { token: c.user.token });
    assert.equal(me.status, 401);
    // Its admin may only pay (issue 29; tests/api/billing_session_test.ts).
    const admin = await t.request("GET", "/api/tickets", { token: c.admin.token });
    assert.equal(admin.status, 403);
    assert.equal((await admin.json()).error, "ERR_SUBSCRIPTION_OVERDUE");
  }));

Deno.test("auth login - failures limited per email and per address with 429 ERR_RATE_LIMITED", () =>
  withApp(async (t) => {
    const attempt = (email: string, password: string) =>
      t.request("POST", "/api/auth/login", { body: { email, password } });
    for (let i = 0; i < 3; i++) {
      const r = await attempt("x@y.test", "wrong");
      assert.equal(r.status, 401);
      await r.body?.cancel();
    }
    const limited = await attempt("x@y.test", "wrong");
    assert.equal(limited.status, 429);
    assert.equal((await limited.json()).error, "ERR_RATE_LIMITED");
    assert.ok(Number(limited.headers.get("retry-after")) > 0);
    // Another account from the same address still logs in (a success counts nowhere)...
    assert.equal((await login(t, ADMIN_EMAIL, ADMIN_PASSWORD)).user.email, ADMIN_EMAIL);
    // ...until the address's own failures reach LOGIN_MAX_ATTEMPTS_PER_ADDRESS, whatever email.
    for (const email of ["a@y.test", "b@y.test"]) {
      const r = await attempt(email, "wrong");
      assert.equal(r.status, 401);
      await r.body?.cancel();
    }
    const other = await attempt(ADMIN_EMAIL, ADMIN_PASSWORD);
    assert.equal(other.status, 429);
    assert.equal((await other.json()).error, "ERR_RATE_LIMITED");
  }, { LOGIN_MAX_ATTEMPTS: "3", LOGIN_MAX_ATTEMPTS_PER_ADDRESS: "5" }));

Deno.test("auth refresh_token - rotates the cookie; the old one is refused and ends the family", () =>
  withApp(async (t) => {
    const first = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const r1 = await t.request("POST", "/api/auth/refresh_token", {
      headers: { cookie: cookieValue(first.cookie) },
    });
    assert.equal(r1.status, 200);
    const b1 = await r1.json();
    assert.equal(typeof b1.token, "string");
    assert.equal(b1.user.email, ADMIN_EMAIL);
    const second = r1.headers.get("set-cookie") ?? "";
    assert.notEqual(cookieValue(second), cookieValue(first.cookie));
    // Past the grace window, replaying the first cookie is refused...
    t.clock.advance(REFRESH_REUSE_GRACE_MS + 1000);
    const replay = await t.request("POST", "/api/auth/refresh_token", {
      headers: { cookie: cookieValue(first.cookie) },
    });
    assert.equal(replay.status, 401);
    assert.equal((await replay.json()).error, "ERR_SESSION_EXPIRED");
    // ...and revokes the rotated one as well (a copied token means the family is compromised)
    const after = await t.request("POST", "/api/auth/refresh_token", {
      headers: { cookie: cookieValue(second) },
    });
    assert.equal(after.status, 401);
  }));

Deno.test("auth refresh_token - a cookie rotated moments ago still works (the page left mid-refresh), not after a logout", () =>
  withApp(async (t) => {
    const first = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const cookie = { cookie: cookieValue(first.cookie) };
    const r1 = await t.request("POST", "/api/auth/refresh_token", { headers: cookie });
    assert.equal(r1.status, 200);
    // The browser never stored r1's cookie: the next page presents the old one again.
    t.clock.advance(REFRESH_REUSE_GRACE_MS - 5000);
    const r2 = await t.request("POST", "/api/auth/refresh_token", { headers: cookie });
    assert.equal(r2.status, 200);
    const latest = { cookie: cookieValue(r2.headers.get("set-cookie") ?? "") };
    assert.equal(
      (await t.request("POST", "/api/auth/refresh_token", { headers: latest })).status,
      200,
    );

    // A logout ends it even inside the window.
    const again = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const fresh = { cookie: cookieValue(again.cookie) };
    const r3 = await t.request("POST", "/api/auth/refresh_token", { headers: fresh });
    const token = (await r3.json()).token;
    const out = await t.request("DELETE", "/api/auth/logout", {
      token,
      headers: { cookie: cookieValue(r3.headers.get("set-cookie") ?? "") },
    });
    assert.ok(out.status < 300, String(out.status));
    const replay = await t.request("POST", "/api/auth/refresh_token", { headers: fresh });
    assert.equal(replay.status, 401);
  }));

Deno.test("auth refresh_token - without a cookie is 401", () =>
  withApp(async (t) => {
    const res = await t.request("POST", "/api/auth/refresh_token");
    assert.equal(res.status, 401);
    assert.equal((await res.json()).error, "ERR_SESSION_EXPIRED");
  }));

Deno.test("auth logout - revokes refresh tokens and the access token", () =>
  withApp(async (t) => {
    const s = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const out = await t.request("DELETE", "/api/auth/logout", { token: s.token });
    assert.equal(out.status, 204);
    const r = await t.request("POST", "/api/auth/refresh_token", {
      headers: { cookie: cookieValue(s.cookie) },
    });
    assert.equal(r.status, 401);
    const me = await t.request("GET", "/api/auth/me", { token: s.token });
    assert.equal(me.status, 401);
    const rows = await t.deps.db.selectFrom("refresh_tokens").select("revokedAt").execute();
    assert.ok(rows.every((row) => row.revokedAt !== null));
  }));

Deno.test("auth me - a second login ends the first session", () =>
  withApp(async (t) => {
    const first = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const second = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const old = await t.request("GET", "/api/auth/me", { token: first.token });
    assert.equal(old.status, 401);
    assert.equal((await old.json()).error, "ERR_SESSION_EXPIRED");
    const current = await t.request("GET", "/api/auth/me", { token: second.token });
    assert.equal(current.status, 200);
    assert.equal((await current.json()).email, ADMIN_EMAIL);
  }));

Deno.test("auth me - expired access token is 403 ERR_SESSION_EXPIRED (refresh and retry)", () =>
  withApp(async (t) => {
    const s = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    // Used once first: a token the process has already checked expires all the same (issue 49).
    assert.equal((await t.request("GET", "/api/auth/me", { token: s.token })).status, 200);
    t.clock.advance(16 * 60 * 1000);
    const res = await t.request("GET", "/api/auth/me", { token: s.token });
    assert.equal(res.status, 403);
    assert.equal((await res.json()).error, "ERR_SESSION_EXPIRED");
  }));

Deno.test("auth me - forged, malformed and missing tokens are 401; a deleted user's token too", () =>
  withApp(async (t) => {
    const c = await createCompany(t, "Gamma");
    const [header, payload] = c.user.token.split(".");
    const forged = `${header}.${payload}.${"A".repeat(43)}`;
    for (const token of [forged, "not-a-jwt", undefined]) {
      const res = await t.request("GET", "/api/auth/me", { token });
      assert.equal(res.status, 401, `token ${token}`);
      assert.ok(["ERR_UNAUTHORIZED", "ERR_SESSION_EXPIRED"].includes((await res.json()).error));
    }
    await t.deps.db.deleteFrom("users").where("id", "=", c.user.id).execute();
    const gone = await t.request("GET", "/api/auth/me", { token: c.user.token });
    assert.equal(gone.status, 401);
    assert.equal((await gone.json()).error, "ERR_UNAUTHORIZED");
  }));

Deno.test("api errors - malformed JSON, wrong types, oversized bodies and unknown routes", () =>
  withApp(async (t) => {
    const malformed = await t.request("POST", "/api/auth/login", {
      body: "{not json",
      headers: { "content-type": "application/json" },
    });
    assert.equal(malformed.status, 400);
    assert.equal((await malformed.json()).error, "ERR_VALIDATION");

    const wrongType = await t.request("POST", "/api/auth/login", {
      body: { email: 42, password: [] },
    });
    assert.equal(wrongType.status, 400);
    const wt = await wrongType.json();
    assert.equal(wt.error, "ERR_VALIDATION");
    assert.ok(wt.fields.email && wt.fields.password);

    const big = await t.request("POST", "/api/auth/login", {
      body: { email: "a@b.c", password: "x".repeat(5000) },
    });
    assert.equal(big.status, 413);
    assert.equal((await big.json()).error, "ERR_BODY_TOO_LARGE");

    const unknown = await t.request("GET", "/api/does-not-exist");
    assert.equal(unknown.status, 404);
    assert.deepEqual(await unknown.json(), { error: "ERR_NOT_FOUND", message: "Route not found" });
  }, { BODY_LIMIT_BYTES: "2048" }));
