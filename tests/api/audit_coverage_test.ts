import assert from "node:assert/strict";
import { sql } from "kysely";
import { isPostgres } from "../../db/engine.ts";
import { AUDIT_ACTIONS, type AuditAction } from "../../contract/audit.ts";
import { totpCode } from "../../server/auth/totp.ts";
import { fakeOpenAi } from "../fakes/openai.ts";
import { addMessage } from "../helpers/tickets.ts";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createCompany,
  createUser,
  login,
  type TestApp,
  type TestCompany,
  type TestUser,
  withApp,
} from "../helpers/app.ts";

/**
 * Issue 30 'Done when': each audited action writes its row in the transaction of its change.
 * For every action of the catalogue, performed through the API: with the audit insert of that
 * action refused (a trigger in the test database), the request fails and the database is as it
 * was (a change cannot commit without its row); then, allowed, the change commits with its row,
 * which names the company changed, the caller, and the fields before and/or after.
 */

const PUBLIC_URL = "https://93.184.215.14/webhook/balcao";

type Ctx = {
  t: TestApp;
  a: TestCompany & { planId: number };
  root: { token: string; companyId: number; id: number };
};

type Case = {
  action: AuditAction;
  /** Whose log holds the row (by default company A's). */
  companyOf?: (c: Ctx, p: Prepared) => number;
  /** Which sides of the change the row shows ("none": an act with no fields, e.g. a logout). */
  shows: "after" | "before" | "both" | "none";
  /** Sets up what the action needs (kept out of the compared state). */
  prepare?: (c: Ctx) => Promise<Prepared>;
  run: (c: Ctx, p: Prepared) => Promise<Response>;
  /** The action takes a TOTP code: each attempt needs a step of its own. */
  totp?: boolean;
  /** The answer when the row is written (by default a success). */
  answers?: number;
  /** Who the row names: company A's admin (default), the super user, or the prepared user. */
  by?: "root" | "user";
};

// deno-lint-ignore no-explicit-any
type Prepared = Record<string, any>;

async function call(
  t: TestApp,
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
) {
  const res = await t.request(method, path, { token, body });
  assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${await res.clone().text()}`);
  return res.status === 204 ? null : await res.json();
}

async function twoFactorOn(t: TestApp, user: TestUser) {
  const { secret } = await call(t, "POST", "/api/auth/2fa/setup", user.token);
  t.clock.advance(31_000);
  const { recoveryCodes } = await call(t, "POST", "/api/auth/2fa/enable", user.token, {
    code: totpCode(secret, t.clock.now()),
  });
  return { secret: secret as string, recoveryCodes: recoveryCodes as string[] };
}

let serial = 0;
async function freshUser(c: Ctx, profile: "admin" | "user" = "user") {
  serial++;
  return await createUser(c.t, c.a.id, {
    name: `Pessoa ${serial}`,
    email: `pessoa${serial}@alpha.test`,
    profile,
  });
}

const admin = (c: Ctx) => c.a.admin.token;

const CASES: Case[] = [
  {
    action: "auth.login",
    by: "user",
    shows: "after",
    prepare: async (c) => ({ user: await freshUser(c) }),
    run: (c, p) =>
      c.t.request("POST", "/api/auth/login", {
        body: { email: p.user.email, password: p.user.password },
      }),
  },
  {
    action: "auth.loginFailed",
    by: "user",
    shows: "after",
    answers: 401,
    prepare: async (c) => ({ user: await freshUser(c) }),
    run: (c, p) =>
      c.t.request("POST", "/api/auth/login", { body: { email: p.user.email, password: "nope" } }),
  },
  {
    action: "auth.logout",
    by: "user",
    shows: "none",
    prepare: async (c) => ({ user: await freshUser(c) }),
    run: (c, p) => c.t.request("DELETE", "/api/auth/logout", { token: p.user.token }),
  },
  {
    action: "twoFactor.enabled",
    by: "user",
    shows: "after",
    totp: true,
    prepare: async (c) => {
      const user = await freshUser(c);
      const { secret } = await call(c.t, "POST", "/api/auth/2fa/setup", user.token);
      return { user, secret };
    },
    run: (c, p) =>
      c.t.request("POST", "/api/auth/2fa/enable", {
        token: p.user.token,
        body: { code: totpCode(p.secret, c.t.clock.now()) },
      }),
  },
  {
    action: "twoFactor.disabled",
    by: "user",
    shows: "after",
    totp: true,
    prepare: async (c) => {
      const user = await freshUser(c);
      return { user, ...await twoFactorOn(c.t, user) };
    },
    run: (c, p) =>
      c.t.request("POST", "/api/auth/2fa/disable", {
        token: p.user.token,
        body: { code: totpCode(p.secret, c.t.clock.now()) },
      }),
  },
  {
    action: "twoFactor.reset",
    shows: "after",
    prepare: async (c) => {
      const user = await freshUser(c);
      await twoFactorOn(c.t, user);
      return { user };
    },
    run: (c, p) => c.t.request("POST", `/api/users/${p.user.id}/2fa/reset`, { token: admin(c) }),
  },
  {
    action: "twoFactor.recoveryCodeUsed",
    by: "user",
    shows: "after",
    prepare: async (c) => {
      const user = await freshUser(c);
      const { recoveryCodes } = await twoFactorOn(c.t, user);
      const { challenge } = await call(c.t, "POST", "/api/auth/login", undefined, {
        email: user.email,
        password: user.password,
      });
      return { user, challenge, code: recoveryCodes[0] };
    },
    run: (c, p) =>
      c.t.request("POST", "/api/auth/login/2fa", {
        body: { challenge: p.challenge, code: p.code },
      }),
  },
  {
    action: "session.ended",
    shows: "after",
    prepare: async (c) => {
      const user = await freshUser(c);
      const { sessions } = await call(c.t, "GET", "/api/sessions", user.token);
      return { user, session: sessions[0].id };
    },
    run: (c, p) => c.t.request("DELETE", `/api/sessions/${p.session}`, { token: admin(c) }),
  },
  {
    action: "user.created",
    shows: "after",
    run: (c) =>
      c.t.request("POST", "/api/users", {
        token: admin(c),
        body: { name: "Nova Pessoa", email: "nova@alpha.test", password: "secret-1" },
      }),
  },
  {
    action: "user.updated",
    shows: "both",
    run: (c) =>
      c.t.request("PUT", `/api/users/${c.a.user.id}`, {
        token: admin(c),
        body: { profile: "admin" },
      }),
  },
  {
    action: "user.deleted",
    shows: "before",
    prepare: async (c) => ({ user: await freshUser(c) }),
    run: (c, p) => c.t.request("DELETE", `/api/users/${p.user.id}`, { token: admin(c) }),
  },
  {
    action: "setting.updated",
    shows: "both",
    run: (c) =>
      c.t.request("PUT", "/api/settings/userRating", {
        token: admin(c),
        body: { value: "enabled" },
      }),
  },
  {
    action: "queue.created",
    shows: "after",
    run: (c) =>
      c.t.request("POST", "/api/queue", {
        token: admin(c),
        body: { name: "Vendas", color: "#F44336" },
      }),
  },
  {
    action: "queue.updated",
    shows: "both",
    prepare: async (c) => ({
      queue: await call(c.t, "POST", "/api/queue", admin(c), { name: "Q1", color: "#00AA00" }),
    }),
    run: (c, p) =>
      c.t.request("PUT", `/api/queue/${p.queue.id}`, { token: admin(c), body: { name: "Q2" } }),
  },
  {
    action: "queue.deleted",
    shows: "before",
    prepare: async (c) => ({
      queue: await call(c.t, "POST", "/api/queue", admin(c), { name: "Q3", color: "#0000AA" }),
    }),
    run: (c, p) => c.t.request("DELETE", `/api/queue/${p.queue.id}`, { token: admin(c) }),
  },
  {
    action: "connection.created",
    shows: "after",
    run: (c) =>
      c.t.request("POST", "/api/whatsapp", {
        token: admin(c),
        body: { name: "Principal", provider: "simulator" },
      }),
  },
  {
    action: "connection.updated",
    shows: "both",
    prepare: async (c) => ({
      connection: await call(c.t, "POST", "/api/whatsapp", admin(c), {
        name: "C1",
        provider: "simulator",
      }),
    }),
    run: (c, p) =>
      c.t.request("PUT", `/api/whatsapp/${p.connection.id}`, {
        token: admin(c),
        body: { name: "C2" },
      }),
  },
  {
    action: "connection.deleted",
    shows: "before",
    prepare: async (c) => ({
      connection: await call(c.t, "POST", "/api/whatsapp", admin(c), {
        name: "C3",
        provider: "simulator",
      }),
    }),
    run: (c, p) => c.t.request("DELETE", `/api/whatsapp/${p.connection.id}`, { token: admin(c) }),
  },
  {
    action: "connection.tokenRegenerated",
    // Only the fact: the secret never reaches the log.
    shows: "none",
    prepare: async (c) => ({
      connection: await call(c.t, "POST", "/api/whatsapp", admin(c), {
        name: "C4",
        provider: "simulator",
      }),
    }),
    run: (c, p) =>
      c.t.request("POST", `/api/whatsapp/${p.connection.id}/token`, { token: admin(c) }),
  },
  {
    action: "webhook.created",
    shows: "after",
    run: (c) =>
      c.t.request("POST", "/api/webhooks", {
        token: admin(c),
        body: { name: "ERP", url: PUBLIC_URL, events: ["contact.created"] },
      }),
  },
  {
    action: "webhook.updated",
    shows: "both",
    prepare: async (c) => ({
      hook: await call(c.t, "POST", "/api/webhooks", admin(c), {
        name: "W1",
        url: PUBLIC_URL,
        events: ["contact.created"],
      }),
    }),
    run: (c, p) =>
      c.t.request("PUT", `/api/webhooks/${p.hook.id}`, {
        token: admin(c),
        body: { active: false },
      }),
  },
  {
    action: "webhook.deleted",
    shows: "before",
    prepare: async (c) => ({
      hook: await call(c.t, "POST", "/api/webhooks", admin(c), {
        name: "W2",
        url: PUBLIC_URL,
        events: ["contact.created"],
      }),
    }),
    run: (c, p) => c.t.request("DELETE", `/api/webhooks/${p.hook.id}`, { token: admin(c) }),
  },
  {
    action: "webhook.secretRegenerated",
    // Only the fact: the secret never reaches the log.
    shows: "none",
    prepare: async (c) => ({
      hook: await call(c.t, "POST", "/api/webhooks", admin(c), {
        name: "W3",
        url: PUBLIC_URL,
        events: ["contact.created"],
      }),
    }),
    run: (c, p) => c.t.request("POST", `/api/webhooks/${p.hook.id}/secret`, { token: admin(c) }),
  },
  {
    action: "company.created",
    by: "root",
    shows: "after",
    // The new company's own log holds its creation (its admins read who made it).
    companyOf: (_c, p) => p.createdId,
    run: async (c, p) => {
      const res = await c.t.request("POST", "/api/companies", {
        token: c.root.token,
        body: { name: "Gama", email: "gama@example.test", planId: c.a.planId },
      });
      if (res.status === 201) p.createdId = (await res.clone().json()).id;
      return res;
    },
  },
  {
    action: "company.updated",
    by: "root",
    shows: "both",
    // A super user's change to company A is in A's log.
    run: (c) =>
      c.t.request("PUT", `/api/companies/${c.a.id}`, {
        token: c.root.token,
        body: { phone: "5511999990000" },
      }),
  },
  {
    action: "company.deleted",
    by: "root",
    shows: "before",
    // The deleted company's rows are gone: the platform's log keeps the record.
    companyOf: (c) => c.root.companyId,
    prepare: async (c) => ({
      company: await call(c.t, "POST", "/api/companies", c.root.token, {
        name: "Delta",
        email: "delta@example.test",
        planId: c.a.planId,
      }),
    }),
    run: (c, p) => c.t.request("DELETE", `/api/companies/${p.company.id}`, { token: c.root.token }),
  },
  {
    action: "plan.created",
    by: "root",
    shows: "after",
    companyOf: (c) => c.root.companyId,
    run: (c) => c.t.request("POST", "/api/plans", { token: c.root.token, body: { name: "Ouro" } }),
  },
  {
    action: "plan.updated",
    by: "root",
    shows: "both",
    companyOf: (c) => c.root.companyId,
    prepare: async (c) => ({
      plan: await call(c.t, "POST", "/api/plans", c.root.token, { name: "Prata" }),
    }),
    run: (c, p) =>
      c.t.request("PUT", `/api/plans/${p.plan.id}`, {
        token: c.root.token,
        body: { users: 7 },
      }),
  },
  {
    action: "plan.deleted",
    by: "root",
    shows: "before",
    companyOf: (c) => c.root.companyId,
    prepare: async (c) => ({
      plan: await call(c.t, "POST", "/api/plans", c.root.token, { name: "Bronze" }),
    }),
    run: (c, p) => c.t.request("DELETE", `/api/plans/${p.plan.id}`, { token: c.root.token }),
  },
  {
    action: "subscription.planChanged",
    shows: "both",
    prepare: async (c) => ({
      plan: await call(c.t, "POST", "/api/plans", c.root.token, {
        name: "Maior",
        users: 100,
        connections: 100,
        queues: 100,
        value: 150,
      }),
    }),
    run: (c, p) =>
      c.t.request("PUT", "/api/subscription/plan", {
        token: admin(c),
        body: { planId: p.plan.id },
      }),
  },
  {
    action: "invoice.created",
    by: "root",
    shows: "after",
    // A super user bills company A: A's log.
    run: (c) =>
      c.t.request("POST", "/api/invoices", {
        token: c.root.token,
        body: { companyId: c.a.id, detail: "Extra", value: 10, dueDate: "2030-01-10" },
      }),
  },
  {
    action: "invoice.updated",
    by: "root",
    shows: "both",
    prepare: async (c) => ({
      invoice: await call(c.t, "POST", "/api/invoices", c.root.token, {
        companyId: c.a.id,
        detail: "Extra 2",
        value: 10,
        dueDate: "2030-02-10",
      }),
    }),
    run: (c, p) =>
      c.t.request("PUT", `/api/invoices/${p.invoice.id}`, {
        token: c.root.token,
        body: { value: 12 },
      }),
  },
  {
    action: "invoice.paid",
    by: "root",
    shows: "both",
    prepare: async (c) => ({
      invoice: await call(c.t, "POST", "/api/invoices", c.root.token, {
        companyId: c.a.id,
        detail: "Extra 3",
        value: 10,
        dueDate: "2030-03-10",
      }),
    }),
    run: (c, p) =>
      c.t.request("PUT", `/api/invoices/${p.invoice.id}/paid`, { token: c.root.token }),
  },
  {
    action: "invoice.deleted",
    by: "root",
    shows: "before",
    prepare: async (c) => ({
      invoice: await call(c.t, "POST", "/api/invoices", c.root.token, {
        companyId: c.a.id,
        detail: "Extra 4",
        value: 10,
        dueDate: "2030-04-10",
      }),
    }),
    run: (c, p) => c.t.request("DELETE", `/api/invoices/${p.invoice.id}`, { token: c.root.token }),
  },
  {
    action: "integration.created",
    shows: "after",
    run: (c) =>
      c.t.request("POST", "/api/queueIntegration", {
        token: admin(c),
        body: { type: "n8n", name: "Fluxo", urlN8N: PUBLIC_URL },
      }),
  },
  {
    action: "integration.updated",
    shows: "both",
    prepare: async (c) => ({
      integration: await call(c.t, "POST", "/api/queueIntegration", admin(c), {
        type: "n8n",
        name: "Fluxo 1",
        urlN8N: PUBLIC_URL,
      }),
    }),
    run: (c, p) =>
      c.t.request("PUT", `/api/queueIntegration/${p.integration.id}`, {
        token: admin(c),
        body: { type: "n8n", name: "Fluxo 2", urlN8N: PUBLIC_URL },
      }),
  },
  {
    action: "integration.deleted",
    shows: "before",
    prepare: async (c) => ({
      integration: await call(c.t, "POST", "/api/queueIntegration", admin(c), {
        type: "n8n",
        name: "Fluxo 3",
        urlN8N: PUBLIC_URL,
      }),
    }),
    run: (c, p) =>
      c.t.request("DELETE", `/api/queueIntegration/${p.integration.id}`, { token: admin(c) }),
  },
  {
    action: "prompt.created",
    shows: "after",
    prepare: async (c) => ({
      queue: await call(c.t, "POST", "/api/queue", admin(c), { name: "IA", color: "#AA00AA" }),
    }),
    run: (c, p) =>
      c.t.request("POST", "/api/prompt", {
        token: admin(c),
        body: { name: "Assistente", apiKey: "sk-live-1", prompt: "Atenda.", queueId: p.queue.id },
      }),
  },
  {
    action: "prompt.updated",
    shows: "both",
    prepare: async (c) => {
      const queue = await call(c.t, "POST", "/api/queue", admin(c), {
        name: "IA 2",
        color: "#AA00AB",
      });
      const prompt = await call(c.t, "POST", "/api/prompt", admin(c), {
        name: "P1",
        apiKey: "sk-live-2",
        prompt: "Atenda.",
        queueId: queue.id,
      });
      return { queue, prompt };
    },
    run: (c, p) =>
      c.t.request("PUT", `/api/prompt/${p.prompt.id}`, {
        token: admin(c),
        body: { name: "P1", apiKey: "sk-live-3", prompt: "Atenda bem.", queueId: p.queue.id },
      }),
  },
  {
    action: "prompt.deleted",
    shows: "before",
    prepare: async (c) => {
      const queue = await call(c.t, "POST", "/api/queue", admin(c), {
        name: "IA 3",
        color: "#AA00AC",
      });
      return {
        prompt: await call(c.t, "POST", "/api/prompt", admin(c), {
          name: "P2",
          apiKey: "sk-live-4",
          prompt: "Atenda.",
          queueId: queue.id,
        }),
      };
    },
    run: (c, p) => c.t.request("DELETE", `/api/prompt/${p.prompt.id}`, { token: admin(c) }),
  },
  {
    // Issue 48: a call to the assistant's service (the company's own account on a fake).
    action: "assist.called",
    shows: "after",
    prepare: async (c) => {
      assistFake = fakeOpenAi({ apiKey: "sk-audit-assist" });
      assistFake.state.reply = () => "Resumo.";
      for (
        const [key, value] of [
          ["assistSummary", "enabled"],
          ["assistBaseUrl", assistFake.baseUrl],
          ["assistApiKey", "sk-audit-assist"],
        ]
      ) {
        await call(c.t, "PUT", `/api/settings/${key}`, admin(c), { value });
      }
      const contact = await call(c.t, "POST", "/api/contacts", admin(c), {
        name: "Resumo",
        number: "5511955550001",
      });
      const ticket = await call(c.t, "POST", "/api/tickets", admin(c), {
        contactId: contact.id,
        status: "open",
        userId: c.a.admin.id,
      });
      await addMessage(c.t, c.a.id, { ticketId: ticket.id, body: "Olá" });
      return { ticket };
    },
    run: (c, p) => c.t.request("POST", `/api/tickets/${p.ticket.id}/summary`, { token: admin(c) }),
  },
];

let assistFake: ReturnType<typeof fakeOpenAi> | undefined;

/**
 * Every table but the log, row by row. The replay guard of TOTP (users.twoFactorLastStep) is
 * left out: a code is spent when it is checked, before the change, so a replay stays refused
 * whatever happens to the change.
 */
async function databaseState(t: TestApp) {
  // Either engine's catalogue; PostgreSQL has no rowid, and an updated row moves, so its rows
  // are ordered by their whole text.
  const postgres = isPostgres(t.deps.db);
  const tables = postgres
    ? await sql<{ name: string }>`SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
        AND table_name NOT IN ('audit_logs') ORDER BY name`.execute(t.deps.db)
    : await sql<{ name: string }>`SELECT name FROM sqlite_master
      WHERE type = 'table' AND name NOT IN ('audit_logs') ORDER BY name`.execute(t.deps.db);
  const state: Record<string, unknown[]> = {};
  for (const { name } of tables.rows) {
    const rows = postgres
      ? await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(name)} r ORDER BY r::text`
        .execute(t.deps.db)
      : await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(name)} ORDER BY rowid`
        .execute(t.deps.db).catch(() =>
          sql<Record<string, unknown>>`SELECT * FROM ${sql.table(name)}`.execute(t.deps.db)
        );
    state[name] = rows.rows.map((r) => {
      const { twoFactorLastStep: _step, ...rest } = r;
      return name === "users" ? rest : r;
    });
  }
  return state;
}

async function refuse(t: TestApp, action: AuditAction) {
  await sql.raw(`CREATE TRIGGER refuse_audit BEFORE INSERT ON audit_logs
    WHEN NEW.action = '${action}' BEGIN SELECT RAISE(ABORT, 'audit refused'); END`)
    .execute(t.deps.db);
}

async function rowsOf(t: TestApp, companyId: number, action: AuditAction) {
  return await t.deps.db.selectFrom("audit_logs").selectAll().where("companyId", "=", companyId)
    .where("action", "=", action).orderBy("id", "desc").execute();
}

Deno.test("audit coverage - the catalogue has a case here for each action, and nothing else", () => {
  assert.deepEqual(CASES.map((c) => c.action).sort(), [...AUDIT_ACTIONS].sort());
});

Deno.test("audit coverage - each action: refused row, nothing changed; allowed, the change and its row", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const planId = (await t.deps.db.selectFrom("companies").select("planId").where("id", "=", a.id)
      .executeTakeFirstOrThrow()).planId!;
    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const ctx: Ctx = {
      t,
      a: { ...a, planId },
      root: { token: root.token, companyId: root.user.companyId, id: root.user.id },
    };
    for (const c of CASES) {
      const prepared = c.prepare ? await c.prepare(ctx) : {};
      if (c.totp) t.clock.advance(31_000);
      const was = await databaseState(t);
      await refuse(t, c.action);
      const refused = await c.run(ctx, prepared);
      assert.equal(refused.status, 500, `${c.action} refused: ${await refused.clone().text()}`);
      await refused.body?.cancel();
      assert.deepEqual(await databaseState(t), was, `${c.action}: the refused change is undone`);
      await sql`DROP TRIGGER refuse_audit`.execute(t.deps.db);

      if (c.totp) t.clock.advance(31_000);
      const ok = await c.run(ctx, prepared);
      assert.ok(
        c.answers ? ok.status === c.answers : ok.status < 300,
        `${c.action}: ${ok.status} ${await ok.clone().text()}`,
      );
      await ok.body?.cancel();
      const companyId = c.companyOf?.(ctx, prepared) ?? a.id;
      const [row] = await rowsOf(t, companyId, c.action);
      assert.ok(row, `${c.action}: a row in company ${companyId}'s log`);
      assert.equal(row.createdAt, t.clock.now().toISOString(), c.action);
      const by = c.by === "root" ? ctx.root.id : c.by === "user" ? prepared.user.id : a.admin.id;
      assert.equal(row.userId, by, `${c.action}: who`);
      for (const side of ["before", "after"] as const) {
        if (c.shows !== "both" && c.shows !== side) continue;
        const fields = row[side] === null ? {} : JSON.parse(row[side]!);
        assert.ok(Object.keys(fields).length > 0, `${c.action}: ${side} is written`);
      }
    }
    await assistFake?.close();
  }, { INTEGRATIONS_ALLOW_PRIVATE_URLS: "true" }));
