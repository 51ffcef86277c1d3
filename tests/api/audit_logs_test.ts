import assert from "node:assert/strict";
import { pruneAuditLogs } from "../../server/audit/service.ts";
import { sql } from "kysely";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createCompany,
  login,
  type TestApp,
  withApp,
} from "../helpers/app.ts";

/** Issue 30 item 3: the audit log, company-scoped for admins, the platform's for super users. */

type Page = {
  records: {
    id: number;
    action: string;
    userId: number | null;
    entity: string;
    entityId: string | null;
    companyId: number;
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
    ip: string | null;
    createdAt: string;
  }[];
  count: number;
  hasMore: boolean;
};

async function read(t: TestApp, token: string, query = ""): Promise<Page> {
  const res = await t.request("GET", `/api/audit-logs${query}`, { token });
  assert.equal(res.status, 200, await res.clone().text());
  return await res.json();
}

async function makeAdmin(t: TestApp, token: string, userId: number) {
  return await t.request("PUT", `/api/users/${userId}`, {
    token,
    body: { profile: "admin" },
    remoteAddr: "198.51.100.9",
  });
}

Deno.test("audit - a role change is recorded with who, where, before and after; users cannot read it", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const b = await createCompany(t, "Beta");
    const changed = await makeAdmin(t, a.admin.token, a.user.id);
    assert.equal(changed.status, 200);
    await changed.body?.cancel();

    const page = await read(t, a.admin.token, "?action=user.updated");
    assert.equal(page.count, 1);
    const [row] = page.records;
    assert.equal(row.userId, a.admin.id);
    assert.equal(row.entity, "user");
    assert.equal(row.entityId, String(a.user.id));
    assert.deepEqual(row.before, { profile: "user" });
    assert.deepEqual(row.after, { profile: "admin" });
    assert.equal(row.ip, "198.51.100.9");
    assert.equal(row.createdAt, t.clock.now().toISOString());

    // The logins of the fixtures are there too, newest first.
    const all = await read(t, a.admin.token);
    assert.equal(all.records[0].action, "user.updated");
    assert.ok(all.records.every((r) => r.companyId === a.id));
    assert.ok(all.records.some((r) => r.action === "auth.login"));

    const byUser = await t.request("GET", "/api/audit-logs", { token: b.user.token });
    assert.equal(byUser.status, 403);
    assert.equal((await byUser.json()).error, "ERR_NO_PERMISSION");
    const other = await read(t, b.admin.token, "?action=user.updated");
    assert.equal(other.count, 0);
    // An admin cannot widen the scope to another company.
    const widened = await read(t, b.admin.token, `?companyId=${a.id}&action=user.updated`);
    assert.equal(widened.count, 0);

    // The platform's super user reads every company's, or one.
    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const platform = await read(t, root.token, "?action=auth.login");
    const companies = new Set(platform.records.map((r) => r.companyId));
    assert.ok(companies.has(a.id) && companies.has(b.id));
    const one = await read(t, root.token, `?companyId=${b.id}`);
    assert.ok(one.count > 0 && one.records.every((r) => r.companyId === b.id));
  }));

Deno.test("audit - filters by period, user and action; bad filters are 400; CSV export", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    t.clock.advance(30_000);
    // From after the fixtures' logins, to before the password change.
    const start = t.clock.now().toISOString();
    t.clock.advance(30_000);
    const wrong = await t.request("POST", "/api/auth/login", {
      body: { email: a.user.email, password: "not-it" },
    });
    assert.equal(wrong.status, 401);
    await wrong.body?.cancel();
    t.clock.advance(60_000);
    const changed = await t.request("PUT", `/api/users/${a.user.id}`, {
      token: a.admin.token,
      body: { password: "new-secret-1" },
    });
    assert.equal(changed.status, 200);
    await changed.body?.cancel();

    const failed = await read(t, a.admin.token, `?action=auth.loginFailed&userId=${a.user.id}`);
    assert.equal(failed.count, 1);
    assert.deepEqual(failed.records[0].after, { reason: "password" });
    const period = await read(
      t,
      a.admin.token,
      `?from=${encodeURIComponent(start)}&to=${
        encodeURIComponent(new Date(Date.parse(start) + 90_000).toISOString())
      }`,
    );
    assert.deepEqual(period.records.map((r) => r.action), ["auth.loginFailed"]);
    const password = await read(t, a.admin.token, "?action=user.updated");
    // The password is never written, only that it changed.
    assert.deepEqual(password.records[0].after, { password: "***" });

    const bad = await t.request("GET", "/api/audit-logs?action=nope", { token: a.admin.token });
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).error, "ERR_VALIDATION");

    const csv = await t.request("GET", "/api/audit-logs/export?action=user.updated", {
      token: a.admin.token,
    });
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get("content-type") ?? "", /text\/csv/);
    const lines = (await csv.text()).trim().split("\r\n");
    assert.equal(lines.length, 2);
    // Issue 50: ";" for a Portuguese spreadsheet (the default), the time on the company's clock
    // (São Paulo: the test clock's 12:0x UTC is 09:0x).
    assert.match(lines[0], /^Quando;Quem;Ação;/);
    assert.match(lines[1], /;Alterou um usuário;/);
    assert.match(lines[1], /^2026-11-22 09:0\d:\d\d;/);
    assert.doesNotMatch(lines[1], /new-secret-1/);
    const english = await t.request("GET", "/api/audit-logs/export?action=user.updated", {
      token: a.admin.token,
      headers: { "Accept-Language": "en-US,en;q=0.9" },
    });
    assert.match((await english.text()).trim().split("\r\n")[0], /^When,Who,Action,/);
  }));

Deno.test("audit - the CSV speaks the reader's language: titles, actions, records, devices and changes in words, not codes and JSON (issue 50 item 6)", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const chrome =
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
    const enabled = await t.request("PUT", "/api/settings/multipleSessions", {
      token: a.admin.token,
      body: { value: "enabled" },
    });
    assert.equal(enabled.status, 200);
    await enabled.body?.cancel();
    const signed = await t.request("POST", "/api/auth/login", {
      body: { email: a.user.email, password: a.user.password },
      headers: { "user-agent": chrome },
    });
    assert.equal(signed.status, 200);
    const token = (await signed.json()).token as string;
    const own = await t.request("GET", "/api/sessions?scope=own", { token });
    const listed = (await own.json()).sessions as { id: number; userAgent: string }[];
    const chromeSession = listed.find((s) => s.userAgent === chrome)!;
    const ended = await t.request("DELETE", `/api/sessions/${chromeSession.id}`, {
      token: a.admin.token,
    });
    assert.equal(ended.status, 204);
    const promoted = await makeAdmin(t, a.admin.token, a.user.id);
    assert.equal(promoted.status, 200);
    await promoted.body?.cancel();

    const { parse } = await import("csv-parse/sync");
    const sheet = async (language: string, action: string) => {
      const res = await t.request("GET", `/api/audit-logs/export?action=${action}`, {
        token: a.admin.token,
        headers: { "Accept-Language": language },
      });
      assert.equal(res.status, 200);
      const text = await res.text();
      return parse(text, { delimiter: language === "pt-BR" ? ";" : ",", bom: true }) as string[][];
    };
    const [titles, session] = await sheet("pt-BR", "session.ended");
    assert.deepEqual(titles, [
      "Quando",
      "Quem",
      "Ação",
      "Registro",
      "Endereço",
      "Dispositivo",
      "Alterações",
    ]);
    assert.match(session[0], /^2026-11-22 \d\d:\d\d:\d\d$/);
    assert.equal(session[1], "Alpha Admin");
    assert.equal(session[2], "Encerrou uma sessão");
    assert.equal(session[3], `Sessão #${chromeSession.id}`);
    // What the ended session was (no arrow: nothing changed from it to something), and why.
    assert.deepEqual(session[6].split("\n").filter((line) => !line.startsWith("Endereço:")), [
      `Usuário: ${a.user.id}`,
      "Dispositivo: Chrome · Linux",
      "Motivo: Encerrada por um administrador",
    ]);
    const [, role] = await sheet("pt-BR", "user.updated");
    assert.equal(role[2], "Alterou um usuário");
    assert.equal(role[6], "Perfil: Usuário → Administrador");
    const [english, roleEn] = await sheet("en-US", "user.updated");
    assert.equal(english[0], "When");
    assert.equal(roleEn[6], "Profile: User → Administrator");
    // The platform's reader (every company's rows) gets the company's column.
    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const platform = await t.request("GET", "/api/audit-logs/export?action=user.updated", {
      token: root.token,
      headers: { "Accept-Language": "pt-BR" },
    });
    const [platformTitles, platformRow] = parse(await platform.text(), {
      delimiter: ";",
      bom: true,
    }) as string[][];
    assert.deepEqual(platformTitles.slice(0, 3), ["Quando", "Empresa", "Quem"]);
    assert.equal(platformRow[1], String(a.id));
  }));

Deno.test("audit - the row is written in the change's transaction: no change without it, no row without the change", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const count = async () =>
      (await t.deps.db.selectFrom("audit_logs").select("id").where("companyId", "=", a.id)
        .where("action", "=", "user.updated").execute()).length;

    // A change that fails (the email belongs to another user) leaves no row.
    const taken = await t.request("PUT", `/api/users/${a.user.id}`, {
      token: a.admin.token,
      body: { email: a.admin.email },
    });
    assert.equal(taken.status, 409);
    await taken.body?.cancel();
    assert.equal(await count(), 0);

    // When its row cannot be written, the change does not commit.
    await sql`CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_logs
      BEGIN SELECT RAISE(ABORT, 'audit refused'); END`.execute(t.deps.db);
    const refused = await makeAdmin(t, a.admin.token, a.user.id);
    assert.equal(refused.status, 500);
    await refused.body?.cancel();
    const user = await t.deps.db.selectFrom("users").select("profile").where("companyId", "=", a.id)
      .where("id", "=", a.user.id).executeTakeFirstOrThrow();
    assert.equal(user.profile, "user");
    const setting = await t.request("PUT", "/api/settings/userRating", {
      token: a.admin.token,
      body: { value: "enabled" },
    });
    assert.equal(setting.status, 500);
    await setting.body?.cancel();
    await sql`DROP TRIGGER refuse_audit`.execute(t.deps.db);

    const ok = await makeAdmin(t, a.admin.token, a.user.id);
    assert.equal(ok.status, 200);
    await ok.body?.cancel();
    assert.equal(await count(), 1);
    const settings = await read(t, a.admin.token, "?action=setting.updated");
    assert.equal(settings.count, 0);
  }));

Deno.test("audit - no route changes or deletes a row", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    for (const method of ["PUT", "PATCH", "DELETE", "POST"]) {
      const res = await t.request(method, "/api/audit-logs/1", { token: a.admin.token, body: {} });
      assert.equal(res.status, 404, method);
      await res.body?.cancel();
    }
  }));

Deno.test("audit - the retention job removes rows past AUDIT_RETENTION_DAYS, every company's", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const b = await createCompany(t, "Beta");
    const before = await t.deps.db.selectFrom("audit_logs").select("id")
      .where("companyId", "in", [a.id, b.id]).execute();
    assert.ok(before.length >= 4);
    t.clock.advance(29 * 86_400_000);
    assert.equal(await pruneAuditLogs(t.deps), 0);
    await login(t, a.user.email, a.user.password);
    t.clock.advance(2 * 86_400_000);
    // The fixtures' rows are 31 days old now; the login two days ago stays.
    assert.equal(await pruneAuditLogs(t.deps), before.length);
    assert.equal(await pruneAuditLogs(t.deps), 0);
    const left = await t.deps.db.selectFrom("audit_logs").select("action")
      .where("companyId", "in", [a.id, b.id]).execute();
    assert.deepEqual(left.map((r) => r.action), ["auth.login"]);
  }, { AUDIT_RETENTION_DAYS: "30" }));

Deno.test("audit - queues, connections (API token) and webhooks: created, changed, deleted; secrets left out", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await t.request(method, path, { token: a.admin.token, body });
      assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${await res.clone().text()}`);
      return res.status === 204 ? null : await res.json();
    };
    const queue = await call("POST", "/api/queue", { name: "Vendas", color: "#F44336" });
    await call("PUT", `/api/queue/${queue.id}`, { name: "Vendas B2B" });
    await call("DELETE", `/api/queue/${queue.id}`);
    const connection = await call("POST", "/api/whatsapp", {
      name: "Principal",
      provider: "simulator",
    });
    const regenerated = await call("POST", `/api/whatsapp/${connection.id}/token`);
    await call("DELETE", `/api/whatsapp/${connection.id}`);
    // The fake URL is never called: only stored (private addresses allowed by the switch).
    const hook = await call("POST", "/api/webhooks", {
      name: "ERP",
      url: "http://127.0.0.1:9/hook",
      events: ["contact.created"],
    });
    await call("PUT", `/api/webhooks/${hook.id}`, { active: false });
    await call("POST", `/api/webhooks/${hook.id}/secret`);
    await call("DELETE", `/api/webhooks/${hook.id}`);

    const rows = (await read(t, a.admin.token, "?pageNumber=1")).records.filter((r) =>
      r.entity !== "session" && r.entity !== "user"
    ).reverse();
    assert.deepEqual(rows.map((r) => r.action), [
      "queue.created",
      "queue.updated",
      "queue.deleted",
      "connection.created",
      "connection.tokenRegenerated",
      "connection.deleted",
      "webhook.created",
      "webhook.updated",
      "webhook.secretRegenerated",
      "webhook.deleted",
    ]);
    assert.deepEqual(rows[1].before, { name: "Vendas" });
    assert.deepEqual(rows[1].after, { name: "Vendas B2B" });
    assert.deepEqual(rows[7].after, { active: false });
    const text = JSON.stringify(rows);
    assert.ok(!text.includes(regenerated.token), "the API token is not in the log");
    assert.ok(!text.includes(hook.secret), "the webhook secret is not in the log");
  }, { INTEGRATIONS_ALLOW_PRIVATE_URLS: "true" }));

Deno.test("audit - a super user's change to a company is in that company's log: its admin reads it, others do not", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const b = await createCompany(t, "Beta");
    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const changed = await t.request("PUT", `/api/companies/${a.id}`, {
      token: root.token,
      body: { phone: "5511999990000" },
      remoteAddr: "203.0.113.7",
    });
    assert.equal(changed.status, 200);
    await changed.body?.cancel();
    const invoice = await t.request("POST", "/api/invoices", {
      token: root.token,
      body: { companyId: a.id, detail: "Extra", value: 10, dueDate: "2030-01-10" },
    });
    assert.equal(invoice.status, 201);
    const { id: invoiceId } = await invoice.json();

    const mine = await read(t, a.admin.token, "?entity=company");
    assert.equal(mine.count, 1);
    assert.equal(mine.records[0].action, "company.updated");
    assert.equal(mine.records[0].userId, root.user.id);
    assert.equal(mine.records[0].ip, "203.0.113.7");
    assert.deepEqual(mine.records[0].before, { phone: null });
    assert.deepEqual(mine.records[0].after, { phone: "5511999990000" });
    const invoices = await read(t, a.admin.token, "?action=invoice.created");
    assert.equal(invoices.records[0].entityId, String(invoiceId));
    assert.deepEqual(invoices.records[0].after, {
      detail: "Extra",
      value: 10,
      dueDate: "2030-01-10",
      status: "open",
    });

    // Not in the super user's own company, nor in another company's.
    const others = await read(t, b.admin.token, "?entity=company");
    assert.equal(others.count, 0);
    const own = await read(t, root.token, `?companyId=${root.user.companyId}&entity=company`);
    assert.equal(own.count, 0);
    // The super user's /audit reads every company's.
    const platform = await read(t, root.token, "?action=company.updated");
    assert.deepEqual(platform.records.map((r) => r.companyId), [a.id]);
  }));

Deno.test("audit - no API writes the log: its routes are reads; PUT and DELETE are 404 to a super user; a user cannot export", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const routes = t.app.routes.filter((r) => r.path.startsWith("/api/audit-logs"));
    assert.ok(routes.some((r) => r.method === "GET"), "the walk reached the log's routes");
    const writes = routes.filter((r) => r.method !== "GET" && r.method !== "ALL");
    assert.deepEqual(writes.map((r) => `${r.method} ${r.path}`), []);

    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const [first] = (await read(t, root.token)).records;
    for (const method of ["PUT", "PATCH", "DELETE"]) {
      for (const path of [`/api/audit-logs/${first.id}`, "/api/audit-logs"]) {
        const res = await t.request(method, path, { token: root.token, body: {} });
        assert.equal(res.status, 404, `${method} ${path}`);
        await res.body?.cancel();
      }
    }
    const still = await t.deps.db.selectFrom("audit_logs").select("id")
      .where("companyId", "=", first.companyId).where("id", "=", first.id).execute();
    assert.equal(still.length, 1);

    const csv = await t.request("GET", "/api/audit-logs/export", { token: a.user.token });
    assert.equal(csv.status, 403);
    assert.equal((await csv.json()).error, "ERR_NO_PERMISSION");
  }));

Deno.test("audit - a super user sets the retention: the job follows it over AUDIT_RETENTION_DAYS; admins cannot", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const put = async (token: string, value: string) => {
      const res = await t.request("PUT", "/api/settings/auditRetentionDays", {
        token,
        body: { value },
      });
      const status = res.status;
      await res.body?.cancel();
      return status;
    };
    assert.equal(await put(a.admin.token, "10"), 403);
    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    assert.equal(await put(root.token, "dez"), 400);
    assert.equal(await put(root.token, "10"), 200);
    const rows = async () =>
      (await t.deps.db.selectFrom("audit_logs").select("id").where("companyId", "=", a.id)
        .execute()).length;
    const fixtures = await rows();
    assert.ok(fixtures > 0);

    t.clock.advance(9 * 86_400_000);
    assert.equal(await pruneAuditLogs(t.deps), 0);
    t.clock.advance(2 * 86_400_000);
    // Eleven days on: every row of the fixtures goes (the env's 365 days would keep them).
    assert.ok(await pruneAuditLogs(t.deps) >= fixtures);
    assert.equal(await rows(), 0);

    // 0 keeps every row.
    const again = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    assert.equal(await put(again.token, "0"), 200);
    t.clock.advance(400 * 86_400_000);
    assert.equal(await pruneAuditLogs(t.deps), 0);
  }, { AUDIT_RETENTION_DAYS: "365" }));
