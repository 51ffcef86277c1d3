import assert from "node:assert/strict";
import { twoCompanies, withApp } from "../helpers/app.ts";
import { addContact, addMessage, addTicket, addWhatsapp, scene } from "../helpers/tickets.ts";
import { MESSAGES_PAGE_SIZE } from "../../server/messages/repository.ts";

type Found = { id: number; ticketId: number; body: string; createdAt: string };

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 8, minute)).toISOString();

Deno.test("conversation search - the contact's whole history (every ticket, every connection), newest first, never another contact or company", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const s = await scene(t, a);
    const second = await addWhatsapp(t, a.id, "Segundo");
    const closed = await addTicket(t, a.id, {
      contactId: s.contactId,
      whatsappId: s.whatsappId,
      status: "closed",
      at: at(0),
    });
    const open = await addTicket(t, a.id, {
      contactId: s.contactId,
      whatsappId: s.whatsappId,
      queueId: s.q1,
    });
    const elsewhere = await addTicket(t, a.id, {
      contactId: s.contactId,
      whatsappId: second,
      status: "closed",
    });
    const oldest = await addMessage(t, a.id, {
      ticketId: closed.id,
      body: "O boleto venceu ontem",
      at: at(1),
    });
    const onOther = await addMessage(t, a.id, {
      ticketId: elsewhere.id,
      body: "Segunda via do boleto",
      at: at(2),
    });
    const newest = await addMessage(t, a.id, { ticketId: open.id, body: "Boléto pago", at: at(3) });
    // Whole words: 'boletos' is another word.
    await addMessage(t, a.id, { ticketId: open.id, body: "boletos", at: at(3) });
    await addMessage(t, a.id, { ticketId: open.id, body: "Obrigado", at: at(4) });
    // Another contact of the company and another company say the same word.
    const stranger = await addContact(t, a.id, "Outro", "5511999990002");
    const strangers = await addTicket(t, a.id, { contactId: stranger });
    await addMessage(t, a.id, { ticketId: strangers.id, body: "boleto", at: at(5) });
    const bScene = await scene(t, b);
    const bTicket = await addTicket(t, b.id, { contactId: bScene.contactId });
    await addMessage(t, b.id, { ticketId: bTicket.id, body: "boleto", at: at(6) });

    const res = await t.request("GET", `/api/messages/${open.id}/search?q=boleto`, {
      token: a.user.token,
    });
    assert.equal(res.status, 200, await res.clone().text());
    const found = (await res.json()).messages as Found[];
    assert.deepEqual(found.map((m) => m.id), [newest, onOther, oldest]);
    assert.equal(found[2].createdAt, at(1));
    assert.equal(found[1].ticketId, elsewhere.id);

    const foreign = await t.request("GET", `/api/messages/${open.id}/search?q=boleto`, {
      token: b.admin.token,
    });
    assert.equal(foreign.status, 404);
    assert.equal((await foreign.json()).error, "ERR_NO_TICKET_FOUND");
    const blank = await t.request("GET", `/api/messages/${open.id}/search?q=%20`, {
      token: a.user.token,
    });
    assert.equal(blank.status, 400);
    const none = await t.request("GET", `/api/messages/${open.id}/search?q=%22*`, {
      token: a.user.token,
    });
    assert.deepEqual(await none.json(), { messages: [] });
  }));

Deno.test("conversation search - around=<id> answers the page that holds the message; another contact's or company's message is a 404", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const s = await scene(t, a);
    const ticket = await addTicket(t, a.id, {
      contactId: s.contactId,
      whatsappId: s.whatsappId,
      queueId: s.q1,
    });
    const ids: number[] = [];
    for (let i = 0; i < 100; i++) {
      ids.push(
        await addMessage(t, a.id, { ticketId: ticket.id, body: `mensagem ${i}`, at: at(i) }),
      );
    }
    // 100 messages, newest first: message 30 has 69 after it, so it sits on page 4 of 5.
    const target = ids[30];
    const res = await t.request("GET", `/api/messages/${ticket.id}?around=${target}`, {
      token: a.user.token,
    });
    assert.equal(res.status, 200, await res.clone().text());
    const page = await res.json();
    assert.equal(page.pageNumber, Math.floor(69 / MESSAGES_PAGE_SIZE) + 1);
    assert.ok(page.messages.some((m: { id: number }) => m.id === target));
    assert.equal(page.hasMore, true);

    const stranger = await addContact(t, a.id, "Outro", "5511999990002");
    const strangers = await addTicket(t, a.id, { contactId: stranger });
    const theirs = await addMessage(t, a.id, { ticketId: strangers.id, body: "oi" });
    const other = await t.request("GET", `/api/messages/${ticket.id}?around=${theirs}`, {
      token: a.user.token,
    });
    assert.equal(other.status, 404);
    assert.equal((await other.json()).error, "ERR_NO_MESSAGE_FOUND");
    const bScene = await scene(t, b);
    const bTicket = await addTicket(t, b.id, { contactId: bScene.contactId });
    const bMessage = await addMessage(t, b.id, { ticketId: bTicket.id, body: "oi" });
    const foreign = await t.request("GET", `/api/messages/${ticket.id}?around=${bMessage}`, {
      token: a.user.token,
    });
    assert.equal(foreign.status, 404);
    assert.equal((await foreign.json()).error, "ERR_NO_MESSAGE_FOUND");
  }));
