import assert from "node:assert/strict";
import { createTestApp, login, TestClock, twoCompanies } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { serve, TestSocket } from "../helpers/server.ts";
import { addMessage, ticketRow } from "../helpers/tickets.ts";
import { defaultWorkingHours } from "../../server/queues/hours.ts";
import { distributionTick } from "../../server/distribution/tick.ts";
import { contacts, distributionScene, hoursPerQueue, newPending } from "./helpers.ts";

Deno.test("sla - due instants count the queue's hours; the list sorts by time left; a breach is recorded once and told to admins live", async () => {
  // Monday 07:30 in São Paulo: the queue opens at 08:00 (11:00 UTC).
  const t = await createTestApp({}, new TestClock("2026-11-23T10:30:00.000Z"));
  const s = serve(t);
  const sockets: TestSocket[] = [];
  try {
    const { a } = await twoCompanies(t);
    const { queueId } = await distributionScene(t, a, {
      distribution: "off",
      attendants: 0,
      targets: { firstResponseMinutes: 30, resolutionMinutes: 120 },
    });
    // The queue's hours count: the company manages hours per queue (issue 50).
    await hoursPerQueue(t, a.admin.token);
    const set = await t.request("PUT", `/api/queue/${queueId}`, {
      token: a.admin.token,
      body: { schedules: defaultWorkingHours() },
    });
    assert.equal(set.status, 200);
    const [c1, c2, c3] = await contacts(t, a.id, 3);
    // Before the queue opens: the clock starts at 08:00.
    const first = await newPending(t, a.admin.token, c1, queueId);
    const dated = await eventually(async () => {
      const res = await t.request("GET", `/api/tickets/${first.id}`, { token: a.admin.token });
      const body = await res.json();
      return body.firstResponseDueAt !== null && body;
    }, { what: "due instants set" });
    assert.equal(dated.firstResponseDueAt, "2026-11-23T11:30:00.000Z");
    assert.equal(dated.resolutionDueAt, "2026-11-23T13:00:00.000Z");
    assert.equal(dated.slaBreachedAt, null);

    // Monday 08:10: a second ticket, due earlier than none but later than the first.
    t.clock.set("2026-11-23T11:10:00.000Z");
    a.admin.token = (await login(t, a.admin.email, a.admin.password)).token;
    const second = await newPending(t, a.admin.token, c2, queueId);
    await eventually(async () => (await ticketRow(t, second.id)).firstResponseDueAt !== null);
    assert.equal((await ticketRow(t, second.id)).firstResponseDueAt, "2026-11-23T11:40:00.000Z");
    // A third ticket in no queue has no target: last when sorted by time left.
    const third = await t.request("POST", "/api/tickets", {
      token: a.admin.token,
      body: { contactId: c3, status: "pending" },
    });
    assert.equal(third.status, 201);
    const thirdId = (await third.json()).id;
    await t.request("PUT", `/api/tickets/${first.id}`, {
      token: a.admin.token,
      body: { status: "open" },
    });
    await t.request("PUT", `/api/tickets/${second.id}`, {
      token: a.admin.token,
      body: { status: "open" },
    });
    await t.request("PUT", `/api/tickets/${thirdId}`, {
      token: a.admin.token,
      body: { status: "open" },
    });
    const byActivity = await (await t.request("GET", "/api/tickets?status=open", {
      token: a.admin.token,
    })).json();
    assert.deepEqual(byActivity.tickets.map((x: { id: number }) => x.id), [
      thirdId,
      second.id,
      first.id,
    ]);
    const byTimeLeft = await (await t.request("GET", "/api/tickets?status=open&sort=timeLeft", {
      token: a.admin.token,
    })).json();
    assert.deepEqual(byTimeLeft.tickets.map((x: { id: number }) => x.id), [
      first.id,
      second.id,
      thirdId,
    ]);

    // The second ticket is answered in time; the first is not.
    await addMessage(t, a.id, { ticketId: second.id, body: "Olá!", fromMe: true });
    t.clock.set("2026-11-23T11:20:00.000Z");
    a.admin.token = (await login(t, a.admin.email, a.admin.password)).token;
    a.user.token = (await login(t, a.user.email, a.user.password)).token;
    const admin = await TestSocket.connect(s.wsUrl, a.admin.token);
    const user = await TestSocket.connect(s.wsUrl, a.user.token);
    sockets.push(admin, user);
    t.clock.set("2026-11-23T11:45:00.000Z");
    await distributionTick(t.deps);
    const breach = await admin.next((e) => e.event === `company-${a.id}-sla`);
    const data = breach.data as { action: string; kind: string; ticket: { id: number } };
    assert.equal(data.action, "breach");
    assert.equal(data.kind, "firstResponse");
    assert.equal(data.ticket.id, first.id);
    const recorded = await ticketRow(t, first.id);
    assert.equal(recorded.slaBreachedAt, "2026-11-23T11:45:00.000Z");
    assert.equal((await ticketRow(t, second.id)).slaBreachedAt, null);
    // Told once: a second tick records and tells nothing more.
    await distributionTick(t.deps);
    await admin.settle();
    await user.settle();
    assert.equal(admin.named(`company-${a.id}-sla`).length, 1);
    assert.equal(user.named(`company-${a.id}-sla`).length, 0);
    assert.equal((await ticketRow(t, first.id)).slaBreachedAt, "2026-11-23T11:45:00.000Z");
    // The second's resolution target (120 min from 08:10) passes at 10:10 (13:10 UTC).
    t.clock.set("2026-11-23T13:09:00.000Z");
    await distributionTick(t.deps);
    await admin.settle();
    assert.equal(admin.named(`company-${a.id}-sla`).length, 1);
    t.clock.set("2026-11-23T13:10:00.000Z");
    await distributionTick(t.deps);
    const late = await admin.next((e) =>
      e.event === `company-${a.id}-sla` &&
      (e.data as { ticket: { id: number } }).ticket.id === second.id
    );
    assert.equal((late.data as { kind: string }).kind, "resolution");
  } finally {
    for (const socket of sockets) await socket.close();
    t.deps.hub.closeAll();
    await s.close();
    await t.close();
  }
});
