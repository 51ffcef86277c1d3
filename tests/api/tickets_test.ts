import assert from "node:assert/strict";
import { createUser, twoCompanies, withApp } from "../helpers/app.ts";
import {
  addContact,
  addMessage,
  addQueue,
  addTicket,
  addWhatsapp,
  scene,
  ticketRow,
} from "../helpers/tickets.ts";

Deno.test("tickets show - by id and uuid; another queue is 403 'Acesso não permitido'; another company 404", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const s = await scene(t, a);
    const c2 = await addContact(t, a.id, "Joao", "5511999990002");
    const inQueue = await addTicket(t, a.id, { contactId: s.contactId, queueId: s.q1 });
    const elsewhere = await addTicket(t, a.id, { contactId: c2, queueId: s.q2 });

    const byId = await t.request("GET", `/api/tickets/${inQueue.id}`, { token: a.user.token });
    assert.equal(byId.status, 200);
    const body = await byId.json();
    assert.equal(body.id, inQueue.id);
    assert.equal(body.uuid, inQueue.uuid);
    assert.equal(body.contact.name, "Maria Souza");
    assert.deepEqual(body.queue, { id: s.q1, name: "Vendas", color: body.queue.color });
    assert.deepEqual(body.tags, []);
    const byUuid = await t.request("GET", `/api/tickets/u/${inQueue.uuid}`, {
      token: a.user.token,
    });
    assert.equal((await byUuid.json()).id, inQueue.id);

    for (const path of [`/api/tickets/${elsewhere.id}`, `/api/tickets/u/${elsewhere.uuid}`]) {
      const res = await t.request("GET", path, { token: a.user.token });
      assert.equal(res.status, 403);
      assert.deepEqual(await res.json(), {
        error: "ERR_NO_PERMISSION",
        message: "Acesso não permitido",
      });
    }
    assert.equal(
      (await t.request("GET", `/api/tickets/${elsewhere.id}`, { token: a.admin.token })).status,
      200,
    );
    for (const path of [`/api/tickets/${inQueue.id}`, `/api/tickets/u/${inQueue.uuid}`]) {
      const res = await t.request("GET", path, { token: b.admin.token });
      assert.equal(res.status, 404);
      assert.equal((await res.json()).error, "ERR_NO_TICKET_FOUND");
    }
    const missing = await t.request("GET", "/api/tickets/999999", { token: a.admin.token });
    assert.deepEqual(await missing.json(), {
      error: "ERR_NO_TICKET_FOUND",
      message: "Ticket not found",
    });
  }));

Deno.test("tickets create - opens for the caller on the default connection; queue required for users", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    const noQueue = await t.request("POST", "/api/tickets", {
      token: a.user.token,
      body: { contactId: s.contactId, status: "open" },
    });
    assert.equal(noQueue.status, 400);
    assert.deepEqual(await noQueue.json(), {
      error: "ERR_VALIDATION",
      message: "Selecione uma fila",
      fields: { queueId: ["Selecione uma fila"] },
      rules: { queueId: "custom" },
    });
    // A queue that is not the user's is refused.
    const foreignQueue = await t.request("POST", "/api/tickets", {
      token: a.user.token,
      body: { contactId: s.contactId, queueId: s.q2, status: "open" },
    });
    assert.equal(foreignQueue.status, 403);

    const res = await t.request("POST", "/api/tickets", {
      token: a.user.token,
      body: { contactId: s.contactId, queueId: s.q1, userId: a.user.id, status: "open" },
    });
    assert.equal(res.status, 201);
    const ticket = await res.json();
    assert.equal(ticket.status, "open");
    assert.equal(ticket.userId, a.user.id);
    assert.equal(ticket.whatsappId, s.whatsappId);
    assert.equal(ticket.queueId, s.q1);
    const row = await ticketRow(t, ticket.id);
    assert.equal(row.acceptedAt, t.clock.now().toISOString());
    assert.equal(row.companyId, a.id);

    // Admins need no queue.
    const c2 = await addContact(t, a.id, "Joao", "5511999990002");
    const admin = await t.request("POST", "/api/tickets", {
      token: a.admin.token,
      body: { contactId: c2, status: "open" },
    });
    assert.equal(admin.status, 201);
    assert.equal((await admin.json()).queueId, null);
  }));

Deno.test("tickets create - an open ticket of the contact is 409 with the owner and queue as JSON", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    const other = await createUser(t, a.id, { name: "Carla", email: "carla@alpha.test" });
    const existing = await addTicket(t, a.id, {
      contactId: s.contactId,
      whatsappId: s.whatsappId,
      queueId: s.q1,
      userId: other.id,
      status: "open",
    });
    const res = await t.request("POST", "/api/tickets", {
      token: a.user.token,
      body: { contactId: s.contactId, queueId: s.q1, status: "open" },
    });
    assert.equal(res.status, 409);
    const body = await res.json();
    assert.equal(body.error, "ERR_OTHER_OPEN_TICKET");
    const detail = JSON.parse(body.message);
    assert.equal(detail.id, existing.id);
    assert.equal(detail.uuid, existing.uuid);
    assert.equal(detail.userId, other.id);
    assert.deepEqual(detail.user, { id: other.id, name: "Carla" });
    assert.deepEqual(detail.queue, { id: s.q1, name: "Vendas" });
    const count = await t.deps.db.selectFrom("tickets").select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 1);
  }));

Deno.test("tickets create - no default connection, and records of another company, are refused", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const contact = await addContact(t, a.id, "Maria", "5511999990001");
    const none = await t.request("POST", "/api/tickets", {
      token: a.admin.token,
      body: { contactId: contact },
    });
    assert.equal(none.status, 400);
    assert.equal((await none.json()).error, "ERR_NO_DEF_WAPP_FOUND");

    await addWhatsapp(t, a.id, "A1", { isDefault: true });
    const bQueue = await addQueue(t, b.id, "B fila");
    const bWhatsapp = await addWhatsapp(t, b.id, "B1", { isDefault: true });
    const bContact = await addContact(t, b.id, "Bob", "5511999990009");
    const cases: [Record<string, unknown>, string][] = [
      [{ contactId: bContact }, "ERR_NO_CONTACT_FOUND"],
      [{ contactId: contact, queueId: bQueue }, "ERR_NO_QUEUE_FOUND"],
      [{ contactId: contact, whatsappId: bWhatsapp }, "ERR_NO_WAPP_FOUND"],
      [{ contactId: contact, userId: b.user.id }, "ERR_NO_USER_FOUND"],
    ];
    for (const [body, code] of cases) {
      const res = await t.request("POST", "/api/tickets", { token: a.admin.token, body });
      assert.equal(res.status, 404, JSON.stringify(body));
      assert.equal((await res.json()).error, code);
    }
    const count = await t.deps.db.selectFrom("tickets").select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 0);
  }));

Deno.test("tickets delete - admins only; messages go with it; another company gets 404", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const s = await scene(t, a);
    const ticket = await addTicket(t, a.id, { contactId: s.contactId, queueId: s.q1 });
    await addMessage(t, a.id, { ticketId: ticket.id, body: "olá" });
    const byUser = await t.request("DELETE", `/api/tickets/${ticket.id}`, { token: a.user.token });
    assert.equal(byUser.status, 403);
    const byB = await t.request("DELETE", `/api/tickets/${ticket.id}`, { token: b.admin.token });
    assert.equal(byB.status, 404);
    assert.equal((await byB.json()).error, "ERR_NO_TICKET_FOUND");
    const res = await t.request("DELETE", `/api/tickets/${ticket.id}`, { token: a.admin.token });
    assert.equal(res.status, 204);
    const left = await t.deps.db.selectFrom("messages").select("id").execute();
    assert.deepEqual(left, []);
    const again = await t.request("DELETE", `/api/tickets/${ticket.id}`, { token: a.admin.token });
    assert.equal(again.status, 404);
  }));
