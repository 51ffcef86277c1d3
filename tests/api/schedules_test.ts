import assert from "node:assert/strict";
import { createCompany, twoCompanies, withApp } from "../helpers/app.ts";
import { addContact, addTicket } from "../helpers/tickets.ts";

Deno.test("schedules - create from a ticket with the spec's validation messages, read, edit, delete", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const contactId = await addContact(t, a.id, "Maria", "5511999990001");
    const ticket = await addTicket(t, a.id, { contactId });
    const bad = await t.request("POST", "/api/schedules", {
      token: a.user.token,
      body: { body: "oi" },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual((await bad.json()).fields, {
      body: ["Mensagem muito curta"],
      contactId: ["Obrigatório"],
      sendAt: ["Obrigatório"],
    });
    const sendAt = new Date(t.clock.now().getTime() + 3600_000).toISOString();
    const res = await t.request("POST", "/api/schedules", {
      token: a.user.token,
      body: { body: "Lembrete da reunião", contactId, sendAt, ticketId: ticket.id },
    });
    assert.equal(res.status, 201);
    const created = await res.json();
    assert.equal(created.status, "PENDENTE");
    assert.equal(created.sendAt, sendAt);
    assert.deepEqual(created.contact, { id: contactId, name: "Maria", number: "5511999990001" });
    assert.equal(created.userId, a.user.id);
    assert.equal(created.ticketId, ticket.id);

    const one = await t.request("GET", `/api/schedules/${created.id}`, { token: a.user.token });
    assert.equal((await one.json()).body, "Lembrete da reunião");
    const list = await (await t.request("GET", `/api/schedules?contactId=${contactId}`, {
      token: a.admin.token,
    })).json();
    assert.equal(list.count, 1);
    assert.equal(list.schedules[0].id, created.id);

    const edited = await t.request("PUT", `/api/schedules/${created.id}`, {
      token: a.user.token,
      body: { body: "Lembrete atualizado" },
    });
    assert.equal((await edited.json()).body, "Lembrete atualizado");
    await t.deps.db.updateTable("schedules").set({ status: "ENVIADA" }).execute();
    const sent = await t.request("PUT", `/api/schedules/${created.id}`, {
      token: a.user.token,
      body: { body: "tarde demais" },
    });
    assert.equal(sent.status, 400);
    assert.equal((await sent.json()).error, "ERR_INVALID_TRANSITION");
    const del = await t.request("DELETE", `/api/schedules/${created.id}`, { token: a.user.token });
    assert.equal(del.status, 204);
    assert.deepEqual(await t.deps.db.selectFrom("schedules").select("id").execute(), []);
  }));

Deno.test("schedules - plan without useSchedules is refused; company B sees none of A's", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const contactId = await addContact(t, a.id, "Maria", "5511999990001");
    const sendAt = new Date(t.clock.now().getTime() + 3600_000).toISOString();
    const created = await (await t.request("POST", "/api/schedules", {
      token: a.admin.token,
      body: { body: "Lembrete da reunião", contactId, sendAt },
    })).json();
    for (
      const [method, path, body] of [
        ["GET", `/api/schedules/${created.id}`, undefined],
        ["PUT", `/api/schedules/${created.id}`, { body: "hackeado!" }],
        ["DELETE", `/api/schedules/${created.id}`, undefined],
      ] as const
    ) {
      const res = await t.request(method, path, { token: b.admin.token, body });
      assert.equal(res.status, 404);
      assert.equal((await res.json()).error, "ERR_NO_SCHEDULE_FOUND");
    }
    const bList = await (await t.request("GET", "/api/schedules", { token: b.admin.token })).json();
    assert.deepEqual(bList, { schedules: [], count: 0, hasMore: false });
    const cross = await t.request("POST", "/api/schedules", {
      token: b.admin.token,
      body: { body: "para o contato de A", contactId, sendAt },
    });
    assert.equal(cross.status, 404);
    assert.equal((await cross.json()).error, "ERR_NO_CONTACT_FOUND");
    // A user sees only their own schedules.
    const userView = await t.request("GET", `/api/schedules/${created.id}`, {
      token: a.user.token,
    });
    assert.equal(userView.status, 404);

    const noPlan = await createCompany(t, "Gamma", { plan: { useSchedules: 0 } });
    const refused = await t.request("GET", "/api/schedules", { token: noPlan.admin.token });
    assert.equal(refused.status, 403);
    assert.equal((await refused.json()).error, "ERR_PLAN_FEATURE_DISABLED");
    const row = await t.deps.db.selectFrom("schedules").select("body").executeTakeFirstOrThrow();
    assert.equal(row.body, "Lembrete da reunião");
  }));
