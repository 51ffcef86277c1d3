import assert from "node:assert/strict";
import { createUser, twoCompanies } from "../helpers/app.ts";
import { type SocketEvent, TestSocket, withServer } from "../helpers/server.ts";
import { addQueue } from "../helpers/tickets.ts";
import { connectSimulator, phoneSends } from "../whatsapp/helpers.ts";

/**
 * Issue 42, the frozen chat: A and B attend queue Q; B accepts ticket T; A opens T (the API lets
 * them: T is in their queue) and follows its chat. When the contact writes, A's screen must hear
 * it as B's does: whoever may read a ticket hears its events (contract/ticket_audience.ts).
 * Before the one audience rule, socket delivery kept an assigned ticket's events for its owner
 * and admins, and A's chat froze.
 */

const CONTACT = "5511977776666";

const messageOf = (companyId: number, ticketId: number, body: string) => (e: SocketEvent) => {
  const data = e.data as { action?: string; message?: { ticketId?: number; body?: string } };
  return e.event === `company-${companyId}-appMessage` && data.action === "create" &&
    data.message?.ticketId === ticketId && data.message?.body === body;
};

Deno.test("frozen chat - A opens B's ticket of their shared queue and hears the contact write", () =>
  withServer(async (t, wsUrl) => {
    const { a, b } = await twoCompanies(t);
    const queue = await addQueue(t, a.id, "Suporte");
    const userA = await createUser(t, a.id, {
      name: "Ana",
      email: "ana@alpha.test",
      queueIds: [queue],
    });
    const userB = await createUser(t, a.id, {
      name: "Bia",
      email: "bia@alpha.test",
      queueIds: [queue],
    });
    const outsider = await createUser(t, a.id, { name: "Otto", email: "otto@alpha.test" });
    const whatsappId = await connectSimulator(t, a);
    const first = await phoneSends(t, a.admin.token, whatsappId, {
      from: CONTACT,
      name: "Cliente",
      body: "Oi",
    });
    const ticketId = first.ticketId!;
    const moved = await t.request("PUT", `/api/tickets/${ticketId}`, {
      token: a.admin.token,
      body: { queueId: queue, status: "pending", userId: null },
    });
    assert.equal(moved.status, 200, await moved.clone().text());
    const accepted = await t.request("PUT", `/api/tickets/${ticketId}`, {
      token: userB.token,
      body: { status: "open", userId: userB.id },
    });
    assert.equal(accepted.status, 200, await accepted.clone().text());

    // A opens T: the API allows it.
    const opened = await t.request("GET", `/api/tickets/${ticketId}`, { token: userA.token });
    assert.equal(opened.status, 200);
    const sockets = {
      a: await TestSocket.connect(wsUrl, userA.token),
      b: await TestSocket.connect(wsUrl, userB.token),
      outsider: await TestSocket.connect(wsUrl, outsider.token),
      foreign: await TestSocket.connect(wsUrl, b.admin.token),
    };
    try {
      // Each follows the chat as the ticket page does; the outsider is refused.
      for (const socket of [sockets.a, sockets.b, sockets.outsider]) {
        socket.send("joinChatBox", String(ticketId));
        socket.send("joinTickets", "open");
        await socket.settle();
      }
      assert.ok(sockets.a.events.some((e) => e.event === "joined"));
      assert.ok(sockets.outsider.named("error").length > 0);

      const written = await phoneSends(t, a.admin.token, whatsappId, {
        from: CONTACT,
        name: "Cliente",
        body: "Ainda estou aqui?",
      });
      assert.equal(written.ticketId, ticketId);
      await sockets.b.next(messageOf(a.id, ticketId, "Ainda estou aqui?"));
      await sockets.a.next(messageOf(a.id, ticketId, "Ainda estou aqui?"));
      await sockets.outsider.settle();
      await sockets.foreign.settle();
      assert.equal(
        sockets.outsider.events.some(messageOf(a.id, ticketId, "Ainda estou aqui?")),
        false,
      );
      assert.equal(
        sockets.foreign.events.some((e) => e.event.startsWith(`company-${a.id}-`)),
        false,
      );
    } finally {
      for (const socket of Object.values(sockets)) await socket.close();
    }
  }));
