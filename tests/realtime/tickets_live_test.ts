import assert from "node:assert/strict";
import { createUser, twoCompanies } from "../helpers/app.ts";
import { type SocketEvent, TestSocket, withServer } from "../helpers/server.ts";
import { addMessage, addQueue, addTicket, addUserToQueues, scene } from "../helpers/tickets.ts";

/** Connects and joins the status lists and the notification room, as the tickets page does. */
async function attendant(wsUrl: string, token: string): Promise<TestSocket> {
  const socket = await TestSocket.connect(wsUrl, token);
  for (const status of ["pending", "open", "closed"]) socket.send("joinTickets", status);
  socket.send("joinNotification");
  // The joins are handled in order; a round trip makes sure they are in place.
  socket.send("joinChatBox", "0");
  await socket.next((e) => e.event === "error");
  return socket;
}

type TicketEvent = { action: string; ticket?: { id: number; status: string }; ticketId?: number };

const ticketEvents = (s: TestSocket, companyId: number) =>
  s.events.filter((e) => e.event === `company-${companyId}-ticket`).map((e) =>
    e.data as TicketEvent
  );

const isTicket = (companyId: number, action: string, id: number) => (e: SocketEvent) => {
  const data = e.data as TicketEvent;
  return e.event === `company-${companyId}-ticket` && data.action === action &&
    (data.ticket?.id === id || data.ticketId === id);
};

Deno.test("live tickets - an accept reaches the queue's other attendant, not another queue, never company B", () =>
  withServer(async (t, wsUrl) => {
    const { a, b } = await twoCompanies(t);
    const s = await scene(t, a);
    const colleague = await createUser(t, a.id, {
      name: "Carla",
      email: "carla@alpha.test",
      queueIds: [s.q1],
    });
    const outsider = await createUser(t, a.id, {
      name: "Otto",
      email: "otto@alpha.test",
      queueIds: [s.q2],
    });
    const ticket = await addTicket(t, a.id, {
      contactId: s.contactId,
      queueId: s.q1,
      whatsappId: s.whatsappId,
    });
    const sockets = {
      owner: await attendant(wsUrl, a.user.token),
      colleague: await attendant(wsUrl, colleague.token),
      outsider: await attendant(wsUrl, outsider.token),
      admin: await attendant(wsUrl, a.admin.token),
      foreign: await attendant(wsUrl, b.admin.token),
    };
    try {
      const res = await t.request("PUT", `/api/tickets/${ticket.id}`, {
        token: a.user.token,
        body: { status: "open", userId: a.user.id },
      });
      assert.equal(res.status, 200);
      const seen = await sockets.colleague.next(isTicket(a.id, "update", ticket.id));
      const data = seen.data as { ticket: { status: string; userId: number } };
      assert.equal(data.ticket.status, "open");
      assert.equal(data.ticket.userId, a.user.id);
      await sockets.admin.next(isTicket(a.id, "update", ticket.id));
      await sockets.outsider.settle();
      assert.deepEqual(ticketEvents(sockets.outsider, a.id), []);
      assert.equal(
        sockets.foreign.events.some((e) => e.event.startsWith(`company-${a.id}-`)),
        false,
      );

      // A transfer to q2 reaches the former owner (to remove it) and q2's attendant (to add it).
      const moved = await t.request("PUT", `/api/tickets/${ticket.id}`, {
        token: a.admin.token,
        body: { queueId: s.q2, status: "pending", userId: null },
      });
      assert.equal(moved.status, 200);
      const added = await sockets.outsider.next(isTicket(a.id, "update", ticket.id));
      assert.equal((added.data as TicketEvent).ticket?.status, "pending");
      await sockets.owner.next((e) =>
        isTicket(a.id, "update", ticket.id)(e) &&
        (e.data as TicketEvent).ticket?.status === "pending"
      );

      // Delete: everyone who could see it hears it; company B hears nothing.
      const del = await t.request("DELETE", `/api/tickets/${ticket.id}`, { token: a.admin.token });
      assert.equal(del.status, 204);
      await sockets.outsider.next(isTicket(a.id, "delete", ticket.id));
      await sockets.admin.next(isTicket(a.id, "delete", ticket.id));
      await sockets.foreign.settle();
      assert.equal(
        sockets.foreign.events.some((e) => e.event.startsWith(`company-${a.id}-`)),
        false,
      );
    } finally {
      for (const socket of Object.values(sockets)) await socket.close();
    }
  }));

Deno.test("live tickets - reading messages publishes updateUnread; tags sync publishes the ticket", () =>
  withServer(async (t, wsUrl) => {
    const { a, b } = await twoCompanies(t);
    const s = await scene(t, a);
    const colleague = await createUser(t, a.id, {
      name: "Carla",
      email: "carla@alpha.test",
      queueIds: [s.q1],
    });
    const ticket = await addTicket(t, a.id, {
      contactId: s.contactId,
      queueId: s.q1,
      unreadMessages: 2,
    });
    await addMessage(t, a.id, { ticketId: ticket.id, body: "oi" });
    const watcher = await attendant(wsUrl, colleague.token);
    const foreign = await attendant(wsUrl, b.admin.token);
    try {
      await t.request("GET", `/api/messages/${ticket.id}`, { token: a.user.token });
      await watcher.next(isTicket(a.id, "updateUnread", ticket.id));
      const tag = await (await t.request("POST", "/api/tags", {
        token: a.admin.token,
        body: { name: "VIP" },
      })).json();
      await watcher.next((e) => e.event === `company-${a.id}-tag`);
      await t.request("POST", "/api/tags/sync", {
        token: a.user.token,
        body: { ticketId: ticket.id, tags: [{ id: tag.id }] },
      });
      const synced = await watcher.next((e) =>
        isTicket(a.id, "update", ticket.id)(e) &&
        (e.data as { ticket: { tags: unknown[] } }).ticket.tags.length === 1
      );
      assert.ok(synced);
      await foreign.settle();
      assert.equal(foreign.events.some((e) => e.event.startsWith(`company-${a.id}-`)), false);
    } finally {
      await watcher.close();
      await foreign.close();
    }
  }));

Deno.test("live tickets - a new ticket in another queue is not announced to a user outside it", () =>
  withServer(async (t, wsUrl) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    const q3 = await addQueue(t, a.id, "Financeiro");
    await addUserToQueues(t, a.id, a.admin.id, [q3]);
    const watcher = await attendant(wsUrl, a.user.token);
    const adminSocket = await attendant(wsUrl, a.admin.token);
    try {
      const res = await t.request("POST", "/api/tickets", {
        token: a.admin.token,
        body: { contactId: s.contactId, queueId: q3, status: "pending" },
      });
      assert.equal(res.status, 201);
      const created = await res.json();
      assert.equal(created.userId, null);
      await adminSocket.next(isTicket(a.id, "update", created.id));
      await watcher.settle();
      assert.deepEqual(ticketEvents(watcher, a.id), []);
    } finally {
      await watcher.close();
      await adminSocket.close();
    }
  }));

Deno.test("live tickets - allTicket users hear pending tickets of every queue, never groups", () =>
  withServer(async (t, wsUrl) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    const wide = await createUser(t, a.id, { name: "Wide", email: "wide@alpha.test" });
    await t.deps.db.updateTable("users").set({ allTicket: "enable" }).where("id", "=", wide.id)
      .execute();
    const narrow = await createUser(t, a.id, { name: "Narrow", email: "narrow@alpha.test" });
    const q3 = await addQueue(t, a.id, "Financeiro");
    const wideSocket = await attendant(wsUrl, wide.token);
    const narrowSocket = await attendant(wsUrl, narrow.token);
    try {
      const res = await t.request("POST", "/api/tickets", {
        token: a.admin.token,
        body: { contactId: s.contactId, queueId: q3, status: "pending" },
      });
      const created = await res.json();
      await wideSocket.next(isTicket(a.id, "update", created.id));
      await narrowSocket.settle();
      assert.deepEqual(ticketEvents(narrowSocket, a.id), []);
    } finally {
      await wideSocket.close();
      await narrowSocket.close();
    }
  }));
