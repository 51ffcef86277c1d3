import assert from "node:assert/strict";
import { twoCompanies, withApp } from "../helpers/app.ts";
import { addContact, addTicket, scene } from "../helpers/tickets.ts";
import { sockets, withServedApp } from "../helpers/admin_fixtures.ts";

Deno.test("tags - create with validation, page with ticketsCount, list, update, delete", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    const short = await t.request("POST", "/api/tags", {
      token: a.user.token,
      body: { name: "ab" },
    });
    assert.equal(short.status, 400);
    assert.deepEqual((await short.json()).fields, { name: ["Mensagem muito curta"] });
    const missing = await t.request("POST", "/api/tags", { token: a.user.token, body: {} });
    assert.deepEqual((await missing.json()).fields, { name: ["Obrigatório"] });
    // The kanban switch is an admin's.
    const kanbanByUser = await t.request("POST", "/api/tags", {
      token: a.user.token,
      body: { name: "Lane", kanban: 1 },
    });
    assert.equal(kanbanByUser.status, 403);

    const vip = await (await t.request("POST", "/api/tags", {
      token: a.user.token,
      body: { name: "VIP", color: "#ff0000" },
    })).json();
    assert.deepEqual(
      [vip.name, vip.color, vip.kanban],
      ["VIP", "#ff0000", false],
    );
    const dup = await t.request("POST", "/api/tags", {
      token: a.user.token,
      body: { name: "vip" },
    });
    assert.equal(dup.status, 409);
    assert.equal((await dup.json()).error, "ERR_DUPLICATED_NAME");
    const lane = await (await t.request("POST", "/api/tags", {
      token: a.admin.token,
      body: { name: "Em andamento", kanban: 1 },
    })).json();
    assert.equal(lane.kanban, true);

    const ticket = await addTicket(t, a.id, { contactId: s.contactId, queueId: s.q1 });
    const sync = await t.request("POST", "/api/tags/sync", {
      token: a.user.token,
      body: { ticketId: ticket.id, tags: [{ id: vip.id }, { id: lane.id }] },
    });
    assert.equal(sync.status, 200);
    assert.deepEqual((await sync.json()).tags.map((g: { name: string }) => g.name), [
      "Em andamento",
      "VIP",
    ]);
    const page = await (await t.request("GET", "/api/tags?searchParam=vi", {
      token: a.user.token,
    })).json();
    assert.equal(page.count, 1);
    assert.equal(page.hasMore, false);
    assert.equal(page.tags[0].ticketsCount, 1);
    const all = await (await t.request("GET", "/api/tags/list", { token: a.user.token })).json();
    assert.deepEqual(all.map((g: { name: string }) => g.name), ["Em andamento", "VIP"]);
    const kanban = await (await t.request("GET", "/api/tags/kanban", { token: a.user.token }))
      .json();
    assert.deepEqual(kanban.lista.map((g: { id: number }) => g.id), [lane.id]);

    const renamed = await t.request("PUT", `/api/tags/${vip.id}`, {
      token: a.user.token,
      body: { name: "Cliente VIP" },
    });
    assert.equal((await renamed.json()).name, "Cliente VIP");
    const one = await t.request("GET", `/api/tags/${vip.id}`, { token: a.user.token });
    assert.equal((await one.json()).name, "Cliente VIP");

    // Sync replaces: an empty list removes every tag of the ticket.
    await t.request("POST", "/api/tags/sync", {
      token: a.user.token,
      body: { ticketId: ticket.id, tags: [{ id: lane.id }] },
    });
    const del = await t.request("DELETE", `/api/tags/${lane.id}`, { token: a.user.token });
    assert.equal(del.status, 204);
    const links = await t.deps.db.selectFrom("ticket_tags").selectAll().execute();
    assert.deepEqual(links, []);
  }));

Deno.test("tags - company B cannot read, change, delete or attach A's tags; A cannot tag B's tickets", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const s = await scene(t, a);
    const tag = await (await t.request("POST", "/api/tags", {
      token: a.admin.token,
      body: { name: "Segredo" },
    })).json();
    const bTicketContact = await addContact(t, b.id, "Bob", "5511999990009");
    const bTicket = await addTicket(t, b.id, { contactId: bTicketContact });
    for (
      const [method, path, body] of [
        ["GET", `/api/tags/${tag.id}`, undefined],
        ["PUT", `/api/tags/${tag.id}`, { name: "Hacked" }],
        ["DELETE", `/api/tags/${tag.id}`, undefined],
        ["POST", "/api/tags/sync", { ticketId: bTicket.id, tags: [{ id: tag.id }] }],
      ] as const
    ) {
      const res = await t.request(method, path, { token: b.admin.token, body });
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal((await res.json()).error, "ERR_NO_TAG_FOUND");
    }
    const list = await (await t.request("GET", "/api/tags/list", { token: b.admin.token })).json();
    assert.deepEqual(list, []);
    const aTicket = await addTicket(t, a.id, { contactId: s.contactId });
    const cross = await t.request("POST", "/api/tags/sync", {
      token: b.admin.token,
      body: { ticketId: aTicket.id, tags: [] },
    });
    assert.equal(cross.status, 404);
    assert.equal((await cross.json()).error, "ERR_NO_TICKET_FOUND");
    const row = await t.deps.db.selectFrom("tags").select("name").executeTakeFirstOrThrow();
    assert.equal(row.name, "Segredo");
  }));

Deno.test("tags - a colour must be a hex colour; nothing is stored or changed otherwise", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    for (const color of ["red", "#12345", "#abcdeg", "#1234567", "url(x)", "#fff;x", ""]) {
      const res = await t.request("POST", "/api/tags", {
        token: a.admin.token,
        body: { name: `Cor ${color}`, color },
      });
      assert.equal(res.status, 400, color);
      const body = await res.json();
      assert.equal(body.error, "ERR_VALIDATION");
      assert.deepEqual(body.fields, { color: ["Cor inválida"] }, color);
    }
    assert.equal((await t.deps.db.selectFrom("tags").selectAll().execute()).length, 0);
    const ok = [];
    for (const color of ["#abc", "#ABCD", "#a1b2c3", "#A1B2C3D4"]) {
      const res = await t.request("POST", "/api/tags", {
        token: a.admin.token,
        body: { name: `Cor ${color}`, color },
      });
      assert.equal(res.status, 201, color);
      ok.push(await res.json());
    }
    const bad = await t.request("PUT", `/api/tags/${ok[0].id}`, {
      token: a.admin.token,
      body: { color: "blue" },
    });
    assert.equal(bad.status, 400);
    const row = await t.deps.db.selectFrom("tags").select("color").where("id", "=", ok[0].id)
      .executeTakeFirstOrThrow();
    assert.equal(row.color, "#abc");
  }));

Deno.test("tags - live: create, update with its ticket count, a sync's counts and delete reach the company only", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const s = await scene(t, a);
    await withServedApp(t, async (wsUrl) => {
      const [sa, sb] = await sockets(wsUrl, a.user.token, b.admin.token);
      const channel = `company-${a.id}-tag`;
      const tag = await (await t.request("POST", "/api/tags", {
        token: a.admin.token,
        body: { name: "Urgente", color: "#ff0000" },
      })).json();
      const created = await sa.next((e) => e.event === channel);
      assert.deepEqual(created.data, { action: "create", record: tag, tag });
      assert.equal(tag.ticketsCount, 0);

      const ticket = await addTicket(t, a.id, { contactId: s.contactId, queueId: s.q1 });
      await t.request("POST", "/api/tags/sync", {
        token: a.admin.token,
        body: { ticketId: ticket.id, tags: [{ id: tag.id }] },
      });
      const counted = await sa.next((e) =>
        e.event === channel && (e.data as { record?: { ticketsCount?: number } }).record
            ?.ticketsCount === 1
      );
      assert.equal((counted.data as { action: string }).action, "update");

      const renamed = await (await t.request("PUT", `/api/tags/${tag.id}`, {
        token: a.admin.token,
        body: { name: "Muito urgente" },
      })).json();
      assert.equal(renamed.ticketsCount, 1);
      await sa.next((e) =>
        e.event === channel && (e.data as { record?: { name?: string } }).record?.name ===
          "Muito urgente"
      );
      await t.request("DELETE", `/api/tags/${tag.id}`, { token: a.admin.token });
      const deleted = await sa.next((e) =>
        e.event === channel && (e.data as { action: string }).action === "delete"
      );
      assert.deepEqual(deleted.data, { action: "delete", id: tag.id, tagId: tag.id });
      await sb.settle();
      assert.equal(sb.events.filter((e) => e.event.endsWith("-tag")).length, 0);
    });
  }));
