import assert from "node:assert/strict";
import { twoCompanies, withApp } from "../helpers/app.ts";
import { addContact, addMessage, addTicket, scene, ticketRow } from "../helpers/tickets.ts";

Deno.test("messages list - newest page first, ascending inside, with the contact's earlier tickets", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    const old = await addTicket(t, a.id, {
      contactId: s.contactId,
      whatsappId: s.whatsappId,
      status: "closed",
      queueId: s.q1,
    });
    const current = await addTicket(t, a.id, {
      contactId: s.contactId,
      whatsappId: s.whatsappId,
      queueId: s.q1,
      status: "open",
      userId: a.user.id,
    });
    // Another contact's ticket never mixes in.
    const c2 = await addContact(t, a.id, "Joao", "5511999990002");
    const foreign = await addTicket(t, a.id, { contactId: c2, whatsappId: s.whatsappId });
    await addMessage(t, a.id, { ticketId: foreign.id, body: "not mine" });
    const ids: number[] = [];
    for (let i = 0; i < 25; i++) {
      const at = new Date(Date.parse("2026-11-01T10:00:00Z") + i * 1000).toISOString();
      ids.push(
        await addMessage(t, a.id, { ticketId: i < 5 ? old.id : current.id, body: `m${i}`, at }),
      );
    }
    const quoted = await addMessage(t, a.id, {
      ticketId: current.id,
      body: "reply",
      quotedMsgId: ids[0],
      at: "2026-11-01T11:00:00.000Z",
      fromMe: true,
    });
    ids.push(quoted);

    const first = await t.request("GET", `/api/messages/${current.id}`, { token: a.user.token });
    assert.equal(first.status, 200);
    const page1 = await first.json();
    assert.equal(page1.count, 26);
    assert.equal(page1.hasMore, true);
    assert.deepEqual(page1.messages.map((m: { id: number }) => m.id), ids.slice(6));
    const last = page1.messages.at(-1);
    assert.equal(last.fromMe, true);
    assert.equal(last.quotedMsg.id, ids[0]);
    assert.equal(last.quotedMsg.body, "m0");
    assert.equal(page1.ticket.id, current.id);

    const second = await t.request("GET", `/api/messages/${current.id}?pageNumber=2`, {
      token: a.user.token,
    });
    const page2 = await second.json();
    assert.deepEqual(page2.messages.map((m: { id: number }) => m.id), ids.slice(0, 6));
    assert.equal(page2.hasMore, false);
    // The earlier ticket's messages carry their ticketId, for the 'conversation ended' marker.
    assert.equal(page2.messages[0].ticketId, old.id);
  }));

Deno.test("messages list - marks the ticket read unless peeking", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    const ticket = await addTicket(t, a.id, {
      contactId: s.contactId,
      queueId: s.q1,
      status: "open",
      userId: a.user.id,
      unreadMessages: 2,
    });
    const m1 = await addMessage(t, a.id, { ticketId: ticket.id, body: "oi" });
    await addMessage(t, a.id, { ticketId: ticket.id, body: "tudo bem?" });
    const peek = await t.request("GET", `/api/messages/${ticket.id}?peek=true`, {
      token: a.admin.token,
    });
    assert.equal(peek.status, 200);
    assert.equal((await ticketRow(t, ticket.id)).unreadMessages, 2);

    const res = await t.request("GET", `/api/messages/${ticket.id}`, { token: a.user.token });
    const body = await res.json();
    assert.equal(body.ticket.unreadMessages, 0);
    assert.equal((await ticketRow(t, ticket.id)).unreadMessages, 0);
    const unread = await t.deps.db.selectFrom("messages").select("id").where("read", "=", 0)
      .execute();
    assert.deepEqual(unread, []);
    assert.ok(body.messages.some((m: { id: number }) => m.id === m1));
  }));

Deno.test("messages list - another queue is 403, another company 404, nothing marked read", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const s = await scene(t, a);
    const ticket = await addTicket(t, a.id, {
      contactId: s.contactId,
      queueId: s.q2,
      unreadMessages: 1,
    });
    await addMessage(t, a.id, { ticketId: ticket.id, body: "segredo" });
    const user = await t.request("GET", `/api/messages/${ticket.id}`, { token: a.user.token });
    assert.equal(user.status, 403);
    const other = await t.request("GET", `/api/messages/${ticket.id}`, { token: b.admin.token });
    assert.equal(other.status, 404);
    assert.equal((await other.json()).error, "ERR_NO_TICKET_FOUND");
    assert.equal((await ticketRow(t, ticket.id)).unreadMessages, 1);
  }));
