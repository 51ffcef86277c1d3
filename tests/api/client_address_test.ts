import assert from "node:assert/strict";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createCompany,
  type TestApp,
  withApp,
} from "../helpers/app.ts";
import { clientAddress } from "../../server/http/client_address.ts";
import { parseIpRange } from "../../server/http/ip_address.ts";
import { loadConfig } from "../../server/config.ts";

/** The documented reverse proxy (Caddy, nginx) on the same machine. */
const PROXY = "127.0.0.1";

/** A login as it reaches the app from `peer`, with the X-Forwarded-For it carries. */
async function loginFrom(
  t: TestApp,
  peer: string,
  forwardedFor: string | undefined,
  email: string,
  password: string,
): Promise<number> {
  const res = await t.request("POST", "/api/auth/login", {
    body: { email, password },
    remoteAddr: peer,
    headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {},
  });
  await res.body?.cancel();
  return res.status;
}

Deno.test("rate limits - behind the trusted proxy, successful logins lock nobody out", () =>
  withApp(async (t) => {
    const c = await createCompany(t, "Proxy");
    // Everyone reaches the app from the proxy's address; ten logins succeed one after another.
    for (let i = 0; i < 10; i++) {
      assert.equal(await loginFrom(t, PROXY, `203.0.113.${i}`, ADMIN_EMAIL, ADMIN_PASSWORD), 200);
    }
    for (let i = 0; i < 10; i++) {
      assert.equal(await loginFrom(t, PROXY, undefined, c.user.email, c.user.password), 200);
    }
    assert.equal(await loginFrom(t, PROXY, "203.0.113.99", c.admin.email, c.admin.password), 200);
  }, { TRUSTED_PROXIES: PROXY, LOGIN_MAX_ATTEMPTS: "3", LOGIN_MAX_ATTEMPTS_PER_ADDRESS: "3" }));

Deno.test("rate limits - failures for one account lock that account, not another account or another client", () =>
  withApp(async (t) => {
    const c = await createCompany(t, "Contas");
    for (let i = 0; i < 3; i++) {
      assert.equal(await loginFrom(t, PROXY, "203.0.113.7", c.user.email, "wrong"), 401);
    }
    // The account is locked now, even with its password and from elsewhere...
    assert.equal(await loginFrom(t, PROXY, "198.51.100.1", c.user.email, c.user.password), 429);
    // ...and another account logs in, from the same client and through the same proxy.
    assert.equal(await loginFrom(t, PROXY, "203.0.113.7", c.admin.email, c.admin.password), 200);

    // One client's failures over many accounts lock that client's address, not the others'.
    for (let i = 0; i < 5; i++) {
      assert.equal(await loginFrom(t, PROXY, "203.0.113.66", `n${i}@x.test`, "wrong"), 401);
    }
    assert.equal(await loginFrom(t, PROXY, "203.0.113.66", ADMIN_EMAIL, ADMIN_PASSWORD), 429);
    assert.equal(await loginFrom(t, PROXY, "203.0.113.67", ADMIN_EMAIL, ADMIN_PASSWORD), 200);
  }, { TRUSTED_PROXIES: PROXY, LOGIN_MAX_ATTEMPTS: "3", LOGIN_MAX_ATTEMPTS_PER_ADDRESS: "5" }));

Deno.test("rate limits - X-Forwarded-For from a peer that is not a trusted proxy is ignored", () =>
  withApp(async (t) => {
    // A client talking to the app directly invents a new address for every attempt.
    for (let i = 0; i < 3; i++) {
      assert.equal(await loginFrom(t, "198.51.100.9", `192.0.2.${i}`, `s${i}@x.test`, "x"), 401);
    }
    assert.equal(
      await loginFrom(t, "198.51.100.9", "192.0.2.200", ADMIN_EMAIL, ADMIN_PASSWORD),
      429,
    );
    // Through the trusted proxy, what the client wrote to the left of the proxy's entry is ignored.
    for (let i = 0; i < 3; i++) {
      const chain = `192.0.2.${i}, 203.0.113.50`;
      assert.equal(await loginFrom(t, PROXY, chain, `p${i}@x.test`, "x"), 401);
    }
    assert.equal(
      await loginFrom(t, PROXY, "192.0.2.9, 203.0.113.50", ADMIN_EMAIL, ADMIN_PASSWORD),
      429,
    );
    assert.equal(await loginFrom(t, PROXY, "203.0.113.51", ADMIN_EMAIL, ADMIN_PASSWORD), 200);
  }, { TRUSTED_PROXIES: PROXY, LOGIN_MAX_ATTEMPTS_PER_ADDRESS: "3" }));

Deno.test("rate limits - signup and password recovery count each client behind the proxy on its own", () =>
  withApp(async (t) => {
    const plan = await t.deps.db.selectFrom("plans").select("id").executeTakeFirstOrThrow();
    for (const [i, client] of ["203.0.113.1", "203.0.113.2"].entries()) {
      const res = await t.request("POST", "/api/companies/cadastro", {
        remoteAddr: PROXY,
        headers: { "x-forwarded-for": client },
        body: {
          name: `Dona ${i}`,
          companyName: `Loja ${i}`,
          email: `dona${i}@loja.test`,
          password: "segredo1",
          planId: plan.id,
        },
      });
      assert.equal(res.status, 201, await res.text());
    }
    const again = await t.request("POST", "/api/companies/cadastro", {
      remoteAddr: PROXY,
      headers: { "x-forwarded-for": "203.0.113.1" },
      body: {},
    });
    assert.equal(again.status, 429);
    await again.body?.cancel();

    // A wrong recovery token counts against the client's address; another client is not locked.
    const reset = (client: string, email: string) =>
      t.request("POST", "/api/resetpasswords", {
        remoteAddr: PROXY,
        headers: { "x-forwarded-for": client },
        body: { email, token: "x".repeat(43), password: "nova-senha" },
      });
    for (let i = 0; i < 2; i++) {
      const res = await reset("203.0.113.1", `r${i}@x.test`);
      assert.equal((await res.json()).error, "ERR_INVALID_RESET_TOKEN");
    }
    assert.equal((await reset("203.0.113.1", "r9@x.test")).status, 429);
    const other = await reset("203.0.113.2", "r9@x.test");
    assert.equal((await other.json()).error, "ERR_INVALID_RESET_TOKEN");
  }, {
    TRUSTED_PROXIES: `${PROXY}, ::1`,
    SIGNUP_MAX_PER_IP: "1",
    LOGIN_MAX_ATTEMPTS_PER_ADDRESS: "2",
  }));

Deno.test("client address - IPv4, IPv6, mapped forms, ranges and ports; a bad TRUSTED_PROXIES stops the boot", () => {
  const ranges = ["10.0.0.0/8", "fd00::/8", "::1"].map((r) => parseIpRange(r)!);
  const from = (peer: string, xff?: string) =>
    clientAddress({
      env: { remoteAddr: peer },
      req: { header: (name: string) => (name === "x-forwarded-for" ? xff : undefined) },
    }, ranges);
  assert.equal(from("10.1.2.3", "1.2.3.4"), "1.2.3.4");
  assert.equal(from("::ffff:10.1.2.3", "1.2.3.4:5678"), "1.2.3.4");
  assert.equal(from("fd12::1", "[2001:db8::7]:443"), "2001:db8::7");
  assert.equal(from("::1", "9.9.9.9, 2001:DB8:0:0:0:0:0:7, 10.0.0.1"), "2001:db8::7");
  assert.equal(from("11.0.0.1", "1.2.3.4"), "11.0.0.1");
  // A hop that is not an address ends the walk at the last proxy that vouched for it.
  assert.equal(from("10.0.0.1", "1.2.3.4, unknown"), "10.0.0.1");
  assert.equal(from("10.0.0.1"), "10.0.0.1");
  assert.throws(() => loadConfig({ TRUSTED_PROXIES: "10.0.0.0/33" }), /TRUSTED_PROXIES/);
  assert.throws(() => loadConfig({ TRUSTED_PROXIES: "caddy" }), /TRUSTED_PROXIES/);
  assert.equal(
    loadConfig({ TRUSTED_PROXIES: "127.0.0.1 ::1,10.0.0.0/8" }).trustedProxies.length,
    3,
  );
});
