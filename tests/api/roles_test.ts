import assert from "node:assert/strict";
import { Hono } from "hono";
import { allow, requireAuth, requirePlan } from "../../server/auth/middleware.ts";
import { type AppEnv, authOf } from "../../server/context.ts";
import { renderError } from "../../server/http/errors.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD, createCompany, login, withApp } from "../helpers/app.ts";

Deno.test("roles - admin, super and plan flags are enforced on the server", () =>
  withApp(async (t) => {
    const app = new Hono<AppEnv>();
    app.use("*", requireAuth(t.deps));
    app.get("/admin", allow("dashboard:read"), (c) => c.json({ companyId: authOf(c).companyId }));
    app.get("/super", allow("company:manage"), (c) => c.json({ ok: true }));
    app.get("/kanban", requirePlan("useKanban"), (c) => c.json({ ok: true }));
    app.onError(renderError);

    const a = await createCompany(t, "Alpha", { plan: { useKanban: 0 } });
    const call = async (path: string, token: string) => {
      const res = await app.request(path, { headers: { authorization: `Bearer ${token}` } });
      return { status: res.status, body: await res.json() };
    };

    assert.deepEqual(await call("/admin", a.admin.token), {
      status: 200,
      body: { companyId: a.id },
    });
    assert.deepEqual(await call("/admin", a.user.token), {
      status: 403,
      body: { error: "ERR_NO_PERMISSION", message: "Acesso não permitido" },
    });
    assert.equal((await call("/super", a.admin.token)).status, 403);
    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    assert.equal((await call("/super", root.token)).status, 200);
    const kanban = await call("/kanban", a.admin.token);
    assert.equal(kanban.status, 403);
    assert.equal(kanban.body.error, "ERR_PLAN_FEATURE_DISABLED");
    assert.equal((await call("/kanban", root.token)).status, 200);
  }));

Deno.test("tenancy - the company comes from the token, whatever the request says", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const b = await createCompany(t, "Beta");
    const app = new Hono<AppEnv>();
    app.use("*", requireAuth(t.deps));
    app.get("/whoami", (c) => c.json({ companyId: authOf(c).companyId }));
    app.onError(renderError);
    const res = await app.request(`/whoami?companyId=${b.id}`, {
      headers: { authorization: `Bearer ${a.user.token}`, "x-company-id": String(b.id) },
    });
    assert.deepEqual(await res.json(), { companyId: a.id });
  }));
