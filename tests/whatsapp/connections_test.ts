import assert from "node:assert/strict";
import { createCompany, twoCompanies, withApp } from "../helpers/app.ts";
import { connectSimulator, createQueue } from "./helpers.ts";
import { tokenHash } from "../../server/external_api/tokens.ts";

Deno.test("connections - create answers the seeds' defaults; the first one is the default", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const res = await t.request("POST", "/api/whatsapp", {
      token: a.admin.token,
      body: { name: "Vendas", provider: "simulator", token: "secret-token" },
    });
    assert.equal(res.status, 201);
    const body = await res.json();
    assert.equal(body.name, "Vendas");
    assert.equal(body.isDefault, true);
    assert.equal(body.provider, "simulator");
    assert.equal(body.timeSendQueue, 0);
    assert.equal(body.sendIdQueue, 0);
    assert.equal(body.expiresTicket, 0);
    assert.equal(body.timeUseBotQueues, 0);
    assert.equal(body.maxUseBotQueues, 3);
    // A typed token is ignored: the server generates it (issue 16).
    assert.match(body.token, /^blc_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(body.queues, []);
    // the session started at once: the simulator shows a QR code as a PNG data URL
    assert.equal(body.status, "qrcode");
    assert.match(body.qrcode, /^data:image\/png;base64,/);
    assert.equal(body.retries, 1);

    const second = await t.request("POST", "/api/whatsapp", {
      token: a.admin.token,
      body: { name: "Suporte", provider: "simulator" },
    });
    assert.equal((await second.json()).isDefault, false);

    // users read connections without the API token; the list is ordered by name
    const list = await t.request("GET", "/api/whatsapp?session=0", { token: a.user.token });
    assert.equal(list.status, 200);
    const rows = await list.json();
    assert.deepEqual(rows.map((r: { name: string }) => r.name), ["Suporte", "Vendas"]);
    assert.equal(rows[1].token, undefined);
    const stored = await t.deps.db.selectFrom("whatsapps").selectAll().where("companyId", "=", a.id)
      .orderBy("id").execute();
    assert.deepEqual(stored.map((w) => w.isDefault), [1, 0]);
    // The token is answered once: the row keeps its SHA-256 and a hint, never the token itself.
    assert.ok(!JSON.stringify(stored).includes(body.token.slice(4)), "the token is not stored");
    assert.equal(stored[0].tokenHash, await tokenHash(body.token));
    const hint = `blc_…${body.token.slice(-4)}`;
    assert.equal(stored[0].tokenHint, hint);
    const read = await t.request("GET", `/api/whatsapp/${body.id}`, { token: a.admin.token });
    const view = await read.json();
    assert.deepEqual([view.token, view.tokenHint], [undefined, hint]);
  });
});

Deno.test("connections - provider defaults to beta; a kind without an implementation stays DISCONNECTED", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const now = t.clock.now().toISOString();
    const row = await t.deps.db.insertInto("whatsapps").values({
      companyId: a.id,
      name: "Legacy",
      provider: "unknown-kind",
      createdAt: now,
      updatedAt: now,
    }).returning(["id", "provider"]).executeTakeFirstOrThrow();
    const res = await t.request("POST", `/api/whatsappsession/${row.id}`, { token: a.admin.token });
    assert.equal(res.status, 200);
    assert.equal((await res.json()).whatsapp.status, "DISCONNECTED");
    assert.equal(t.deps.sessions.provider(row.id), undefined);

    const defaults = await t.deps.db.insertInto("whatsapps").values({
      companyId: a.id,
      name: "Default kind",
      createdAt: now,
      updatedAt: now,
    }).returning(["provider", "maxUseBotQueues", "status"]).executeTakeFirstOrThrow();
    assert.equal(defaults.provider, "beta");
    assert.equal(defaults.maxUseBotQueues, 3);
    assert.equal(defaults.status, "DISCONNECTED");
  });
});

Deno.test("connections - validation: name 2..50, provider kind, queues of the company", async () => {
  await withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    for (const name of ["x", "y".repeat(51)]) {
      const res = await t.request("POST", "/api/whatsapp", {
        token: a.admin.token,
        body: { name },
      });
      assert.equal(res.status, 400);
      const body = await res.json();
      assert.equal(body.error, "ERR_VALIDATION");
      assert.ok(body.fields.name);
    }
    const kind = await t.request("POST", "/api/whatsapp", {
      token: a.admin.token,
      body: { name: "Kind", provider: "whatever" },
    });
    assert.equal(kind.status, 400);
    const foreignQueue = await createQueue(t, b.id);
    const foreign = await t.request("POST", "/api/whatsapp", {
      token: a.admin.token,
      body: { name: "Foreign", provider: "simulator", queueIds: [foreignQueue] },
    });
    assert.equal(foreign.status, 404);
    assert.equal((await foreign.json()).error, "ERR_NO_QUEUE_FOUND");
    await connectSimulator(t, a, { name: "Same" });
    const dup = await t.request("POST", "/api/whatsapp", {
      token: a.admin.token,
      body: { name: "Same", provider: "simulator" },
    });
    assert.equal(dup.status, 409);
    assert.equal((await dup.json()).error, "ERR_DUPLICATED_NAME");
    const count = await t.deps.db.selectFrom("whatsapps").select((eb) => eb.fn.countAll().as("n"))
      .where("companyId", "=", a.id).executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 1);
  });
});

Deno.test("connections - ERR_WAPP_GREETING_REQUIRED with more than one queue", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const q1 = await createQueue(t, a.id), q2 = await createQueue(t, a.id);
    const res = await t.request("POST", "/api/whatsapp", {
      token: a.admin.token,
      body: { name: "Menu", provider: "simulator", queueIds: [q1, q2] },
    });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).error, "ERR_WAPP_GREETING_REQUIRED");

    const one = await t.request("POST", "/api/whatsapp", {
      token: a.admin.token,
      body: { name: "Menu", provider: "simulator", queueIds: [q1] },
    });
    assert.equal(one.status, 201);
    const { id } = await one.json();
    const more = await t.request("PUT", `/api/whatsapp/${id}`, {
      token: a.admin.token,
      body: { queueIds: [q1, q2] },
    });
    assert.equal(more.status, 400);
    assert.equal((await more.json()).error, "ERR_WAPP_GREETING_REQUIRED");
    const ok = await t.request("PUT", `/api/whatsapp/${id}`, {
      token: a.admin.token,
      body: { queueIds: [q1, q2], greetingMessage: "Olá! Escolha:" },
    });
    assert.equal(ok.status, 200);
    assert.deepEqual((await ok.json()).queueIds, [q1, q2]);
    // and the greeting cannot be emptied while there are two queues
    const empty = await t.request("PUT", `/api/whatsapp/${id}`, {
      token: a.admin.token,
      body: { greetingMessage: "  " },
    });
    assert.equal((await empty.json()).error, "ERR_WAPP_GREETING_REQUIRED");
    const links = await t.deps.db.selectFrom("whatsapp_queues").selectAll()
      .where("whatsappId", "=", id).execute();
    assert.equal(links.length, 2);
  });
});

Deno.test("connections - ERR_NO_OTHER_WHATSAPP: a default must remain", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const first = await connectSimulator(t, a, { name: "First" });
    const second = await connectSimulator(t, a, { name: "Second" });
    const unset = await t.request("PUT", `/api/whatsapp/${first}`, {
      token: a.admin.token,
      body: { isDefault: false },
    });
    assert.equal(unset.status, 400);
    assert.equal((await unset.json()).error, "ERR_NO_OTHER_WHATSAPP");
    const del = await t.request("DELETE", `/api/whatsapp/${first}`, { token: a.admin.token });
    assert.equal(del.status, 400);
    assert.equal((await del.json()).error, "ERR_NO_OTHER_WHATSAPP");

    // making another one the default moves the flag
    const move = await t.request("PUT", `/api/whatsapp/${second}`, {
      token: a.admin.token,
      body: { isDefault: true },
    });
    assert.equal(move.status, 200);
    const rows = await t.deps.db.selectFrom("whatsapps").select(["id", "isDefault"])
      .where("companyId", "=", a.id).orderBy("id").execute();
    assert.deepEqual(rows.map((r) => r.isDefault), [0, 1]);
    // now the first one can go; then the last one can go too (no connection, no default needed)
    assert.equal(
      (await t.request("DELETE", `/api/whatsapp/${first}`, { token: a.admin.token })).status,
      200,
    );
    assert.equal(
      (await t.request("DELETE", `/api/whatsapp/${second}`, { token: a.admin.token })).status,
      200,
    );
    const left = await t.deps.db.selectFrom("whatsapps").select("id").where("companyId", "=", a.id)
      .execute();
    assert.equal(left.length, 0);
    assert.equal(t.deps.sessions.provider(second), undefined);
  });
});

Deno.test("connections - the plan's connection limit is ERR_PLAN_LIMIT", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha", { plan: { connections: 1 } });
    await connectSimulator(t, a, { name: "Only" });
    const res = await t.request("POST", "/api/whatsapp", {
      token: a.admin.token,
      body: { name: "Second", provider: "simulator" },
    });
    assert.equal(res.status, 403);
    assert.equal((await res.json()).error, "ERR_PLAN_LIMIT");
  });
});

Deno.test("connections - users cannot add, edit, delete or act on sessions", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const id = await connectSimulator(t, a);
    const calls: [string, string, unknown?][] = [
      ["POST", "/api/whatsapp", { name: "Nope", provider: "simulator" }],
      ["PUT", `/api/whatsapp/${id}`, { name: "Renamed" }],
      ["DELETE", `/api/whatsapp/${id}`],
      ["POST", `/api/whatsappsession/${id}`],
      ["PUT", `/api/whatsappsession/${id}`],
      ["DELETE", `/api/whatsappsession/${id}`],
    ];
    for (const [method, path, body] of calls) {
      const res = await t.request(method, path, { token: a.user.token, body });
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal((await res.json()).error, "ERR_NO_PERMISSION");
    }
    const row = await t.deps.db.selectFrom("whatsapps").selectAll().where("id", "=", id)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, "CONNECTED");
    assert.notEqual(row.name, "Renamed");
  });
});

Deno.test("connections - company B cannot list, read, update, delete or start A's connection", async () => {
  await withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const id = await connectSimulator(t, a, { name: "Alpha line" });
    const list = await t.request("GET", "/api/whatsapp", { token: b.admin.token });
    assert.deepEqual(await list.json(), []);
    const calls: [string, string, unknown?][] = [
      ["GET", `/api/whatsapp/${id}`],
      ["PUT", `/api/whatsapp/${id}`, { name: "Stolen" }],
      ["DELETE", `/api/whatsapp/${id}`],
      ["POST", `/api/whatsappsession/${id}`],
      ["PUT", `/api/whatsappsession/${id}`],
      ["DELETE", `/api/whatsappsession/${id}`],
      ["GET", `/api/simulator/${id}`],
      ["POST", `/api/simulator/${id}/scan`],
      ["POST", `/api/simulator/${id}/messages`, { from: "5511999990000", body: "hi" }],
      ["GET", `/api/simulator/${id}/sent`],
    ];
    for (const [method, path, body] of calls) {
      const res = await t.request(method, path, { token: b.admin.token, body });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal((await res.json()).error, "ERR_NO_WAPP_FOUND", `${method} ${path}`);
    }
    const row = await t.deps.db.selectFrom("whatsapps").selectAll().where("id", "=", id)
      .executeTakeFirstOrThrow();
    assert.equal(row.name, "Alpha line");
    assert.equal(row.status, "CONNECTED");
    const messages = await t.deps.db.selectFrom("messages").select("id").execute();
    assert.equal(messages.length, 0);
  });
});

Deno.test("connections - session actions: disconnect, try again, new QR", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const id = await connectSimulator(t, a);
    let row = await t.deps.db.selectFrom("whatsapps").selectAll().where("id", "=", id)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, "CONNECTED");
    assert.match(row.number ?? "", /^5500\d{9}$/);
    assert.equal(row.qrcode, "");

    // try again keeps the link: the simulator reconnects without a QR
    const retry = await t.request("POST", `/api/whatsappsession/${id}`, { token: a.admin.token });
    assert.equal(retry.status, 200);
    assert.equal((await retry.json()).whatsapp.status, "CONNECTED");

    // disconnect logs out: DISCONNECTED, and the device is unlinked
    const off = await t.request("DELETE", `/api/whatsappsession/${id}`, { token: a.admin.token });
    assert.equal(off.status, 200);
    assert.equal((await off.json()).whatsapp.status, "DISCONNECTED");
    assert.equal(t.deps.sessions.provider(id), undefined);
    const linked = await t.deps.db.selectFrom("simulator_sessions").selectAll()
      .where("whatsappId", "=", id).execute();
    assert.equal(linked.length, 0);

    // try again now shows a QR; a new QR forgets any link and shows another one
    const start = await t.request("POST", `/api/whatsappsession/${id}`, { token: a.admin.token });
    const started = (await start.json()).whatsapp;
    assert.equal(started.status, "qrcode");
    assert.match(started.qrcode, /^data:image\/png;base64,/);
    const fresh = await t.request("PUT", `/api/whatsappsession/${id}`, { token: a.admin.token });
    const renewed = (await fresh.json()).whatsapp;
    assert.equal(renewed.status, "qrcode");
    assert.notEqual(renewed.qrcode, started.qrcode);
    row = await t.deps.db.selectFrom("whatsapps").selectAll().where("id", "=", id)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, "qrcode");
    assert.ok(row.retries >= 2);

    // scanning it connects; the answer carries the fake number
    const scan = await t.request("POST", `/api/simulator/${id}/scan`, { token: a.user.token });
    assert.equal(scan.status, 200);
    assert.equal((await scan.json()).status, "CONNECTED");
    // scanning again has no QR waiting
    const again = await t.request("POST", `/api/simulator/${id}/scan`, { token: a.user.token });
    assert.equal(again.status, 409);
    assert.equal((await again.json()).error, "ERR_WAPP_NOT_INITIALIZED");
  });
});

Deno.test("connections - restart restores CONNECTED sessions; a shown QR becomes DISCONNECTED", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const connected = await connectSimulator(t, a, { name: "Up" });
    const waiting = await t.request("POST", "/api/whatsapp", {
      token: a.admin.token,
      body: { name: "Waiting", provider: "simulator" },
    });
    const waitingId = (await waiting.json()).id;
    // a fresh session manager over the same database, as after a restart
    await t.deps.sessions.closeAll();
    const { SessionManager } = await import("../../server/whatsapp/sessions/manager.ts");
    const sessions = new SessionManager({
      ...t.deps,
      providers: t.deps.sessions.providers,
      bots: t.deps.sessions.bots,
    });
    try {
      await sessions.restoreAll();
      assert.equal(sessions.status(connected), "CONNECTED");
      const rows = await t.deps.db.selectFrom("whatsapps").select(["id", "status", "qrcode"])
        .where("companyId", "=", a.id).orderBy("id").execute();
      assert.deepEqual(rows.map((r) => [r.id, r.status, r.qrcode]), [
        [connected, "CONNECTED", ""],
        [waitingId, "DISCONNECTED", ""],
      ]);
    } finally {
      await sessions.closeAll();
    }
  });
});
