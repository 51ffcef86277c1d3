import assert from "node:assert/strict";
import { createTestApp, login, type TestApp, twoCompanies } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { serve, TestSocket, withServer } from "../helpers/server.ts";
import { SOCKET_AUTH_FAILED } from "../../server/realtime/socket.ts";

async function insertTicket(t: TestApp, companyId: number) {
  const stamp = t.clock.now().toISOString();
  const contact = await t.deps.db.insertInto("contacts").values({
    uuid: crypto.randomUUID(),
    companyId,
    name: "Maria",
    number: `55119${Math.floor(Math.random() * 1e8)}`,
    lid: null,
    whatsappId: null,
    createdAt: stamp,
    updatedAt: stamp,
  }).returning("id").executeTakeFirstOrThrow();
  return await t.deps.db.insertInto("tickets").values({
    uuid: crypto.randomUUID(),
    companyId,
    contactId: contact.id,
    whatsappId: null,
    userId: null,
    queueId: null,
    queueOptionId: null,
    integrationId: null,
    promptId: null,
    acceptedAt: null,
    closedAt: null,
    createdAt: stamp,
    updatedAt: stamp,
  }).returning("id").executeTakeFirstOrThrow();
}

/** Opens /socket`query`, sends `first` once open, and answers what came before the close. */
async function refused(wsUrl: string, query: string, first?: unknown) {
  const ws = new WebSocket(`${wsUrl}/socket${query}`);
  const events: unknown[] = [];
  ws.onmessage = (m) => events.push(JSON.parse(String(m.data)));
  if (first !== undefined) ws.onopen = () => ws.send(JSON.stringify(first));
  const closed = await new Promise<CloseEvent>((resolve) => ws.onclose = resolve);
  return { code: closed.code, reason: closed.reason, events };
}

Deno.test("socket - a bad or missing token gets an error event and a close; not a WebSocket is a 400", () =>
  withServer(async (t, wsUrl, url) => {
    const res = await fetch(`${url}/socket?token=bad`);
    assert.equal(res.status, 400);
    assert.equal((await res.json()).error, "ERR_VALIDATION");
    const cases: [string, unknown, string][] = [
      ["?token=bad", undefined, "ERR_UNAUTHORIZED"],
      ["?token=", undefined, "ERR_SESSION_EXPIRED"],
      ["", { event: "auth", data: { token: "bad" } }, "ERR_UNAUTHORIZED"],
      ["", { event: "joinNotification" }, "ERR_SESSION_EXPIRED"],
      ["", "not an object", "ERR_SESSION_EXPIRED"],
    ];
    for (const [query, first, code] of cases) {
      assert.deepEqual(await refused(wsUrl, query, first), {
        code: SOCKET_AUTH_FAILED,
        reason: code,
        events: [{ event: "error", data: { error: code } }],
      });
    }
    assert.equal([...t.deps.hub.members()].length, 0);
  }));

Deno.test("socket - the token in the first message (never in the URL) opens the socket; the query form still works", () =>
  withServer(async (t, wsUrl) => {
    const { a } = await twoCompanies(t);
    const byMessage = await TestSocket.connect(wsUrl, a.admin.token, "message");
    const byQuery = await TestSocket.connect(wsUrl, a.user.token, "query");
    for (const socket of [byMessage, byQuery]) {
      socket.send("joinNotification");
      await socket.next((e) => e.event === "joined");
    }
    assert.deepEqual(byMessage.named("ready")[0].data, { companyId: a.id, userId: a.admin.id });
    assert.deepEqual(byQuery.named("ready")[0].data, { companyId: a.id, userId: a.user.id });
    // Only the first message is read as the token: a second `auth` is an unknown event.
    byMessage.send("auth", { token: a.user.token });
    const error = await byMessage.next((e) => e.event === "error");
    assert.deepEqual(error.data, { error: "ERR_VALIDATION", message: "unknown event" });
    await byMessage.close();
    await byQuery.close();
  }));

Deno.test("socket - a client gone in the middle of the handshake does not hold up shutdown", async () => {
  const t = await createTestApp();
  const s = serve(t);
  try {
    const { a } = await twoCompanies(t);
    const { port } = new URL(s.url);
    for (let i = 0; i < 5; i++) {
      const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) });
      await conn.write(new TextEncoder().encode(
        `GET /socket?token=${a.admin.token} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n` +
          "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" +
          "Sec-WebSocket-Version: 13\r\n\r\n",
      ));
      conn.close();
    }
    // The server has answered the five upgrades (then the clients are gone): shutdown must cope.
    await eventually(() => s.answered() >= 5, { what: "the five upgrades answered" });
  } finally {
    t.deps.hub.closeAll();
    // Rejects (naming what is in flight) if the server cannot shut down: the old handshake hung.
    await s.close();
    await t.close();
  }
});

Deno.test("socket - a company's events never reach another company's sockets", () =>
  withServer(async (t, wsUrl) => {
    const { a, b } = await twoCompanies(t);
    const sa = await TestSocket.connect(wsUrl, a.admin.token);
    const sb = await TestSocket.connect(wsUrl, b.admin.token);
    sa.send("joinTickets", "pending");
    sb.send("joinTickets", "pending");
    sa.send("joinNotification");
    sb.send("joinNotification");
    await sa.settle();
    await sb.settle();
    const delivered = t.deps.hub.publish(a.id, "ticket", { action: "update", ticket: { id: 1 } }, [
      { kind: "company" },
      { kind: "status", status: "pending" },
      { kind: "notification" },
    ]);
    assert.equal(delivered, 1);
    const got = await sa.next((e) => e.event === `company-${a.id}-ticket`);
    assert.deepEqual(got.data, { action: "update", ticket: { id: 1 } });
    await sb.settle();
    assert.equal(sb.events.filter((e) => e.event.includes("-ticket")).length, 0);
    await sa.close();
    await sb.close();
  }));

Deno.test("socket - joinChatBox for another company's ticket is refused and receives nothing", () =>
  withServer(async (t, wsUrl) => {
    const { a, b } = await twoCompanies(t);
    const ticketB = await insertTicket(t, b.id);
    const sa = await TestSocket.connect(wsUrl, a.admin.token);
    sa.send("joinChatBox", ticketB.id);
    const err = await sa.next((e) => e.event === "error");
    assert.deepEqual(err.data, { error: "ERR_NO_TICKET_FOUND" });
    t.deps.hub.publish(b.id, "appMessage", { action: "create" }, [{
      kind: "ticket",
      ticketId: ticketB.id,
    }]);
    await sa.settle();
    assert.equal(sa.events.filter((e) => e.event.includes("appMessage")).length, 0);

    assert.equal(sa.named("joined").length, 0, "a refused join is not confirmed");

    // An allowed join is confirmed: events published after the confirmation reach the socket.
    const ticketA = await insertTicket(t, a.id);
    sa.send("joinChatBox", ticketA.id);
    const joined = await sa.next((e) => e.event === "joined");
    assert.deepEqual(joined.data, { event: "joinChatBox", data: ticketA.id });
    t.deps.hub.publish(a.id, "appMessage", { action: "create", ticketId: ticketA.id }, [
      { kind: "ticket", ticketId: ticketA.id },
    ]);
    const got = await sa.next((e) => e.event === `company-${a.id}-appMessage`);
    assert.deepEqual(got.data, { action: "create", ticketId: ticketA.id });
    await sa.close();
  }));

Deno.test("socket - joinTickets and joinNotification are confirmed once joined; a bad status is refused", () =>
  withServer(async (t, wsUrl) => {
    const { a } = await twoCompanies(t);
    const sa = await TestSocket.connect(wsUrl, a.admin.token);
    sa.send("joinTickets", "pending");
    const joined = await sa.next((e) => e.event === "joined");
    assert.deepEqual(joined.data, { event: "joinTickets", data: "pending" });
    t.deps.hub.publish(a.id, "ticket", { action: "update" }, [{
      kind: "status",
      status: "pending",
    }]);
    await sa.next((e) => e.event === `company-${a.id}-ticket`);

    sa.send("joinNotification");
    await sa.next((e) =>
      e.event === "joined" && (e.data as { event: string }).event === "joinNotification"
    );
    sa.send("joinTickets", "archived");
    const err = await sa.next((e) => e.event === "error");
    assert.deepEqual(err.data, { error: "ERR_VALIDATION" });
    assert.equal(sa.named("joined").length, 2);
    await sa.close();
  }));

Deno.test("socket - a second login sends 'auth' to the first session only", () =>
  withServer(async (t, wsUrl) => {
    const { a } = await twoCompanies(t);
    const first = await TestSocket.connect(wsUrl, a.user.token);
    const other = await TestSocket.connect(wsUrl, a.admin.token);
    await login(t, a.user.email, a.user.password);
    const event = await first.next((e) => e.event === `company-${a.id}-auth`);
    assert.deepEqual(event.data, { action: "otherLogin", user: { id: a.user.id } });
    await other.settle();
    assert.equal(other.events.filter((e) => e.event.endsWith("-auth")).length, 0);
    await first.close();
    await other.close();
  }));

Deno.test("socket - presence: users.online follows open sockets; userStatus refreshes lastSeenAt", () =>
  withServer(async (t, wsUrl) => {
    const { a } = await twoCompanies(t);
    // The bus tells it too (distribution hears "user.presence" to give out waiting tickets).
    const told: boolean[] = [];
    t.deps.events.on("user.presence", (e) => e.userId === a.user.id && told.push(e.online));
    const s = await TestSocket.connect(wsUrl, a.user.token);
    const online =
      async () => (await t.deps.db.selectFrom("users").select(["online", "lastSeenAt"]).where(
        "id",
        "=",
        a.user.id,
      )
        .executeTakeFirstOrThrow());
    // Presence is written after the socket joined the hub, on its own: wait for the row.
    await eventually(async () => (await online()).online === 1);
    t.clock.advance(60_000);
    s.send("userStatus");
    // The server handles a socket's events in order: userStatus is written before the pong.
    await s.settle();
    assert.equal((await online()).lastSeenAt, t.clock.now().toISOString());
    await s.close();
    await eventually(async () => (await online()).online === 0);
    await eventually(() => told.length === 2);
    assert.deepEqual(told, [true, false]);
  }));

Deno.test("socket - a client's ping is answered pong with its id, after every event queued for it and after the client's earlier events", () =>
  withServer(async (t, wsUrl) => {
    const { a } = await twoCompanies(t);
    const tickets = [];
    for (let i = 0; i < 30; i++) tickets.push(await insertTicket(t, a.id));
    const s = await TestSocket.connect(wsUrl, a.admin.token);
    const order: string[] = [];
    s.ws.addEventListener("message", (m) => {
      const parsed = JSON.parse(String(m.data));
      for (const e of Array.isArray(parsed) ? parsed : [parsed]) {
        order.push(e.event === "pong" ? `pong ${e.data}` : e.event);
      }
    });
    // joinChatBox checks the ticket in the database first: the ping sent next waits for them.
    for (const ticket of tickets) s.send("joinChatBox", ticket.id);
    s.send("ping", "after-join");
    // Events published before the server reads the ping leave before its pong.
    for (let i = 0; i < 50; i++) {
      t.deps.hub.publish(a.id, "ticket", { action: "update", n: i });
    }
    s.send("ping", "after-publish");
    await s.settle();
    const ticketEvents = order.filter((e) => e === `company-${a.id}-ticket`).length;
    assert.equal(ticketEvents, 50);
    const joins = order.slice(0, order.indexOf("pong after-join")).filter((e) => e === "joined");
    assert.equal(joins.length, 30, order.join(", "));
    assert.ok(order.lastIndexOf(`company-${a.id}-ticket`) < order.indexOf("pong after-publish"));
    assert.equal(s.named("pong").length, 0, "a barrier's pong is not recorded as an event");

    s.send("ping", { not: "an id" });
    const refused = await s.next((e) => e.event === "error");
    assert.deepEqual(refused.data, { error: "ERR_VALIDATION", message: "ping id" });
    await s.close();
  }));
