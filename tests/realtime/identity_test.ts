import assert from "node:assert/strict";
import { publishTicketUnread } from "../../server/realtime/publish.ts";
import { SOCKET_AUTH_FAILED } from "../../server/realtime/socket.ts";
import { createCompany, createUser, login, type TestApp, withApp } from "../helpers/app.ts";
import { sockets, withServedApp } from "../helpers/admin_fixtures.ts";
import { deadline, type TestSocket } from "../helpers/server.ts";
import { addContact, addQueue, addTicket, addUserToQueues } from "../helpers/tickets.ts";

/**
 * Issue 19, sockets: a deleted user's socket is closed at once and its token opens no other;
 * a user whose queues or profile change stops hearing what it no longer may, on the socket it
 * already has (no reconnect).
 */

async function refused(wsUrl: string, token: string) {
  const ws = new WebSocket(`${wsUrl}/socket?token=${encodeURIComponent(token)}`);
  const events: unknown[] = [];
  ws.onmessage = (m) => events.push(JSON.parse(String(m.data)));
  const closed = await deadline(
    new Promise<CloseEvent>((resolve) => ws.onclose = resolve),
    5000,
    () => "the socket was not closed",
  );
  return { code: closed.code, events };
}

Deno.test("identity socket - a deleted user's socket closes at once; its token is refused after the next user logs in", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const create = async (name: string) => {
      const res = await t.request("POST", "/api/users", {
        token: a.admin.token,
        body: { name, email: `${name.toLowerCase()}@alpha.test`, password: "secret1" },
      });
      assert.equal(res.status, 201);
      return (await res.json()) as { id: number; email: string };
    };
    const v = await create("Vera");
    const vToken = (await login(t, v.email, "secret1")).token;
    await withServedApp(t, async (wsUrl) => {
      const [sv] = await sockets(wsUrl, vToken);
      const del = await t.request("DELETE", `/api/users/${v.id}`, { token: a.admin.token });
      assert.equal(del.status, 204);
      const closed = await deadline(sv.closed, 5000, () => "V's socket stayed open");
      assert.equal(closed.code, SOCKET_AUTH_FAILED);
      const w = await create("Wagner");
      assert.notEqual(w.id, v.id);
      const wToken = (await login(t, w.email, "secret1")).token;
      const again = await refused(wsUrl, vToken);
      assert.equal(again.code, SOCKET_AUTH_FAILED);
      assert.equal(again.events.length, 1);
      // W's own socket opens as W.
      const [sw] = await sockets(wsUrl, wToken);
      const ready = await sw.next((e) => e.event === "ready");
      assert.deepEqual(ready.data, { companyId: a.id, userId: w.id });
    });
  }));

/** How many `updateUnread` events for the ticket a socket has received. */
function unreadCount(socket: TestSocket, companyId: number, ticketId: number) {
  return socket.events.filter((e) =>
    e.event === `company-${companyId}-ticket` &&
    (e.data as { action?: string; ticketId?: number }).action === "updateUnread" &&
    (e.data as { ticketId?: number }).ticketId === ticketId
  ).length;
}

async function put(t: TestApp, token: string, userId: number, body: unknown) {
  const res = await t.request("PUT", `/api/users/${userId}`, { token, body });
  assert.equal(res.status, 200, await res.clone().text());
}

Deno.test("identity socket - queues, profile and allTicket changes apply to open sockets at once", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const sales = await addQueue(t, a.id, "Vendas");
    const support = await addQueue(t, a.id, "Suporte");
    await addUserToQueues(t, a.id, a.user.id, [sales]);
    const second = await createUser(t, a.id, {
      name: "Segundo",
      email: "segundo@alpha.test",
      profile: "admin",
    });
    const third = await createUser(t, a.id, { name: "Terceiro", email: "terceiro@alpha.test" });
    await t.deps.db.updateTable("users").set({ allTicket: "enable" }).where("id", "=", third.id)
      .execute();
    const third2 = await login(t, third.email, third.password);
    const contactId = await addContact(t, a.id, "Maria", "5511999990001");
    const ticket = await addTicket(t, a.id, { contactId, queueId: sales, status: "pending" });
    const placement = { status: "pending", queueId: sales, userId: null };
    await withServedApp(t, async (wsUrl) => {
      const [user, admin2, all, admin] = await sockets(
        wsUrl,
        a.user.token,
        second.token,
        third2.token,
        a.admin.token,
      );
      for (const s of [user, admin2, all, admin]) {
        s.send("joinTickets", "pending");
        s.send("joinChatBox", ticket.id);
        s.send("joinNotification");
      }
      await user.next((e) =>
        e.event === "joined" && (e.data as { event: string }).event === "joinChatBox"
      );
      await all.next((e) =>
        e.event === "joined" && (e.data as { event: string }).event === "joinNotification"
      );
      // Before: the Vendas user, the second admin and the allTicket user all hear the ticket.
      publishTicketUnread(t.deps.hub, a.id, ticket.id, placement, false);
      for (const s of [user, admin2, all, admin]) {
        await s.next((e) => unreadCount(s, a.id, ticket.id) === 1 && e.event.endsWith("-ticket"));
      }
      // The admin moves the user to Suporte and turns off allTicket for the third: neither
      // reconnects. Demoting the second admin ends its session, so its socket closes.
      await put(t, a.admin.token, a.user.id, { queueIds: [support] });
      await put(t, a.admin.token, second.id, { profile: "user" });
      await deadline(admin2.closed, 5000, () => "the demoted admin's socket stayed open");
      await put(t, a.admin.token, third.id, { allTicket: "disable" });
      publishTicketUnread(t.deps.hub, a.id, ticket.id, placement, false);
      await admin.next((e) =>
        unreadCount(admin, a.id, ticket.id) === 2 && e.event.endsWith("-ticket")
      );
      for (const s of [user, admin2, all]) await s.settle();
      assert.equal(unreadCount(user, a.id, ticket.id), 1);
      assert.equal(unreadCount(admin2, a.id, ticket.id), 1);
      assert.equal(unreadCount(all, a.id, ticket.id), 1);
      // The sockets are still open and hear what they may: a Suporte ticket reaches the user.
      const other = await addTicket(t, a.id, {
        contactId: await addContact(t, a.id, "João", "5511999990002"),
        queueId: support,
        status: "pending",
      });
      publishTicketUnread(t.deps.hub, a.id, other.id, { ...placement, queueId: support }, false);
      await user.next((e) =>
        unreadCount(user, a.id, other.id) === 1 && e.event.endsWith("-ticket")
      );
    });
  }));

Deno.test("identity socket - a session ended by a newer login or a logout closes its sockets, after the notice", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    await withServedApp(t, async (wsUrl) => {
      const [first, admin] = await sockets(wsUrl, a.user.token, a.admin.token);
      const second = await login(t, a.user.email, a.user.password);
      const closed = await deadline(
        first.closed,
        5000,
        () => "the ended session's socket stayed open",
      );
      assert.equal(closed.code, SOCKET_AUTH_FAILED);
      // The notice came first, on the same socket.
      assert.deepEqual(first.named(`company-${a.id}-auth`).map((e) => e.data), [
        { action: "otherLogin", user: { id: a.user.id } },
      ]);
      assert.equal((await refused(wsUrl, a.user.token)).code, SOCKET_AUTH_FAILED);
      // The new session's socket opens; its logout closes it; the admin's socket stays.
      const [current] = await sockets(wsUrl, second.token);
      const out = await t.request("DELETE", "/api/auth/logout", { token: second.token });
      assert.equal(out.status, 204);
      assert.equal(
        (await deadline(current.closed, 5000, () => "still open")).code,
        SOCKET_AUTH_FAILED,
      );
      assert.equal((await refused(wsUrl, second.token)).code, SOCKET_AUTH_FAILED);
      admin.send("joinNotification");
      await admin.next((e) => e.event === "joined");
    });
  }));
