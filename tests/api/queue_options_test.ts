import assert from "node:assert/strict";
import { type TestApp, twoCompanies, withApp } from "../helpers/app.ts";
import { sockets, withServedApp } from "../helpers/admin_fixtures.ts";

async function queueOf(t: TestApp, token: string, name: string, color: string) {
  const res = await t.request("POST", "/api/queue", { token, body: { name, color } });
  assert.equal(res.status, 201);
  return (await res.json()) as { id: number };
}

async function option(t: TestApp, token: string, body: Record<string, unknown>) {
  const res = await t.request("POST", "/api/queue-options", { token, body });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()) as { id: number; option: string; parentId: number | null };
}

Deno.test("queue options - a tree is built level by level and read back in menu order", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const token = a.admin.token;
    const q = await queueOf(t, token, "Vendas", "#FFF");
    const ten = await option(t, token, { title: "Outros", option: "10", queueId: q.id });
    const one = await option(t, token, {
      title: "Orçamento",
      message: "Escolha o produto",
      option: 1,
      queueId: q.id,
      parentId: -1,
    });
    const two = await option(t, token, {
      title: "Pedidos",
      option: "2",
      queueId: q.id,
      parentId: null,
    });
    const child = await option(t, token, {
      title: "Camisetas",
      option: "1",
      queueId: q.id,
      parentId: one.id,
    });
    const grandchild = await option(t, token, {
      title: "Tamanho P",
      option: "1",
      queueId: q.id,
      parentId: child.id,
    });
    assert.equal(one.option, "1");
    const roots = await (await t.request("GET", `/api/queue-options?queueId=${q.id}&parentId=-1`, {
      token,
    })).json();
    assert.deepEqual(
      roots.map((o: { id: number; childrenCount: number }) => [o.id, o.childrenCount]),
      [[one.id, 1], [two.id, 0], [ten.id, 0]],
    );
    assert.equal(roots[0].message, "Escolha o produto");
    const same = await (await t.request("GET", `/api/queue-options?queueId=${q.id}`, { token }))
      .json();
    assert.deepEqual(same, roots);
    const children = await (await t.request(
      "GET",
      `/api/queue-options?queueId=${q.id}&parentId=${one.id}`,
      { token },
    )).json();
    assert.deepEqual(children.map((o: { id: number }) => o.id), [child.id]);
    const tree =
      await (await t.request("GET", `/api/queue-options/tree?queueId=${q.id}`, { token }))
        .json();
    assert.deepEqual(tree.map((o: { id: number }) => o.id), [one.id, two.id, ten.id]);
    assert.equal(tree[0].children[0].id, child.id);
    assert.equal(tree[0].children[0].children[0].id, grandchild.id);
    const rows = await t.deps.db.selectFrom("queue_options").select(["id", "parentId", "companyId"])
      .orderBy("id").execute();
    assert.equal(rows.length, 5);
    assert.ok(rows.every((r) => r.companyId === a.id));
  }));

Deno.test("queue options - an answer is unique among siblings; parents of other queues or companies are refused", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const q = await queueOf(t, a.admin.token, "Vendas", "#FFF");
    const other = await queueOf(t, a.admin.token, "Suporte", "#000");
    const bq = await queueOf(t, b.admin.token, "Beta", "#FFF");
    const root = await option(t, a.admin.token, { title: "Um", option: "1", queueId: q.id });
    const bRoot = await option(t, b.admin.token, { title: "Beta", option: "1", queueId: bq.id });
    const dup = await t.request("POST", "/api/queue-options", {
      token: a.admin.token,
      body: { title: "Outro um", option: " 1 ", queueId: q.id },
    });
    assert.equal(dup.status, 409);
    assert.equal((await dup.json()).error, "ERR_CONFLICT");
    // the same answer one level down is fine
    await option(t, a.admin.token, { title: "Sub", option: "1", queueId: q.id, parentId: root.id });
    const crossQueue = await t.request("POST", "/api/queue-options", {
      token: a.admin.token,
      body: { title: "X", option: "2", queueId: other.id, parentId: root.id },
    });
    assert.equal(crossQueue.status, 400);
    assert.deepEqual((await crossQueue.json()).fields.parentId, [
      "A opção pai pertence a outra fila",
    ]);
    const crossCompany = await t.request("POST", "/api/queue-options", {
      token: a.admin.token,
      body: { title: "X", option: "2", queueId: q.id, parentId: bRoot.id },
    });
    assert.equal(crossCompany.status, 404);
    assert.equal((await crossCompany.json()).error, "ERR_NO_QUEUE_OPTION_FOUND");
    const foreignQueue = await t.request("POST", "/api/queue-options", {
      token: a.admin.token,
      body: { title: "X", option: "2", queueId: bq.id },
    });
    assert.equal(foreignQueue.status, 404);
    assert.equal((await foreignQueue.json()).error, "ERR_NO_QUEUE_FOUND");
    const invalid = await t.request("POST", "/api/queue-options", {
      token: a.admin.token,
      body: { title: "", option: "", queueId: q.id },
    });
    assert.equal(invalid.status, 400);
    assert.deepEqual(Object.keys((await invalid.json()).fields).sort(), ["option", "title"]);
    const back = await t.request("POST", "/api/queue-options", {
      token: a.admin.token,
      body: { title: "Voltar", option: "#", queueId: q.id },
    });
    assert.equal(back.status, 400);
    assert.equal((await back.json()).error, "ERR_VALIDATION");
    const count = await t.deps.db.selectFrom("queue_options").select((eb) =>
      eb.fn.countAll().as("n")
    )
      .where("companyId", "=", a.id).executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 2);
  }));

Deno.test("queue options update - edits fields, moves within the queue, never into itself", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const token = a.admin.token;
    const q = await queueOf(t, token, "Vendas", "#FFF");
    const other = await queueOf(t, token, "Suporte", "#000");
    const one = await option(t, token, { title: "Um", option: "1", queueId: q.id });
    const two = await option(t, token, { title: "Dois", option: "2", queueId: q.id });
    const child = await option(t, token, {
      title: "Filho",
      option: "1",
      queueId: q.id,
      parentId: one.id,
    });
    const res = await t.request("PUT", `/api/queue-options/${two.id}`, {
      token,
      body: { title: "Dois!", message: "msg", option: "3" },
    });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.deepEqual([body.title, body.message, body.option, body.parentId], [
      "Dois!",
      "msg",
      "3",
      null,
    ]);
    const cycle = await t.request("PUT", `/api/queue-options/${one.id}`, {
      token,
      body: { parentId: child.id },
    });
    assert.equal(cycle.status, 400);
    const moveQueue = await t.request("PUT", `/api/queue-options/${one.id}`, {
      token,
      body: { queueId: other.id },
    });
    assert.equal(moveQueue.status, 400);
    const clash = await t.request("PUT", `/api/queue-options/${two.id}`, {
      token,
      body: { option: "1" },
    });
    assert.equal(clash.status, 409);
    const moved = await t.request("PUT", `/api/queue-options/${two.id}`, {
      token,
      body: { parentId: one.id },
    });
    assert.equal(moved.status, 200);
    assert.equal((await moved.json()).parentId, one.id);
    const back = await t.request("PUT", `/api/queue-options/${two.id}`, {
      token,
      body: { parentId: -1 },
    });
    assert.equal((await back.json()).parentId, null);
    const row = await t.deps.db.selectFrom("queue_options").selectAll().where("id", "=", one.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual([row.parentId, row.queueId], [null, q.id]);
  }));

Deno.test("queue options delete - children go with their parent, with their media; admins hear it", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const token = a.admin.token;
    const q = await queueOf(t, token, "Vendas", "#FFF");
    const keep = await option(t, token, { title: "Fica", option: "2", queueId: q.id });
    const one = await option(t, token, { title: "Um", option: "1", queueId: q.id });
    const child = await option(t, token, {
      title: "Filho",
      option: "1",
      queueId: q.id,
      parentId: one.id,
    });
    const grand = await option(t, token, {
      title: "Neto",
      option: "1",
      queueId: q.id,
      parentId: child.id,
    });
    const form = new FormData();
    form.append("file", new File(["img"], "foto.png", { type: "image/png" }));
    const upload = await t.request("POST", `/api/queue-options/${grand.id}/media-upload`, {
      token,
      body: form,
    });
    assert.equal(upload.status, 200);
    const uploaded = await upload.json();
    assert.equal(uploaded.mediaName, "foto.png");
    const media = await t.request("GET", uploaded.mediaUrl, { token });
    assert.equal(media.headers.get("content-type"), "image/png");
    assert.equal(await media.text(), "img");
    const stored = await t.deps.db.selectFrom("queue_options").select("mediaPath")
      .where("id", "=", grand.id).executeTakeFirstOrThrow();
    await withServedApp(t, async (wsUrl) => {
      const [admin, user] = await sockets(wsUrl, a.admin.token, a.user.token);
      const res = await t.request("DELETE", `/api/queue-options/${one.id}`, { token });
      assert.equal(res.status, 204);
      const ev = await admin.next((e) => e.event === `company-${a.id}-queue`);
      assert.deepEqual(ev.data, {
        action: "optionDelete",
        queueId: q.id,
        optionId: one.id,
        optionIds: [one.id, child.id, grand.id],
      });
      await user.settle();
      assert.equal(user.events.filter((e) => e.event.endsWith("-queue")).length, 0);
    });
    const left = await t.deps.db.selectFrom("queue_options").select("id").execute();
    assert.deepEqual(left.map((r) => r.id), [keep.id]);
    await assert.rejects(Deno.stat(`${t.dir}/media/${stored.mediaPath}`), Deno.errors.NotFound);
  }));

Deno.test("queue options - users are refused; company B cannot read, change or hear company A's options", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const q = await queueOf(t, a.admin.token, "Vendas", "#FFF");
    const opt = await option(t, a.admin.token, { title: "Um", option: "1", queueId: q.id });
    const byUser = await t.request("GET", `/api/queue-options?queueId=${q.id}`, {
      token: a.user.token,
    });
    assert.equal(byUser.status, 403);
    await withServedApp(t, async (wsUrl) => {
      const [sa, sb] = await sockets(wsUrl, a.admin.token, b.admin.token);
      const list = await t.request("GET", `/api/queue-options?queueId=${q.id}`, {
        token: b.admin.token,
      });
      assert.equal(list.status, 404);
      assert.equal((await list.json()).error, "ERR_NO_QUEUE_FOUND");
      const tree = await t.request("GET", `/api/queue-options/tree?queueId=${q.id}`, {
        token: b.admin.token,
      });
      assert.equal(tree.status, 404);
      for (
        const [method, path, body] of [
          ["GET", `/api/queue-options/${opt.id}`, undefined],
          ["PUT", `/api/queue-options/${opt.id}`, { title: "Hacked" }],
          ["DELETE", `/api/queue-options/${opt.id}`, undefined],
        ] as const
      ) {
        const res = await t.request(method, path, { token: b.admin.token, body });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.equal((await res.json()).error, "ERR_NO_QUEUE_OPTION_FOUND");
      }
      // A's own change is heard by A, not by B
      await t.request("PUT", `/api/queue-options/${opt.id}`, {
        token: a.admin.token,
        body: { title: "Um!" },
      });
      await sa.next((e) => e.event === `company-${a.id}-queue`);
      await sb.settle();
      assert.equal(sb.events.filter((e) => e.event.endsWith("-queue")).length, 0);
    });
    const row = await t.deps.db.selectFrom("queue_options").select("title").where("id", "=", opt.id)
      .executeTakeFirstOrThrow();
    assert.equal(row.title, "Um!");
  }));
