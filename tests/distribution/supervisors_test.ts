import assert from "node:assert/strict";
import { createTestApp, login, twoCompanies } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { serve, TestSocket } from "../helpers/server.ts";
import { addQueue, ticketRow } from "../helpers/tickets.ts";
import { distributionTick } from "../../server/distribution/tick.ts";
import { supervisedQueueIds } from "../../server/users/repository.ts";
import { contacts, distributionScene, newPending } from "./helpers.ts";

/**
 * Issue 26: a supervisor is a mark on a user's queue membership (not a profile), set by admins;
 * a breach is told to the queue's supervisors (their own room) as well as the admins.
 */
Deno.test("supervisors - admins mark a user supervisor of their queues; plain users and other companies cannot; the mark stays on the membership", async () => {
  const t = await createTestApp();
  try {
    const { a, b } = await twoCompanies(t);
    const { queueId, attendants } = await distributionScene(t, a, {
      distribution: "off",
      attendants: 1,
    });
    const [sup] = attendants;
    const put = (token: string, id: number, body: unknown) =>
      t.request("PUT", `/api/users/${id}`, { token, body });

    // A plain user may set it neither on another user nor on themselves.
    const other = await put(a.user.token, sup.id, { supervisedQueueIds: [queueId] });
    assert.equal(other.status, 403);
    const self = await put(sup.token, sup.id, { supervisedQueueIds: [queueId] });
    assert.equal(self.status, 403);
    assert.deepEqual(await supervisedQueueIds(t.deps.db, a.id, sup.id), []);
    // Another company's admin finds no such user.
    const foreign = await put(b.admin.token, sup.id, { supervisedQueueIds: [queueId] });
    assert.equal(foreign.status, 404);
    assert.equal((await foreign.json()).error, "ERR_NO_USER_FOUND");

    // A queue the user is not in cannot be supervised by them.
    const elsewhere = await addQueue(t, a.id, "Outra fila");
    const notMember = await put(a.admin.token, sup.id, { supervisedQueueIds: [elsewhere] });
    assert.equal(notMember.status, 400);
    assert.equal((await notMember.json()).error, "ERR_SUPERVISED_QUEUE_NOT_MEMBER");

    const set = await put(a.admin.token, sup.id, { supervisedQueueIds: [queueId] });
    assert.equal(set.status, 200);
    const body = await set.json();
    assert.deepEqual(body.supervisedQueueIds, [queueId]);
    assert.deepEqual(body.queues.map((q: { id: number }) => q.id), [queueId]);
    assert.equal(body.profile, "user");
    // Scoped by the company: the same user id read as another company's is nobody's supervisor.
    assert.deepEqual(await supervisedQueueIds(t.deps.db, a.id, sup.id), [queueId]);
    assert.deepEqual(await supervisedQueueIds(t.deps.db, b.id, sup.id), []);
    // The session says so (the SLA bell shows for them).
    const me = await login(t, sup.email, sup.password);
    assert.deepEqual(me.user.supervisedQueueIds, [queueId]);

    // Edits that leave supervision alone keep it; leaving the queue ends it.
    const renamed = await put(a.admin.token, sup.id, { name: "Supervisora", queueIds: [queueId] });
    assert.deepEqual((await renamed.json()).supervisedQueueIds, [queueId]);
    const moved = await put(a.admin.token, sup.id, { queueIds: [elsewhere] });
    assert.equal(moved.status, 200);
    assert.deepEqual((await moved.json()).supervisedQueueIds, []);
    assert.deepEqual(await supervisedQueueIds(t.deps.db, a.id, sup.id), []);

    // Made at creation by an admin.
    const created = await t.request("POST", "/api/users", {
      token: a.admin.token,
      body: {
        name: "Chefe",
        email: "chefe@alpha.test",
        password: "senha-chefe",
        queueIds: [queueId],
        supervisedQueueIds: [queueId],
      },
    });
    assert.equal(created.status, 201, await created.clone().text());
    assert.deepEqual((await created.json()).supervisedQueueIds, [queueId]);
  } finally {
    await t.close();
  }
});

Deno.test("supervisors - a breach rings the queue's supervisors and the admins, not other attendants or companies", async () => {
  const t = await createTestApp();
  const s = serve(t);
  const sockets: TestSocket[] = [];
  try {
    const { a, b } = await twoCompanies(t);
    const { queueId, attendants } = await distributionScene(t, a, {
      distribution: "off",
      attendants: 2,
      targets: { firstResponseMinutes: 1 },
    });
    const [sup, plain] = attendants;
    const set = await t.request("PUT", `/api/users/${sup.id}`, {
      token: a.admin.token,
      body: { supervisedQueueIds: [queueId] },
    });
    assert.equal(set.status, 200);
    // Another company's supervisor of its own queue hears nothing of Alpha's.
    const beta = await distributionScene(t, b, { distribution: "off", attendants: 1, tag: "b" });
    await t.request("PUT", `/api/users/${beta.attendants[0].id}`, {
      token: b.admin.token,
      body: { supervisedQueueIds: [beta.queueId] },
    });
    const [contactId] = await contacts(t, a.id, 1);
    const ticket = await newPending(t, a.admin.token, contactId, queueId);
    await eventually(async () => (await ticketRow(t, ticket.id)).firstResponseDueAt !== null, {
      what: "due instants set",
    });
    for (const user of [sup, plain, a.admin, beta.attendants[0], b.admin]) {
      sockets.push(await TestSocket.connect(s.wsUrl, user.token));
    }
    const [supSocket, plainSocket, adminSocket, betaSupSocket, betaAdmin] = sockets;

    t.clock.advance(2 * 60_000);
    await distributionTick(t.deps);
    const channel = `company-${a.id}-sla`;
    const heard = await supSocket.next((e) => e.event === channel);
    assert.equal((heard.data as { ticket: { id: number } }).ticket.id, ticket.id);
    await adminSocket.next((e) => e.event === channel);
    for (const socket of sockets) await socket.settle();
    assert.equal(supSocket.named(channel).length, 1);
    assert.equal(plainSocket.named(channel).length, 0);
    assert.equal(betaSupSocket.named(`company-${b.id}-sla`).length, 0);
    assert.equal(betaAdmin.named(`company-${b.id}-sla`).length, 0);
    assert.equal(betaSupSocket.named(channel).length, 0);
  } finally {
    for (const socket of sockets) await socket.close();
    t.deps.hub.closeAll();
    await s.close();
    await t.close();
  }
});
