import assert from "node:assert/strict";
import { type TestApp, type TestCompany, twoCompanies, withApp } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { connectSimulator, phoneSends, sentBy } from "../whatsapp/helpers.ts";
import { EDIT_WINDOW_MINUTES } from "../../contract/validation.ts";
import { type SocketEvent, TestSocket, withServer } from "../helpers/server.ts";

/**
 * PUT /api/messages/:id {body} (issue 28 item 4): a text we sent is edited through the provider
 * within EDIT_WINDOW_MINUTES; the replaced texts are kept; the contact's own edits are kept the
 * same way.
 */

const MARIA = "5511988887777";

async function openTicket(t: TestApp, a: TestCompany) {
  const whatsappId = await connectSimulator(t, a);
  const delivery = await phoneSends(t, a.admin.token, whatsappId, {
    from: MARIA,
    name: "Maria",
    body: "Oi",
  });
  const ticketId = delivery.ticketId!;
  const accepted = await t.request("PUT", `/api/tickets/${ticketId}`, {
    token: a.admin.token,
    body: { action: "accept" },
  });
  assert.equal(accepted.status, 200);
  return { whatsappId, ticketId, inbound: { id: delivery.id!, wid: delivery.wid! } };
}

/** Sends a text and waits until the phone has it (the edit goes to a sent message). */
async function sent(t: TestApp, a: TestCompany, s: { whatsappId: number; ticketId: number }) {
  const res = await t.request("POST", `/api/messages/${s.ticketId}`, {
    token: a.admin.token,
    body: { body: "Seu pedido sai amanhã" },
  });
  assert.equal(res.status, 201);
  const [message] = (await res.json()).messages;
  await eventually(async () =>
    (await sentBy(t, a.admin.token, s.whatsappId)).some((m) => m.id === message.wid)
  );
  return message as { id: number; wid: string };
}

const edit = (t: TestApp, token: string, id: number, body: unknown) =>
  t.request("PUT", `/api/messages/${id}`, { token, body });

Deno.test("edit - within the window the phone shows the new text edited, the old one is kept, the ticket's room hears it", () =>
  withServer(async (t, wsUrl) => {
    const { a } = await twoCompanies(t);
    const s = await openTicket(t, a);
    const message = await sent(t, a, s);
    const socket = await TestSocket.connect(wsUrl, a.admin.token);
    try {
      socket.send("joinChatBox", String(s.ticketId));
      await socket.settle();
      t.clock.advance((EDIT_WINDOW_MINUTES * 60 - 5) * 1000);
      const res = await edit(t, a.admin.token, message.id, { body: "Seu pedido sai hoje" });
      assert.equal(res.status, 200, await res.clone().text());
      const view = await res.json();
      assert.equal(view.body, "Seu pedido sai hoje");
      assert.equal(view.isEdited, true);
      assert.equal(view.previousBodies.length, 1);
      assert.equal(view.previousBodies[0].body, "Seu pedido sai amanhã");
      type Update = { action: string; message: { id: number; body: string } };
      const isEdit = (e: SocketEvent) =>
        e.event.endsWith("-appMessage") && (e.data as Update).action === "update" &&
        (e.data as Update).message.id === message.id &&
        (e.data as Update).message.body === "Seu pedido sai hoje";
      assert.ok(await socket.next(isEdit));
    } finally {
      await socket.close();
    }
    const phone = (await sentBy(t, a.admin.token, s.whatsappId)).find((m) => m.id === message.wid)!;
    assert.equal(phone.body, "Seu pedido sai hoje");
    assert.equal((phone as unknown as { edited: boolean }).edited, true);

    // A second edit keeps both earlier texts, oldest first.
    const again = await edit(t, a.admin.token, message.id, { body: "Saiu!" });
    assert.deepEqual(
      (await again.json()).previousBodies.map((p: { body: string }) => p.body),
      ["Seu pedido sai amanhã", "Seu pedido sai hoje"],
    );
  }));

Deno.test("edit - after the window, a contact's message, or another company's message: refused with their codes", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const s = await openTicket(t, a);
    const message = await sent(t, a, s);
    // Sent a second more than the window ago (moving the clock would also expire the token).
    const sentAt = new Date(t.clock.now().getTime() - (EDIT_WINDOW_MINUTES * 60 + 1) * 1000);
    await t.deps.db.updateTable("messages").set({ createdAt: sentAt.toISOString() })
      .where("id", "=", message.id).execute();
    const late = await edit(t, a.admin.token, message.id, { body: "tarde" });
    assert.equal(late.status, 400);
    assert.equal((await late.json()).error, "ERR_EDIT_WINDOW_EXPIRED");

    const theirs = await edit(t, a.admin.token, s.inbound.id, { body: "não é nosso" });
    assert.equal(theirs.status, 400);
    assert.equal((await theirs.json()).error, "ERR_EDIT_WAPP_MSG");

    const foreign = await edit(t, b.admin.token, message.id, { body: "de outra empresa" });
    assert.equal(foreign.status, 404);
    assert.equal((await foreign.json()).error, "ERR_NO_MESSAGE_FOUND");
    const missing = await edit(t, a.admin.token, 999_999, { body: "nada" });
    assert.equal((await missing.json()).error, "ERR_NO_MESSAGE_FOUND");

    const blank = await edit(t, a.admin.token, message.id, { body: "   " });
    assert.equal(blank.status, 400);
    assert.equal((await blank.json()).error, "ERR_VALIDATION");

    // Nothing changed on the phone or in the database.
    const phone = (await sentBy(t, a.admin.token, s.whatsappId)).find((m) => m.id === message.wid)!;
    assert.equal(phone.body, "Seu pedido sai amanhã");
    const row = await t.deps.db.selectFrom("messages").selectAll()
      .where("id", "=", message.id).executeTakeFirstOrThrow();
    assert.equal(row.isEdited, 0);
    assert.equal(row.previousBodies, null);
  }));

Deno.test("edit - another attendant's ticket is refused to a user", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await openTicket(t, a);
    const message = await sent(t, a, s);
    const res = await edit(t, a.user.token, message.id, { body: "meu texto" });
    assert.equal(res.status, 403);
    assert.equal((await res.json()).error, "ERR_NO_PERMISSION");
  }));

Deno.test("edit - the contact's edits arrive the same way: edited, the previous text kept once", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await openTicket(t, a);
    const body = { from: MARIA, id: s.inbound.wid, body: "Oi, tudo bem?" };
    for (let i = 0; i < 2; i++) {
      // A redelivered edit adds no second entry.
      const res = await t.request("POST", `/api/simulator/${s.whatsappId}/edit`, {
        token: a.admin.token,
        body,
      });
      assert.equal(res.status, 200, await res.clone().text());
    }
    const page = await t.request("GET", `/api/messages/${s.ticketId}`, { token: a.admin.token });
    const message = (await page.json()).messages.find((m: { id: number }) => m.id === s.inbound.id);
    assert.equal(message.body, "Oi, tudo bem?");
    assert.equal(message.isEdited, true);
    assert.deepEqual(message.previousBodies.map((p: { body: string }) => p.body), ["Oi"]);
  }));

type TicketUpdate = { action: string; ticket: { id: number; lastMessage: string } };

/** The ticket's preview in the database and in GET /api/tickets (the lists' first page). */
async function preview(t: TestApp, a: TestCompany, ticketId: number) {
  const row = await t.deps.db.selectFrom("tickets").select(["lastMessage", "updatedAt"])
    .where("companyId", "=", a.id).where("id", "=", ticketId).executeTakeFirstOrThrow();
  const res = await t.request("GET", "/api/tickets?status=open", { token: a.admin.token });
  assert.equal(res.status, 200);
  const listed = (await res.json()).tickets.find((x: { id: number }) => x.id === ticketId);
  assert.equal(listed.lastMessage, row.lastMessage, "the list shows what the database holds");
  return row;
}

/** The preview a `ticket` update of this ticket carries, as the lists receive it. */
const previewIn = (e: SocketEvent, ticketId: number) =>
  e.event.endsWith("-ticket") && (e.data as TicketUpdate).action === "update" &&
    (e.data as TicketUpdate).ticket.id === ticketId
    ? (e.data as TicketUpdate).ticket.lastMessage
    : undefined;

/** The `ticket` updates of one ticket a socket heard. */
const ticketUpdates = (socket: TestSocket, ticketId: number) =>
  socket.events.filter((e) => previewIn(e, ticketId) !== undefined);

Deno.test("edit - our edit of the ticket's newest message is its preview (database, list, live); an older one's is not", () =>
  withServer(async (t, wsUrl) => {
    const { a } = await twoCompanies(t);
    const s = await openTicket(t, a);
    const first = await sent(t, a, s);
    const socket = await TestSocket.connect(wsUrl, a.admin.token);
    try {
      socket.send("joinTickets", "open");
      await socket.settle();
      const before = await preview(t, a, s.ticketId);
      assert.equal(before.lastMessage, "Seu pedido sai amanhã");

      const res = await edit(t, a.admin.token, first.id, { body: "Seu pedido sai hoje" });
      assert.equal(res.status, 200, await res.clone().text());
      const after = await preview(t, a, s.ticketId);
      assert.equal(after.lastMessage, "Seu pedido sai hoje");
      // An edit does not move the chat up the lists (they sort by updatedAt).
      assert.equal(after.updatedAt, before.updatedAt);
      await socket.next((e) => previewIn(e, s.ticketId) === "Seu pedido sai hoje");

      // A newer message is the preview now: editing the older one leaves it, and says nothing.
      const second = await t.request("POST", `/api/messages/${s.ticketId}`, {
        token: a.admin.token,
        body: { body: "Mais alguma coisa?" },
      });
      assert.equal(second.status, 201);
      await socket.settle();
      const heard = ticketUpdates(socket, s.ticketId).length;
      const older = await edit(t, a.admin.token, first.id, { body: "Saiu!" });
      assert.equal(older.status, 200, await older.clone().text());
      assert.equal((await older.json()).body, "Saiu!");
      assert.equal((await preview(t, a, s.ticketId)).lastMessage, "Mais alguma coisa?");
      await socket.settle();
      assert.equal(ticketUpdates(socket, s.ticketId).length, heard);
    } finally {
      await socket.close();
    }
  }));

Deno.test("edit - the contact's edit of the newest message is the preview, live; of an older one, not", () =>
  withServer(async (t, wsUrl) => {
    const { a } = await twoCompanies(t);
    const s = await openTicket(t, a);
    const contactEdits = async (body: string) => {
      const res = await t.request("POST", `/api/simulator/${s.whatsappId}/edit`, {
        token: a.admin.token,
        body: { from: MARIA, id: s.inbound.wid, body },
      });
      assert.equal(res.status, 200, await res.clone().text());
    };
    const socket = await TestSocket.connect(wsUrl, a.admin.token);
    try {
      socket.send("joinTickets", "open");
      await socket.settle();
      assert.equal((await preview(t, a, s.ticketId)).lastMessage, "Oi");
      await contactEdits("Oi, tudo bem?");
      assert.equal((await preview(t, a, s.ticketId)).lastMessage, "Oi, tudo bem?");
      await socket.next((e) => previewIn(e, s.ticketId) === "Oi, tudo bem?");

      await sent(t, a, s);
      await socket.settle();
      const heard = ticketUpdates(socket, s.ticketId).length;
      await contactEdits("Oi, tudo bem? Cadê meu pedido?");
      assert.equal((await preview(t, a, s.ticketId)).lastMessage, "Seu pedido sai amanhã");
      await socket.settle();
      assert.equal(ticketUpdates(socket, s.ticketId).length, heard);
    } finally {
      await socket.close();
    }
  }));

/** Does the list (GET /api/tickets) say the ticket's newest message was deleted? */
async function listedDeleted(t: TestApp, a: TestCompany, ticketId: number) {
  const res = await t.request("GET", "/api/tickets?status=open", { token: a.admin.token });
  const listed = (await res.json()).tickets.find((x: { id: number }) => x.id === ticketId);
  return listed.lastMessageDeleted === true;
}

const deletedIn = (e: SocketEvent, ticketId: number) =>
  previewIn(e, ticketId) !== undefined &&
  (e.data as { ticket: { lastMessageDeleted?: boolean } }).ticket.lastMessageDeleted === true;

Deno.test("delete - a deleted-for-everyone newest message leaves the preview (ours, the contact's), live; an older one does not", () =>
  withServer(async (t, wsUrl) => {
    const { a } = await twoCompanies(t);
    const s = await openTicket(t, a);
    const socket = await TestSocket.connect(wsUrl, a.admin.token);
    try {
      socket.send("joinTickets", "open");
      await socket.settle();
      // The contact deletes its "Oi", the newest message: its text leaves the preview.
      const revoked = await t.request("POST", `/api/simulator/${s.whatsappId}/revoke`, {
        token: a.admin.token,
        body: { from: MARIA, id: s.inbound.wid },
      });
      assert.equal(revoked.status, 200, await revoked.clone().text());
      assert.equal((await preview(t, a, s.ticketId)).lastMessage, "");
      assert.equal(await listedDeleted(t, a, s.ticketId), true);
      await socket.next((e) => deletedIn(e, s.ticketId));

      // Ours: the preview is our text, then deleted with it, in the delete's transaction.
      const mine = await sent(t, a, s);
      assert.equal((await preview(t, a, s.ticketId)).lastMessage, "Seu pedido sai amanhã");
      assert.equal(await listedDeleted(t, a, s.ticketId), false);
      await socket.settle();
      const heard = ticketUpdates(socket, s.ticketId).length;
      const removed = await t.request("DELETE", `/api/messages/${mine.id}`, {
        token: a.admin.token,
      });
      assert.equal(removed.status, 200, await removed.clone().text());
      assert.equal((await preview(t, a, s.ticketId)).lastMessage, "");
      assert.equal(await listedDeleted(t, a, s.ticketId), true);
      await socket.next((e) => deletedIn(e, s.ticketId));

      // A newer message is the preview: deleting an older one leaves it and tells no list.
      const older = await sent(t, a, s);
      const newer = await t.request("POST", `/api/messages/${s.ticketId}`, {
        token: a.admin.token,
        body: { body: "Mais alguma coisa?" },
      });
      assert.equal(newer.status, 201);
      await socket.settle();
      const before = ticketUpdates(socket, s.ticketId).length;
      assert.ok(before > heard);
      const oldRemoved = await t.request("DELETE", `/api/messages/${older.id}`, {
        token: a.admin.token,
      });
      assert.equal(oldRemoved.status, 200);
      assert.equal((await preview(t, a, s.ticketId)).lastMessage, "Mais alguma coisa?");
      assert.equal(await listedDeleted(t, a, s.ticketId), false);
      await socket.settle();
      assert.equal(ticketUpdates(socket, s.ticketId).length, before);
    } finally {
      await socket.close();
    }
  }));

Deno.test("edit - a signed text keeps its signature: the new text goes under it, to the phone too", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await openTicket(t, a);
    const res = await t.request("POST", `/api/messages/${s.ticketId}`, {
      token: a.admin.token,
      body: { body: "*Beto Atendente:*\nSeu pedido sai amanhã" },
    });
    assert.equal(res.status, 201);
    const [message] = (await res.json()).messages as { id: number; wid: string }[];
    // On the phone, and its outbox row marked sent: an edit in between is refused as "being sent".
    await eventually(async () =>
      (await sentBy(t, a.admin.token, s.whatsappId)).some((m) => m.id === message.wid) &&
      (await t.deps.db.selectFrom("outbox").select("status").where("messageId", "=", message.id)
          .executeTakeFirst())?.status === "sent"
    );
    // The dialog sends the text only.
    const edited = await edit(t, a.admin.token, message.id, { body: "Seu pedido sai hoje" });
    assert.equal(edited.status, 200, await edited.clone().text());
    const view = await edited.json();
    assert.equal(view.body, "*Beto Atendente:*\nSeu pedido sai hoje");
    assert.equal(view.previousBodies[0].body, "*Beto Atendente:*\nSeu pedido sai amanhã");
    const phone = (await sentBy(t, a.admin.token, s.whatsappId)).find((m) => m.id === message.wid)!;
    assert.equal(phone.body, "*Beto Atendente:*\nSeu pedido sai hoje");
    // A client that sends the signature itself does not get it twice.
    const again = await edit(t, a.admin.token, message.id, {
      body: "*Beto Atendente:*\nSaiu!",
    });
    assert.equal((await again.json()).body, "*Beto Atendente:*\nSaiu!");
  }));
