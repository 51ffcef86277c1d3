import assert from "node:assert/strict";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  cookieValue,
  createCompany,
  login,
  type TestApp,
  withApp,
} from "../helpers/app.ts";
import { addContact, addQueue, addTicket, addUserToQueues } from "../helpers/tickets.ts";

/**
 * Issue 43 item 3: a rule that changes under a live session holds it at its next request and at
 * its next refresh, through the one rule every request and refresh apply (sessionRules of
 * server/auth/service.ts). One test per rule.
 */

type Signed = { token: string; cookie: string };

async function signIn(t: TestApp, email: string, password: string): Promise<Signed> {
  const { token, cookie } = await login(t, email, password);
  return { token, cookie: cookieValue(cookie) };
}

/** POST /auth/refresh_token with the session's cookie; the new pair is kept for the next. */
async function refreshOf(t: TestApp, signed: Signed) {
  const res = await t.request("POST", "/api/auth/refresh_token", {
    headers: { cookie: signed.cookie },
  });
  const body = await res.json();
  if (res.status === 200) {
    signed.token = body.token;
    signed.cookie = cookieValue(res.headers.get("set-cookie") ?? "");
  }
  return { status: res.status, body };
}

async function get(t: TestApp, path: string, token: string) {
  const res = await t.request("GET", path, { token });
  return { status: res.status, body: await res.json() };
}

Deno.test("session rules - a company that starts requiring two-factor holds a session begun before: next request and next refresh reach only the setup", () =>
  withApp(async (t) => {
    const c = await createCompany(t, "Acme");
    const user = await signIn(t, c.user.email, c.user.password);
    assert.equal((await get(t, "/api/tickets", user.token)).status, 200);

    const set = await t.request("PUT", "/api/settings/twoFactorRequired", {
      token: c.admin.token,
      body: { value: "everyone" },
    });
    assert.equal(set.status, 200);
    await set.body?.cancel();

    const refused = await get(t, "/api/tickets", user.token);
    assert.deepEqual([refused.status, refused.body.error], [403, "ERR_TWO_FACTOR_SETUP_REQUIRED"]);
    assert.equal((await get(t, "/api/auth/me", user.token)).body.twoFactor.mustEnable, true);
    // The refresh renews the session as what it now is: a session that must enrol first.
    const renewed = await refreshOf(t, user);
    assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
    assert.equal(renewed.body.user.twoFactor.mustEnable, true);
    const still = await get(t, "/api/tickets", user.token);
    assert.deepEqual([still.status, still.body.error], [403, "ERR_TWO_FACTOR_SETUP_REQUIRED"]);
    // Another company's sessions are not touched by this one's setting.
    const other = await createCompany(t, "Other");
    assert.equal((await get(t, "/api/tickets", other.user.token)).status, 200);
  }));

Deno.test("session rules - the platform starting to require two-factor for super users holds a super user's live session", () =>
  withApp(async (t) => {
    const root = await signIn(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const c = await createCompany(t, "Acme");
    assert.equal((await get(t, "/api/companies", root.token)).status, 200);
    const set = await t.request("PUT", "/api/settings/superTwoFactor", {
      token: root.token,
      body: { value: "enabled" },
    });
    assert.equal(set.status, 200);
    await set.body?.cancel();

    const refused = await get(t, "/api/companies", root.token);
    assert.deepEqual([refused.status, refused.body.error], [403, "ERR_TWO_FACTOR_SETUP_REQUIRED"]);
    const renewed = await refreshOf(t, root);
    assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
    assert.equal(renewed.body.user.twoFactor.mustEnable, true);
    assert.equal((await get(t, "/api/companies", root.token)).status, 403);
    // Company users are not super users: their sessions go on.
    assert.equal((await get(t, "/api/tickets", c.admin.token)).status, 200);
  }));

Deno.test("session rules - a profile change ends the user's session: next request and next refresh refused", () =>
  withApp(async (t) => {
    const c = await createCompany(t, "Acme");
    const user = await signIn(t, c.user.email, c.user.password);
    const changed = await t.request("PUT", `/api/users/${c.user.id}`, {
      token: c.admin.token,
      body: { profile: "admin" },
    });
    assert.equal(changed.status, 200, await changed.clone().text());
    await changed.body?.cancel();
    const refused = await get(t, "/api/tickets", user.token);
    assert.deepEqual([refused.status, refused.body.error], [401, "ERR_SESSION_EXPIRED"]);
    const renewed = await refreshOf(t, user);
    assert.deepEqual([renewed.status, renewed.body.error], [401, "ERR_SESSION_EXPIRED"]);
  }));

Deno.test("session rules - queues changed under a live session: the next request sees by the new queues, the next refresh tells them", () =>
  withApp(async (t) => {
    const c = await createCompany(t, "Acme");
    const sales = await addQueue(t, c.id, "Vendas");
    const support = await addQueue(t, c.id, "Suporte");
    await addUserToQueues(t, c.id, c.user.id, [sales]);
    const contact = await addContact(t, c.id, "Maria", "5511999990001");
    const other = await addContact(t, c.id, "João", "5511999990002");
    const inSales = await addTicket(t, c.id, { contactId: contact, queueId: sales });
    const inSupport = await addTicket(t, c.id, { contactId: other, queueId: support });
    const user = await signIn(t, c.user.email, c.user.password);
    assert.equal((await get(t, `/api/tickets/${inSales.id}`, user.token)).status, 200);
    assert.notEqual((await get(t, `/api/tickets/${inSupport.id}`, user.token)).status, 200);

    const moved = await t.request("PUT", `/api/users/${c.user.id}`, {
      token: c.admin.token,
      body: { queueIds: [support] },
    });
    assert.equal(moved.status, 200, await moved.clone().text());
    await moved.body?.cancel();
    assert.notEqual((await get(t, `/api/tickets/${inSales.id}`, user.token)).status, 200);
    assert.equal((await get(t, `/api/tickets/${inSupport.id}`, user.token)).status, 200);
    const renewed = await refreshOf(t, user);
    assert.equal(renewed.status, 200, JSON.stringify(renewed.body));
    assert.deepEqual(renewed.body.user.queues.map((q: { id: number }) => q.id), [support]);
  }));

Deno.test("session rules - a company switched off refuses its live sessions at the next request and the next refresh", () =>
  withApp(async (t) => {
    const root = await signIn(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const c = await createCompany(t, "Acme");
    const admin = await signIn(t, c.admin.email, c.admin.password);
    const off = await t.request("PUT", `/api/companies/${c.id}`, {
      token: root.token,
      body: { status: false },
    });
    assert.equal(off.status, 200, await off.clone().text());
    await off.body?.cancel();
    const refused = await get(t, "/api/tickets", admin.token);
    assert.deepEqual([refused.status, refused.body.error], [401, "ERR_SUBSCRIPTION_EXPIRED"]);
    const renewed = await refreshOf(t, admin);
    assert.deepEqual([renewed.status, renewed.body.error], [401, "ERR_SUBSCRIPTION_EXPIRED"]);
  }));
