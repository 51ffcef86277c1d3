import assert from "node:assert/strict";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createCompany,
  login,
  type TestApp,
  withApp,
} from "../helpers/app.ts";
import { createClient } from "@libsql/client";
import { decodeQuotedPrintable, type FakeSmtp, startFakeSmtp } from "../fakes/smtp.ts";

const NEUTRAL = "Se o e-mail estiver cadastrado, você receberá as instruções em instantes.";

/** The code in a recovery mail (43 base64url characters on a line of their own). */
function tokenOf(data: string): string {
  const text = decodeQuotedPrintable(data.slice(data.indexOf("\r\n\r\n") + 4));
  const match = /^([A-Za-z0-9_-]{43})$/m.exec(text.replace(/\r\n/g, "\n"));
  assert.ok(match, `a code in the mail:\n${text}`);
  return match[1];
}

async function forget(t: TestApp, email: string) {
  return await t.request("POST", `/api/forgetpassword/${encodeURIComponent(email)}`);
}

async function reset(t: TestApp, email: string, token: string, password: string) {
  return await t.request(
    "POST",
    `/api/resetpasswords/${encodeURIComponent(email)}/${token}/${encodeURIComponent(password)}`,
  );
}

async function withMail(fn: (t: TestApp, smtp: FakeSmtp) => Promise<void>, env = {}) {
  const smtp = startFakeSmtp();
  try {
    await withApp((t) => fn(t, smtp), {
      SMTP_URL: smtp.url("mailer", "s3cret"),
      SMTP_FROM: "Balcão <no-reply@balcao.test>",
      ...env,
    });
  } finally {
    await smtp.close();
  }
}

Deno.test("password recovery - same answer for any email; a single-use, hashed token by SMTP; the reset ends every session", async () => {
  await withMail(async (t, smtp) => {
    const company = await createCompany(t, "Recupera");
    const user = company.user;

    const unknown = await forget(t, "nobody@nowhere.test");
    const known = await forget(t, user.email.toUpperCase());
    assert.equal(unknown.status, 200);
    assert.equal(known.status, 200);
    assert.deepEqual(await unknown.json(), { message: NEUTRAL });
    assert.deepEqual(await known.json(), { message: NEUTRAL });

    const [mail] = await smtp.received(1);
    assert.equal(smtp.mails.length, 1, "nothing was sent for the unknown email");
    assert.equal(mail.from, "no-reply@balcao.test");
    assert.deepEqual(mail.to, [user.email]);
    assert.equal(mail.auth, "mailer:s3cret");
    const token = tokenOf(mail.data);
    // Only a hash is stored.
    const rows = await t.deps.db.selectFrom("password_resets").selectAll().execute();
    assert.equal(rows.length, 1);
    assert.equal(rows[0].userId, user.id);
    assert.notEqual(rows[0].tokenHash, token);
    assert.ok(!JSON.stringify(rows).includes(token));

    // A wrong token changes nothing.
    const wrong = await reset(t, user.email, "x".repeat(43), "nova-senha");
    assert.equal(wrong.status, 400);
    assert.equal((await wrong.json()).error, "ERR_INVALID_RESET_TOKEN");
    assert.equal((await t.request("GET", "/api/auth/me", { token: user.token })).status, 200);

    const done = await reset(t, user.email, token, "nova-senha");
    assert.equal(done.status, 200, await done.clone().text());
    // The old session is over; the new password works, the old one does not.
    assert.equal((await t.request("GET", "/api/auth/me", { token: user.token })).status, 401);
    await login(t, user.email, "nova-senha");
    const old = await t.request("POST", "/api/auth/login", {
      body: { email: user.email, password: user.password },
    });
    assert.equal(old.status, 401);
    await old.body?.cancel();

    // Used once: a second reset with the same token is refused and changes nothing.
    const again = await reset(t, user.email, token, "outra-senha");
    assert.equal(again.status, 400);
    assert.equal((await again.json()).error, "ERR_INVALID_RESET_TOKEN");
    await login(t, user.email, "nova-senha");
  });
});

Deno.test("password recovery - an expired token or one replaced by a newer request is refused; bad input is a validation error", async () => {
  await withMail(async (t, smtp) => {
    const company = await createCompany(t, "Expira");
    const user = company.user;
    await forget(t, user.email);
    const first = tokenOf((await smtp.received(1))[0].data);
    await forget(t, user.email);
    const second = tokenOf((await smtp.received(2))[1].data);

    const replaced = await reset(t, user.email, first, "nova-senha");
    assert.equal(replaced.status, 400);
    assert.equal((await replaced.json()).error, "ERR_INVALID_RESET_TOKEN");

    t.clock.advance(30 * 60 * 1000 + 1000); // past PASSWORD_RESET_TTL_SECONDS (1800)
    const expired = await reset(t, user.email, second, "nova-senha");
    assert.equal(expired.status, 400);
    assert.equal((await expired.json()).error, "ERR_INVALID_RESET_TOKEN");
    await login(t, user.email, user.password);

    // Another user's email with a valid-looking token: the same refusal.
    const other = await reset(t, company.admin.email, second, "nova-senha");
    assert.equal(other.status, 400);
    assert.equal((await other.json()).error, "ERR_INVALID_RESET_TOKEN");

    for (const [token, password] of [["not a token!", "nova-senha"], [second, "1234"]]) {
      const bad = await reset(t, user.email, encodeURIComponent(token), password);
      assert.equal(bad.status, 400);
      assert.equal((await bad.json()).error, "ERR_VALIDATION");
    }
    await login(t, user.email, user.password);
  });
});

Deno.test("password recovery - attempts are rate limited per address and per email", async () => {
  await withMail(async (t) => {
    for (let i = 0; i < 3; i++) assert.equal((await forget(t, `x${i}@a.test`)).status, 200);
    const limited = await forget(t, "y@a.test");
    assert.equal(limited.status, 429);
    assert.equal((await limited.json()).error, "ERR_RATE_LIMITED");
  }, { LOGIN_MAX_ATTEMPTS: "3", LOGIN_MAX_ATTEMPTS_PER_ADDRESS: "3" });
});

Deno.test("password recovery - without SMTP: a clear error for every email; a super user sets any user's password, a company admin cannot", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "SemMail");
    const b = await createCompany(t, "Outra");
    for (const email of [a.user.email, "nobody@nowhere.test"]) {
      const res = await forget(t, email);
      assert.equal(res.status, 400);
      assert.equal((await res.json()).error, "ERR_MAIL_NOT_CONFIGURED");
    }

    const byAdmin = await t.request("PUT", `/api/passwords/${b.user.id}`, {
      token: a.admin.token,
      body: { password: "tomada" },
    });
    assert.equal(byAdmin.status, 403);
    await login(t, b.user.email, b.user.password);

    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const missing = await t.request("PUT", `/api/passwords/999999`, {
      token: root.token,
      body: { password: "nova-senha" },
    });
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).error, "ERR_NO_USER_FOUND");
    const bySuper = await t.request("PUT", `/api/passwords/${b.user.id}`, {
      token: root.token,
      body: { password: "nova-senha" },
    });
    assert.equal(bySuper.status, 200);
    assert.equal((await t.request("GET", "/api/auth/me", { token: b.user.token })).status, 401);
    await login(t, b.user.email, "nova-senha");
  });
});

/** bcrypt runs so far, as /metrics counts them (balcao_password_hashes_total). */
async function hashesRun(t: TestApp): Promise<number> {
  const res = await t.request("GET", "/metrics", {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await res.text();
  const found = /^balcao_password_hashes_total\{operation="hash"\} (\d+)$/m.exec(text);
  assert.ok(found, "bcrypt runs are counted on /metrics");
  return Number(found[1]);
}

const METRICS_TOKEN = "metrics-token-0123456789";

Deno.test("password recovery - the answer leaves before anything is written: the same for a known and an unknown email while the database is locked", async () => {
  await withMail(async (t, smtp) => {
    const company = await createCompany(t, "Tempo");
    // Another connection holds the write lock: a request that wrote before answering would wait
    // for it (busy_timeout) and fail.
    const other = createClient({ url: t.config.databaseUrl });
    const lock = await other.transaction("write");
    try {
      const answers = await Promise.all([
        forget(t, "nobody@nowhere.test"),
        forget(t, company.user.email),
      ]);
      for (const res of answers) {
        assert.equal(res.status, 200);
        assert.deepEqual(await res.json(), { message: NEUTRAL });
      }
      assert.equal(smtp.mails.length, 0);
    } finally {
      await lock.rollback();
      other.close();
    }
    // Then the known email gets its token and its mail; the unknown one nothing.
    const [mail] = await smtp.received(1);
    assert.deepEqual(mail.to, [company.user.email]);
    await t.deps.afterAnswer.drain();
    const rows = await t.deps.db.selectFrom("password_resets").select("userId").execute();
    assert.deepEqual(rows, [{ userId: company.user.id }]);
    assert.equal(smtp.mails.length, 1);
  });
});

Deno.test("password recovery - a reset runs bcrypt only for a live token: an unknown email and a known one with a wrong token take the same path", async () => {
  await withMail(async (t, smtp) => {
    const company = await createCompany(t, "Hash");
    await forget(t, company.user.email);
    const token = tokenOf((await smtp.received(1))[0].data);
    const before = await hashesRun(t);

    const unknown = await reset(t, "nobody@nowhere.test", "x".repeat(43), "nova-senha");
    const wrong = await reset(t, company.user.email, "x".repeat(43), "nova-senha");
    const otherUser = await reset(t, company.admin.email, token, "nova-senha");
    const bodies = await Promise.all([unknown, wrong, otherUser].map((r) => r.json()));
    assert.deepEqual([unknown.status, wrong.status, otherUser.status], [400, 400, 400]);
    assert.deepEqual(bodies[1], bodies[0]);
    assert.deepEqual(bodies[2], bodies[0]);
    assert.equal(bodies[0].error, "ERR_INVALID_RESET_TOKEN");
    assert.equal(await hashesRun(t), before, "no bcrypt ran for a token that is not live");

    const done = await reset(t, company.user.email, token, "nova-senha");
    assert.equal(done.status, 200);
    assert.equal(await hashesRun(t), before + 1);
    await login(t, company.user.email, "nova-senha");
  }, { METRICS_TOKEN });
});

Deno.test("password recovery - POST /resetpasswords takes the email, token and password in a JSON body", async () => {
  await withMail(async (t, smtp) => {
    const company = await createCompany(t, "Corpo");
    await forget(t, company.user.email);
    const token = tokenOf((await smtp.received(1))[0].data);
    const bad = await t.request("POST", "/api/resetpasswords", {
      body: { email: company.user.email, token, password: "1234" },
    });
    assert.equal((await bad.json()).error, "ERR_VALIDATION");
    const done = await t.request("POST", "/api/resetpasswords", {
      body: { email: company.user.email.toUpperCase(), token, password: "nova-senha" },
    });
    assert.equal(done.status, 200, await done.clone().text());
    assert.equal(
      (await t.request("GET", "/api/auth/me", { token: company.user.token })).status,
      401,
    );
    await login(t, company.user.email, "nova-senha");
    const again = await t.request("POST", "/api/resetpasswords", {
      body: { email: company.user.email, token, password: "outra-senha" },
    });
    assert.equal((await again.json()).error, "ERR_INVALID_RESET_TOKEN");
  });
});
