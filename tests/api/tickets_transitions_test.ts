import assert from "node:assert/strict";
import { createUser, twoCompanies, withApp } from "../helpers/app.ts";
import {
  addContact,
  addQueue,
  addTicket,
  addWhatsapp,
  scene,
  setSetting,
  ticketRow,
} from "../helpers/tickets.ts";

type T = Parameters<Parameters<typeof withApp>[0]>[0];

async function put(t: T, token: string, id: number, body: Record<string, unknown>) {
  return await t.request("PUT", `/api/tickets/${id}`, { token, body });
}

Deno.test("ticket accept - pending to open for the caller with acceptedAt; accepting twice is harmless", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    const ticket = await addTicket(t, a.id, {
      contactId: s.contactId,
      queueId: s.q1,
      whatsappId: s.whatsappId,
    });
    t.clock.advance(60_000);
    const res = await put(t, a.user.token, ticket.id, { status: "open", userId: a.user.id });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.status, "open");
    assert.equal(body.userId, a.user.id);
    assert.equal(body.user.name, "Alpha User");
    const row = await ticketRow(t, ticket.id);
    assert.equal(row.acceptedAt, t.clock.now().toISOString());
    assert.equal(row.updatedAt, t.clock.now().toISOString());
    const again = await put(t, a.user.token, ticket.id, { status: "open", userId: a.user.id });
    assert.equal(again.status, 200);
    // Another attendant cannot take it over by "accepting" it.
    const other = await createUser(t, a.id, { name: "Other", email: "o@alpha.test" });
    await t.deps.db.insertInto("user_queues").values({
      companyId: a.id,
      userId: other.id,
      queueId: s.q1,
    }).execute();
    const stolen = await put(t, other.token, ticket.id, { action: "accept" });
    assert.equal(stolen.status, 403);
    assert.equal((await ticketRow(t, ticket.id)).userId, a.user.id);
  }));

Deno.test("ticket return - open to pending with no user", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    const ticket = await addTicket(t, a.id, {
      contactId: s.contactId,
      queueId: s.q1,
      status: "open",
      userId: a.user.id,
    });
    const res = await put(t, a.user.token, ticket.id, { status: "pending", userId: null });
    assert.equal(res.status, 200);
    const row = await ticketRow(t, ticket.id);
    assert.equal(row.status, "pending");
    assert.equal(row.userId, null);
    assert.equal(row.queueId, s.q1);
  }));

Deno.test("ticket resolve - closed by the caller, closedAt, integration and prompt cleared, rating flag", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    const ticket = await addTicket(t, a.id, {
      contactId: s.contactId,
      queueId: s.q1,
      whatsappId: s.whatsappId,
      status: "open",
      userId: a.user.id,
    });
    await t.deps.db.updateTable("tickets").set({
      useIntegration: 1,
      integrationId: 5,
      promptId: 7,
    }).where("id", "=", ticket.id).execute();
    const res = await put(t, a.user.token, ticket.id, {
      status: "closed",
      userId: a.user.id,
      queueId: s.q1,
      useIntegration: false,
      promptId: null,
      integrationId: null,
    });
    assert.equal(res.status, 200);
    const row = await ticketRow(t, ticket.id);
    assert.equal(row.status, "closed");
    assert.equal(row.userId, a.user.id);
    assert.equal(row.closedAt, t.clock.now().toISOString());
    assert.equal(row.useIntegration, 0);
    assert.equal(row.integrationId, null);
    assert.equal(row.promptId, null);
    assert.equal(row.awaitingRating, 0);

    // With userRating enabled the ticket waits for the contact's rating.
    await setSetting(t, a.id, "userRating", "enabled");
    const c2 = await addContact(t, a.id, "Joao", "5511999990002");
    const rated = await addTicket(t, a.id, {
      contactId: c2,
      queueId: s.q1,
      whatsappId: s.whatsappId,
    });
    const res2 = await put(t, a.user.token, rated.id, { action: "resolve" });
    assert.equal(res2.status, 200);
    const row2 = await ticketRow(t, rated.id);
    assert.equal(row2.status, "closed");
    assert.equal(row2.awaitingRating, 1);

    const twice = await put(t, a.user.token, rated.id, { status: "closed" });
    assert.equal(twice.status, 400);
    assert.equal((await twice.json()).error, "ERR_INVALID_TRANSITION");
  }));

Deno.test("ticket reopen - closed to open for the caller; refused while another ticket is open", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    const other = await createUser(t, a.id, { name: "Carla", email: "carla@alpha.test" });
    const closed = await addTicket(t, a.id, {
      contactId: s.contactId,
      queueId: s.q1,
      whatsappId: s.whatsappId,
      status: "closed",
      userId: other.id,
    });
    const res = await put(t, a.user.token, closed.id, { status: "open", userId: a.user.id });
    assert.equal(res.status, 200);
    let row = await ticketRow(t, closed.id);
    assert.equal(row.status, "open");
    assert.equal(row.userId, a.user.id);
    assert.equal(row.closedAt, null);

    // Close it again, open a new one for the contact: the old one cannot be reopened now.
    await put(t, a.user.token, closed.id, { status: "closed" });
    const fresh = await addTicket(t, a.id, {
      contactId: s.contactId,
      queueId: s.q1,
      whatsappId: s.whatsappId,
      userId: other.id,
      status: "open",
    });
    const conflict = await put(t, a.user.token, closed.id, { action: "reopen" });
    assert.equal(conflict.status, 409);
    const body = await conflict.json();
    assert.equal(body.error, "ERR_OTHER_OPEN_TICKET");
    assert.equal(JSON.parse(body.message).id, fresh.id);
    assert.equal(JSON.parse(body.message).user.name, "Carla");
    row = await ticketRow(t, closed.id);
    assert.equal(row.status, "closed");
  }));

Deno.test("ticket transfer - to a queue without user becomes pending; with a user keeps status", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    const colleague = await createUser(t, a.id, { name: "Carla", email: "carla@alpha.test" });
    const ticket = await addTicket(t, a.id, {
      contactId: s.contactId,
      queueId: s.q1,
      status: "open",
      userId: a.user.id,
    });
    const toQueue = await put(t, a.user.token, ticket.id, {
      queueId: s.q2,
      status: "pending",
      userId: null,
    });
    assert.equal(toQueue.status, 200);
    let row = await ticketRow(t, ticket.id);
    assert.deepEqual([row.status, row.userId, row.queueId], ["pending", null, s.q2]);

    const toUser = await put(t, a.admin.token, ticket.id, {
      action: "transfer",
      queueId: s.q1,
      userId: colleague.id,
    });
    assert.equal(toUser.status, 200);
    row = await ticketRow(t, ticket.id);
    assert.deepEqual([row.status, row.userId, row.queueId], ["pending", colleague.id, s.q1]);

    // The transfer dialog without status: {userId, queueId} on an open ticket.
    await put(t, a.admin.token, ticket.id, { status: "open", userId: a.admin.id });
    const dialog = await put(t, a.admin.token, ticket.id, { userId: colleague.id, queueId: s.q2 });
    assert.equal(dialog.status, 200);
    row = await ticketRow(t, ticket.id);
    assert.deepEqual([row.status, row.userId, row.queueId], ["open", colleague.id, s.q2]);
  }));

Deno.test("ticket transitions - not allowed ones answer clear codes and change nothing", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const s = await scene(t, a);
    const closed = await addTicket(t, a.id, {
      contactId: s.contactId,
      queueId: s.q1,
      status: "closed",
      userId: a.user.id,
    });
    const before = await ticketRow(t, closed.id);
    const cases: [string, Record<string, unknown>, number, string][] = [
      ["accept a closed ticket", { action: "accept" }, 400, "ERR_INVALID_TRANSITION"],
      ["return a closed ticket", { action: "return" }, 400, "ERR_INVALID_TRANSITION"],
      ["resolve a closed ticket", { status: "closed" }, 400, "ERR_INVALID_TRANSITION"],
      ["transfer a closed ticket", { queueId: s.q2 }, 400, "ERR_INVALID_TRANSITION"],
      ["pending a closed ticket", { status: "pending" }, 400, "ERR_INVALID_TRANSITION"],
    ];
    for (const [what, body, status, code] of cases) {
      const res = await put(t, a.admin.token, closed.id, body);
      assert.equal(res.status, status, what);
      assert.equal((await res.json()).error, code, what);
    }
    assert.deepEqual(await ticketRow(t, closed.id), before);

    const c2 = await addContact(t, a.id, "Joao", "5511999990002");
    const open = await addTicket(t, a.id, {
      contactId: c2,
      queueId: s.q1,
      status: "open",
      userId: a.admin.id,
    });
    const openBefore = await ticketRow(t, open.id);
    const bQueue = await addQueue(t, b.id, "B fila");
    const bWhatsapp = await addWhatsapp(t, b.id, "B1");
    const foreign: [Record<string, unknown>, string][] = [
      [{ queueId: bQueue }, "ERR_NO_QUEUE_FOUND"],
      [{ userId: b.user.id }, "ERR_NO_USER_FOUND"],
      [{ action: "transfer", queueId: s.q2, userId: b.admin.id }, "ERR_NO_USER_FOUND"],
      [{ whatsappId: bWhatsapp, status: "open" }, "ERR_NO_WAPP_FOUND"],
    ];
    for (const [body, code] of foreign) {
      const res = await put(t, a.admin.token, open.id, body);
      assert.equal(res.status, 404, JSON.stringify(body));
      assert.equal((await res.json()).error, code);
    }
    assert.deepEqual(await ticketRow(t, open.id), openBefore);

    // A user acting on another attendant's open ticket in their queue: 403, nothing changes.
    const res = await put(t, a.user.token, open.id, { status: "closed" });
    assert.equal(res.status, 403);
    assert.deepEqual(await ticketRow(t, open.id), openBefore);
    // Company B cannot touch A's ticket at all.
    const fromB = await put(t, b.admin.token, open.id, { status: "closed" });
    assert.equal(fromB.status, 404);
    assert.equal((await fromB.json()).error, "ERR_NO_TICKET_FOUND");
    const invalidBody = await put(t, a.admin.token, open.id, { status: "archived" });
    assert.equal(invalidBody.status, 400);
    assert.equal((await invalidBody.json()).error, "ERR_VALIDATION");
  }));
