import assert from "node:assert/strict";
import { ADMIN_EMAIL, ADMIN_PASSWORD, login, twoCompanies, withApp } from "../helpers/app.ts";
import { sockets, withServedApp } from "../helpers/admin_fixtures.ts";

Deno.test("settings list - every key of the Options tab; integration secrets for admins only", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const admin = await (await t.request("GET", "/api/settings", { token: a.admin.token })).json();
    const keys = admin.map((s: { key: string }) => s.key);
    for (
      const key of [
        "userRating",
        "scheduleType",
        "CheckMsgIsGroup",
        "call",
        "chatBotType",
        "sendGreetingAccepted",
        "sendMsgTransfTicket",
        "ipixc",
        "tokenixc",
        "ipmkauth",
        "clientidmkauth",
        "clientsecretmkauth",
        "asaas",
        "userCreation",
      ]
    ) assert.ok(keys.includes(key), key);
    const user = await (await t.request("GET", "/api/settings", { token: a.user.token })).json();
    const userKeys = user.map((s: { key: string }) => s.key);
    for (const secret of ["tokenixc", "clientsecretmkauth", "asaas"]) {
      assert.equal(userKeys.includes(secret), false, secret);
    }
    assert.ok(userKeys.includes("scheduleType"));
  }));

Deno.test("settings update - each key accepts only its values; the company hears the change", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    await withServedApp(t, async (wsUrl) => {
      const [sa, sb] = await sockets(wsUrl, a.user.token, b.admin.token);
      const accepted: [string, string][] = [
        ["userRating", "enabled"],
        ["scheduleType", "queue"],
        ["scheduleType", "company"],
        ["CheckMsgIsGroup", "disabled"],
        ["call", "enabled"],
        ["chatBotType", "text"],
        ["sendGreetingAccepted", "enabled"],
        ["sendMsgTransfTicket", "enabled"],
        ["ipixc", "10.0.0.1"],
        ["ipmkauth", "mk.example.com"],
        ["clientidmkauth", "client-1"],
      ];
      for (const [key, value] of accepted) {
        const res = await t.request("PUT", `/api/settings/${key}`, {
          token: a.admin.token,
          body: { value },
        });
        assert.equal(res.status, 200, `${key}=${value}`);
        assert.deepEqual(await res.json(), { key, value });
      }
      const refused: [string, unknown][] = [
        ["userRating", "yes"],
        ["scheduleType", "always"],
        ["CheckMsgIsGroup", true],
        ["chatBotType", "buttons"],
        ["call", ""],
        ["ipixc", "x".repeat(501)],
      ];
      for (const [key, value] of refused) {
        const res = await t.request("PUT", `/api/settings/${key}`, {
          token: a.admin.token,
          body: { value },
        });
        assert.equal(res.status, 400, `${key}=${value}`);
        const body = await res.json();
        assert.equal(body.error, "ERR_VALIDATION");
        assert.ok(body.fields.value.length > 0);
      }
      const rows = await t.deps.db.selectFrom("settings").select(["key", "value"])
        .where("companyId", "=", a.id).where("key", "in", ["scheduleType", "userRating", "call"])
        .orderBy("key").execute();
      assert.deepEqual(rows, [
        { key: "call", value: "enabled" },
        { key: "scheduleType", value: "company" },
        { key: "userRating", value: "enabled" },
      ]);
      const bRows = await t.deps.db.selectFrom("settings").select("value")
        .where("companyId", "=", b.id).where("key", "=", "scheduleType").executeTakeFirstOrThrow();
      assert.equal(bRows.value, "disabled");
      const ev = await sa.next((e) =>
        e.event === `company-${a.id}-settings` &&
        (e.data as { setting: { key: string } }).setting.key === "scheduleType"
      );
      assert.deepEqual(ev.data, {
        action: "update",
        setting: { key: "scheduleType", value: "queue" },
      });
      await sb.settle();
      assert.equal(sb.events.filter((e) => e.event.endsWith("-settings")).length, 0);
    });
  }));

Deno.test("settings update - secrets are announced to admins only", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    await withServedApp(t, async (wsUrl) => {
      const [admin, user] = await sockets(wsUrl, a.admin.token, a.user.token);
      const res = await t.request("PUT", "/api/settings/asaas", {
        token: a.admin.token,
        body: { value: "tok_123" },
      });
      assert.equal(res.status, 200);
      const ev = await admin.next((e) => e.event === `company-${a.id}-settings`);
      assert.deepEqual(ev.data, { action: "update", setting: { key: "asaas", value: "tok_123" } });
      await user.settle();
      assert.equal(user.events.filter((e) => e.event.endsWith("-settings")).length, 0);
    });
  }));

Deno.test("settings update - unknown key is ERR_NO_SETTING_FOUND; users and plain admins are limited", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const unknown = await t.request("PUT", "/api/settings/nope", {
      token: a.admin.token,
      body: { value: "enabled" },
    });
    assert.equal(unknown.status, 404);
    assert.equal((await unknown.json()).error, "ERR_NO_SETTING_FOUND");
    const proto = await t.request("PUT", "/api/settings/__proto__", {
      token: a.admin.token,
      body: { value: "x" },
    });
    assert.equal(proto.status, 404);
    const byUser = await t.request("PUT", "/api/settings/userRating", {
      token: a.user.token,
      body: { value: "enabled" },
    });
    assert.equal(byUser.status, 403);
    const platform = await t.request("PUT", "/api/settings/userCreation", {
      token: a.admin.token,
      body: { value: "disabled" },
    });
    assert.equal(platform.status, 403);
    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const bySuper = await t.request("PUT", "/api/settings/userCreation", {
      token: root.token,
      body: { value: "disabled" },
    });
    assert.equal(bySuper.status, 200);
    const rows = await t.deps.db.selectFrom("settings").select(["companyId", "value"])
      .where("key", "=", "userCreation").orderBy("companyId").execute();
    assert.deepEqual(rows.map((r) => r.value), ["disabled", "enabled", "enabled"]);
  }));

Deno.test("settings update - a key the company never had is created", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    await t.deps.db.deleteFrom("settings").where("companyId", "=", a.id).where("key", "=", "call")
      .execute();
    const list = await (await t.request("GET", "/api/settings", { token: a.admin.token })).json();
    assert.deepEqual(list.find((s: { key: string }) => s.key === "call"), {
      key: "call",
      value: "disabled",
    });
    const res = await t.request("PUT", "/api/settings/call", {
      token: a.admin.token,
      body: { value: "enabled" },
    });
    assert.equal(res.status, 200);
    const row = await t.deps.db.selectFrom("settings").select("value").where("companyId", "=", a.id)
      .where("key", "=", "call").executeTakeFirstOrThrow();
    assert.equal(row.value, "enabled");
  }));
