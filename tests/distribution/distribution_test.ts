import assert from "node:assert/strict";
import { createTestApp, restartTestApp, twoCompanies, withApp } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { serve, type TestSocket } from "../helpers/server.ts";
import { addTicket, ticketRow } from "../helpers/tickets.ts";
import {
  contacts,
  distributionScene,
  goOnline,
  holders,
  hoursPerQueue,
  newPending,
  served,
} from "./helpers.ts";
import { setSetting } from "../whatsapp/helpers.ts";

async function closeAll(sockets: TestSocket[]) {
  for (const socket of sockets) await socket.close();
}

Deno.test("distribution - round-robin gives each new ticket to the next online attendant; offline ones get nothing", () =>
  served(async (t, wsUrl) => {
    const { a } = await twoCompanies(t);
    const { queueId, attendants } = await distributionScene(t, a, {
      distribution: "round_robin",
      attendants: 3,
    });
    // The third attendant has no socket open: not online, never chosen.
    const sockets = [
      await goOnline(t, wsUrl, attendants[0]),
      await goOnline(t, wsUrl, attendants[1]),
    ];
    const people = await contacts(t, a.id, 4);
    const given: (number | null)[] = [];
    for (const contactId of people) {
      const ticket = await newPending(t, a.admin.token, contactId, queueId);
      const row = await eventually(async () => {
        const r = await ticketRow(t, ticket.id);
        return r.userId !== null && r;
      }, { what: `ticket ${ticket.id} given` });
      assert.equal(row.status, "open");
      assert.notEqual(row.distributedAt, null);
      given.push(row.userId);
    }
    assert.deepEqual(given, [
      attendants[0].id,
      attendants[1].id,
      attendants[0].id,
      attendants[1].id,
    ]);
    // The attendant's own socket heard the assignment (their 'Atendendo' tab).
    const heard = await sockets[0].next((e) =>
      e.event === `company-${a.id}-ticketAssigned` &&
      (e.data as { ticket: { userId: number } }).ticket.userId === attendants[0].id
    );
    assert.equal((heard.data as { action: string }).action, "assigned");
    await closeAll(sockets);
  }));

Deno.test("distribution - a ticket given out sends the greeting-on-accept like a manual accept, in the attendant's name (issue 50 item 11)", () =>
  served(async (t, wsUrl) => {
    const { a } = await twoCompanies(t);
    await setSetting(t, a.id, "sendGreetingAccepted", "enabled");
    const { queueId, attendants } = await distributionScene(t, a, {
      distribution: "round_robin",
      attendants: 1,
    });
    const socket = await goOnline(t, wsUrl, attendants[0]);
    const [contactId] = await contacts(t, a.id, 1);
    const ticket = await newPending(t, a.admin.token, contactId, queueId);
    const greeting = await eventually(
      async () =>
        await t.deps.db.selectFrom("messages").selectAll().where("ticketId", "=", ticket.id)
          .where("fromMe", "=", 1).executeTakeFirst(),
      { what: "the greeting" },
    );
    assert.match(greeting.body, /\*Cliente 0\*! Meu nome é \*Atendente q 1\* e vou prosseguir/);
    const row = await ticketRow(t, ticket.id);
    assert.equal(row.userId, attendants[0].id);
    const outbox = await t.deps.db.selectFrom("outbox").selectAll()
      .where("messageId", "=", greeting.id).execute();
    assert.equal(outbox.length, 1, "queued to go out through the outbox");
    const ticketNow = await ticketRow(t, ticket.id);
    assert.match(ticketNow.lastMessage ?? "", /Meu nome é/, "the list's preview is the greeting");
    await socket.close();
  }));

Deno.test("distribution - least busy counts open tickets; an attendant at capacity gets nothing; the ticket waits until one frees up", () =>
  served(async (t, wsUrl) => {
    const { a } = await twoCompanies(t);
    const { queueId, attendants } = await distributionScene(t, a, {
      distribution: "least_busy",
      attendants: 2,
      capacity: 1,
    });
    const [first, second] = attendants;
    const [c1, c2, c3] = await contacts(t, a.id, 3);
    // The first attendant already holds an open ticket: at capacity (1).
    const held = await addTicket(t, a.id, {
      contactId: c1,
      queueId,
      status: "open",
      userId: first.id,
    });
    const sockets = [await goOnline(t, wsUrl, first), await goOnline(t, wsUrl, second)];
    const toSecond = await newPending(t, a.admin.token, c2, queueId);
    await eventually(async () => (await ticketRow(t, toSecond.id)).userId === second.id);
    // Both at capacity now: the next one waits in 'Aguardando'.
    const waits = await newPending(t, a.admin.token, c3, queueId);
    await sockets[0].settle();
    await t.deps.afterAnswer.drain();
    const row = await ticketRow(t, waits.id);
    assert.equal(row.status, "pending");
    assert.equal(row.userId, null);
    // The first attendant resolves their ticket: room for one, the waiting ticket is theirs.
    const resolved = await t.request("PUT", `/api/tickets/${held.id}`, {
      token: first.token,
      body: { status: "closed" },
    });
    assert.equal(resolved.status, 200);
    await eventually(async () => (await ticketRow(t, waits.id)).userId === first.id, {
      what: "the waiting ticket given once capacity freed",
    });
    await closeAll(sockets);
  }));

Deno.test("distribution - nobody online: the ticket waits and goes to the first attendant who comes online", () =>
  served(async (t, wsUrl) => {
    const { a } = await twoCompanies(t);
    const { queueId, attendants } = await distributionScene(t, a, {
      distribution: "round_robin",
      attendants: 1,
    });
    const [contactId] = await contacts(t, a.id, 1);
    const ticket = await newPending(t, a.admin.token, contactId, queueId);
    await t.deps.afterAnswer.drain();
    assert.equal((await ticketRow(t, ticket.id)).userId, null);
    const socket = await goOnline(t, wsUrl, attendants[0]);
    await eventually(async () => (await ticketRow(t, ticket.id)).userId === attendants[0].id);
    await socket.close();
  }));

Deno.test("distribution - a transfer to a distributing queue without a user gives the ticket out; 'off' queues never do", () =>
  served(async (t, wsUrl) => {
    const { a } = await twoCompanies(t);
    const dist = await distributionScene(t, a, {
      distribution: "least_busy",
      attendants: 1,
      tag: "on",
    });
    const manual = await distributionScene(t, a, {
      distribution: "off",
      attendants: 1,
      tag: "off",
    });
    const sockets = [
      await goOnline(t, wsUrl, dist.attendants[0]),
      await goOnline(t, wsUrl, manual.attendants[0]),
    ];
    const [c1] = await contacts(t, a.id, 1);
    const ticket = await newPending(t, a.admin.token, c1, manual.queueId);
    await t.deps.afterAnswer.drain();
    assert.equal((await ticketRow(t, ticket.id)).userId, null);
    const moved = await t.request("PUT", `/api/tickets/${ticket.id}`, {
      token: a.admin.token,
      body: { action: "transfer", queueId: dist.queueId, userId: null },
    });
    assert.equal(moved.status, 200);
    await eventually(async () => (await ticketRow(t, ticket.id)).userId === dist.attendants[0].id);
    await closeAll(sockets);
  }));

Deno.test("distribution - 50 tickets at once for 5 attendants of capacity 10: exactly 10 each", () =>
  served(async (t, wsUrl) => {
    const { a } = await twoCompanies(t);
    const { queueId, attendants } = await distributionScene(t, a, {
      distribution: "least_busy",
      attendants: 5,
      capacity: 10,
    });
    const sockets = [];
    for (const user of attendants) sockets.push(await goOnline(t, wsUrl, user));
    const people = await contacts(t, a.id, 55);
    const tickets = await Promise.all(
      people.map((contactId) => newPending(t, a.admin.token, contactId, queueId)),
    );
    const ids = tickets.map((x) => x.id);
    await eventually(async () => {
      const rows = [...(await holders(t, ids)).values()];
      return rows.filter((r) => r.userId !== null).length === 50;
    }, { what: "50 tickets given" });
    await t.deps.afterAnswer.drain();
    const rows = [...(await holders(t, ids)).values()];
    const perUser = new Map<number, number>();
    for (const r of rows) {
      if (r.userId !== null) perUser.set(r.userId, (perUser.get(r.userId) ?? 0) + 1);
    }
    assert.deepEqual([...perUser.values()].sort(), [10, 10, 10, 10, 10]);
    assert.equal(rows.filter((r) => r.userId === null && r.status === "pending").length, 5);
    await closeAll(sockets);
  }));

Deno.test("distribution - after a restart round-robin continues with the next attendant", async () => {
  let t = await createTestApp();
  let s = serve(t);
  try {
    const { a } = await twoCompanies(t);
    const { queueId, attendants } = await distributionScene(t, a, {
      distribution: "round_robin",
      attendants: 3,
    });
    const people = await contacts(t, a.id, 2);
    let sockets = [];
    for (const user of attendants) sockets.push(await goOnline(t, wsUrl(s), user));
    const first = await newPending(t, a.admin.token, people[0], queueId);
    await eventually(async () => (await ticketRow(t, first.id)).userId === attendants[0].id);
    await closeAll(sockets);
    t.deps.hub.closeAll();
    await s.close();
    t = await restartTestApp(t);
    s = serve(t);
    sockets = [];
    for (const user of attendants) sockets.push(await goOnline(t, wsUrl(s), user));
    const second = await newPending(t, a.admin.token, people[1], queueId);
    await eventually(async () => (await ticketRow(t, second.id)).userId !== null);
    assert.equal((await ticketRow(t, second.id)).userId, attendants[1].id);
    await closeAll(sockets);
  } finally {
    t.deps.hub.closeAll();
    await s.close();
    await t.close();
  }
});

function wsUrl(s: ReturnType<typeof serve>) {
  return s.wsUrl;
}

Deno.test("distribution - tenancy and roles: another company's attendant never gets a ticket; a plain user cannot change a queue's policy or a capacity", () =>
  served(async (t, wsUrl) => {
    const { a, b } = await twoCompanies(t);
    const sceneA = await distributionScene(t, a, {
      distribution: "round_robin",
      attendants: 0,
      tag: "a",
    });
    const sceneB = await distributionScene(t, b, {
      distribution: "round_robin",
      attendants: 1,
      tag: "b",
    });
    const socket = await goOnline(t, wsUrl, sceneB.attendants[0]);
    const [contactId] = await contacts(t, a.id, 1);
    const ticket = await newPending(t, a.admin.token, contactId, sceneA.queueId);
    await t.deps.afterAnswer.drain();
    assert.equal((await ticketRow(t, ticket.id)).userId, null);
    await socket.settle();
    assert.equal(socket.events.filter((e) => e.event.includes("ticketAssigned")).length, 0);

    const policy = await t.request("PUT", `/api/queue/${sceneA.queueId}`, {
      token: a.user.token,
      body: { distribution: "off" },
    });
    assert.equal(policy.status, 403);
    const capacity = await t.request("PUT", `/api/users/${a.user.id}`, {
      token: a.user.token,
      body: { maxOpenTickets: 50 },
    });
    assert.equal(capacity.status, 403);
    // Company B's admin cannot touch A's queue: it does not exist for them.
    const other = await t.request("PUT", `/api/queue/${sceneA.queueId}`, {
      token: b.admin.token,
      body: { distribution: "least_busy" },
    });
    assert.equal(other.status, 404);
    const bad = await t.request("PUT", `/api/queue/${sceneA.queueId}`, {
      token: a.admin.token,
      body: { distribution: "random", firstResponseMinutes: 0 },
    });
    assert.equal(bad.status, 400);
    await socket.close();
  }));

Deno.test("distribution - a queue whose hours are closed keeps its tickets waiting", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const { queueId } = await distributionScene(t, a, {
      distribution: "round_robin",
      attendants: 1,
    });
    await t.deps.db.updateTable("users").set({ online: 1 }).where("companyId", "=", a.id).execute();
    // The test clock is Sunday; the default week is closed on Sundays.
    await hoursPerQueue(t, a.admin.token);
    const hours = await t.request("PUT", `/api/queue/${queueId}`, {
      token: a.admin.token,
      body: {
        schedules: [{
          weekday: "Domingo",
          weekdayEn: "sunday",
          startTime: "00:00",
          endTime: "00:00",
        }],
      },
    });
    assert.equal(hours.status, 200);
    const [contactId] = await contacts(t, a.id, 1);
    const ticket = await newPending(t, a.admin.token, contactId, queueId);
    await t.deps.afterAnswer.drain();
    assert.equal((await ticketRow(t, ticket.id)).userId, null);
  }));

Deno.test("distribution - the OpenAPI document carries the queue's policy and pausing, the capacity, supervision and work hours, and the time-left sort", () =>
  withApp(async (t) => {
    const doc = await (await t.request("GET", "/api/openapi.json")).json();
    const queueBody = doc.paths["/queue/{id}"].put.requestBody.content["application/json"].schema;
    assert.deepEqual(queueBody.properties.distribution.enum, ["off", "round_robin", "least_busy"]);
    assert.ok(queueBody.properties.firstResponseMinutes);
    assert.ok(queueBody.properties.resolutionMinutes);
    assert.equal(queueBody.properties.pauseWhenWaitingOnCustomer.type, "boolean");
    const userBody = doc.paths["/users"].post.requestBody.content["application/json"].schema;
    assert.ok(userBody.properties.maxOpenTickets);
    const userEdit = doc.paths["/users/{id}"].put.requestBody.content["application/json"].schema;
    for (const body of [userBody, userEdit]) {
      assert.equal(body.properties.supervisedQueueIds.type, "array");
      assert.ok(body.properties.startWork);
      assert.ok(body.properties.endWork);
    }
    const listParams = doc.paths["/tickets"].get.parameters.map((p: { name: string }) => p.name);
    assert.ok(listParams.includes("sort"));
  }));

Deno.test("distribution - a ticket its attendant returns goes to another attendant, not straight back", () =>
  served(async (t, wsUrl) => {
    const { a } = await twoCompanies(t);
    const { queueId, attendants } = await distributionScene(t, a, {
      distribution: "least_busy",
      attendants: 2,
    });
    const [first, second] = attendants;
    const sockets = [await goOnline(t, wsUrl, first), await goOnline(t, wsUrl, second)];
    const [contactId] = await contacts(t, a.id, 1);
    const ticket = await newPending(t, a.admin.token, contactId, queueId);
    await eventually(async () => (await ticketRow(t, ticket.id)).userId === first.id);
    const returned = await t.request("PUT", `/api/tickets/${ticket.id}`, {
      token: first.token,
      body: { status: "pending" },
    });
    assert.equal(returned.status, 200);
    await eventually(async () => (await ticketRow(t, ticket.id)).userId === second.id, {
      what: "the returned ticket given to the other attendant",
    });
    await closeAll(sockets);
  }));
