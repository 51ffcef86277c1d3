import assert from "node:assert/strict";
import { createUser, twoCompanies, withApp } from "../helpers/app.ts";
import { addTicket, scene } from "../helpers/tickets.ts";

Deno.test("ticket notes - add, list newest first with the author's name, delete by author or admin", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    const ticket = await addTicket(t, a.id, { contactId: s.contactId, queueId: s.q1 });
    const short = await t.request("POST", "/api/ticket-notes", {
      token: a.user.token,
      body: { note: " x ", ticketId: ticket.id, contactId: s.contactId },
    });
    assert.equal(short.status, 400);
    assert.equal((await short.json()).error, "ERR_VALIDATION");

    const first = await t.request("POST", "/api/ticket-notes", {
      token: a.user.token,
      body: { note: "Cliente pediu retorno", ticketId: ticket.id, contactId: s.contactId },
    });
    assert.equal(first.status, 201);
    const note = await first.json();
    assert.equal(note.note, "Cliente pediu retorno");
    assert.deepEqual(note.user, { id: a.user.id, name: "Alpha User" });
    t.clock.advance(1000);
    await t.request("POST", "/api/ticket-notes", {
      token: a.admin.token,
      body: { note: "Segunda nota", ticketId: ticket.id, contactId: s.contactId },
    });
    const list = await t.request(
      "GET",
      `/api/ticket-notes/list?ticketId=${ticket.id}&contactId=${s.contactId}`,
      { token: a.user.token },
    );
    const notes = await list.json();
    assert.deepEqual(notes.map((n: { note: string }) => n.note), [
      "Segunda nota",
      "Cliente pediu retorno",
    ]);
    assert.equal(notes[0].user.name, "Alpha Admin");

    const colleague = await createUser(t, a.id, { name: "Carla", email: "carla@alpha.test" });
    await t.deps.db.insertInto("user_queues").values({
      companyId: a.id,
      userId: colleague.id,
      queueId: s.q1,
    }).execute();
    const notMine = await t.request("DELETE", `/api/ticket-notes/${note.id}`, {
      token: colleague.token,
    });
    assert.equal(notMine.status, 403);
    const del = await t.request("DELETE", `/api/ticket-notes/${note.id}`, { token: a.user.token });
    assert.equal(del.status, 204);
    const left = await t.deps.db.selectFrom("ticket_notes").select("note").execute();
    assert.deepEqual(left, [{ note: "Segunda nota" }]);
  }));

Deno.test("ticket notes - company B and users outside the queue cannot read, add or delete", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const s = await scene(t, a);
    const ticket = await addTicket(t, a.id, { contactId: s.contactId, queueId: s.q2 });
    const created = await t.request("POST", "/api/ticket-notes", {
      token: a.admin.token,
      body: { note: "Privado", ticketId: ticket.id, contactId: s.contactId },
    });
    const note = await created.json();
    const listPath = `/api/ticket-notes/list?ticketId=${ticket.id}&contactId=${s.contactId}`;
    const bList = await t.request("GET", listPath, { token: b.admin.token });
    assert.equal(bList.status, 404);
    assert.equal((await bList.json()).error, "ERR_NO_TICKET_FOUND");
    const bAdd = await t.request("POST", "/api/ticket-notes", {
      token: b.admin.token,
      body: { note: "intruso", ticketId: ticket.id, contactId: s.contactId },
    });
    assert.equal(bAdd.status, 404);
    const bDel = await t.request("DELETE", `/api/ticket-notes/${note.id}`, {
      token: b.admin.token,
    });
    assert.equal(bDel.status, 404);
    assert.equal((await bDel.json()).error, "ERR_NO_NOTE_FOUND");
    const userList = await t.request("GET", listPath, { token: a.user.token });
    assert.equal(userList.status, 403);
    const wrongContact = await t.request("POST", "/api/ticket-notes", {
      token: a.admin.token,
      body: { note: "errado", ticketId: ticket.id, contactId: s.contactId + 1000 },
    });
    assert.equal(wrongContact.status, 400);
    const count = await t.deps.db.selectFrom("ticket_notes").select("id").execute();
    assert.equal(count.length, 1);
  }));
