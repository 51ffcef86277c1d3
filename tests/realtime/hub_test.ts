import assert from "node:assert/strict";
import { createTestApp, login, type TestApp, twoCompanies } from "../helpers/app.ts";
import { serve, TestSocket } from "../helpers/server.ts";

async function withServer(fn: (t: TestApp, wsUrl: string, url: string) => Promise<void>) {
  const t = await createTestApp();
  const s = serve(t);
  try {
    await fn(t, s.wsUrl, s.url);
  } finally {
    t.deps.hub.closeAll();
    await s.close();
    await t.close();
  }
}

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

Deno.test("socket - refuses a connection without a valid token", () =>
  withServer(async (_t, wsUrl, url) => {
    const res = await fetch(`${url}/socket?token=bad`, { headers: { upgrade: "websocket" } });
    assert.equal(res.status, 401);
    assert.equal((await res.json()).error, "ERR_UNAUTHORIZED");
    const ws = new WebSocket(`${wsUrl}/socket`);
    const closed = await new Promise<boolean>((resolve) => {
      ws.onerror = () => resolve(true);
      ws.onopen = () => resolve(false);
    });
    assert.equal(closed, true);
  }));

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

    const ticketA = await insertTicket(t, a.id);
    sa.send("joinChatBox", ticketA.id);
    await sa.settle();
    t.deps.hub.publish(a.id, "appMessage", { action: "create", ticketId: ticketA.id }, [
      { kind: "ticket", ticketId: ticketA.id },
    ]);
    const got = await sa.next((e) => e.event === `company-${a.id}-appMessage`);
    assert.deepEqual(got.data, { action: "create", ticketId: ticketA.id });
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
    const s = await TestSocket.connect(wsUrl, a.user.token);
    const online =
      async () => (await t.deps.db.selectFrom("users").select(["online", "lastSeenAt"]).where(
        "id",
        "=",
        a.user.id,
      )
        .executeTakeFirstOrThrow());
    await s.settle();
    assert.equal((await online()).online, 1);
    s.send("userStatus");
    await s.settle();
    assert.ok((await online()).lastSeenAt);
    await s.close();
    await new Promise((r) => setTimeout(r, 50));
    assert.equal((await online()).online, 0);
  }));
