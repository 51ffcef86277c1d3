import assert from "node:assert/strict";
import { createTestApp, login, type TestApp, TestClock, twoCompanies } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { addQueue, ticketRow } from "../helpers/tickets.ts";
import { connectSimulator, phoneSends } from "../whatsapp/helpers.ts";
import { defaultWorkingHours, workingMsBetween } from "../../server/queues/hours.ts";
import { distributionTick } from "../../server/distribution/tick.ts";
import { hoursPerQueue } from "./helpers.ts";

/** These cases read São Paulo's clock (UTC-3); other zones: tests/api/company_zone_test.ts. */
const SP = "America/Sao_Paulo";

/**
 * Issue 26, pausing: a queue that pauses for the customer stops a ticket's resolution clock while
 * the last message is ours, and the contact's next message starts it again with the due instant
 * pushed by the working time (the queue's hours) it stood still. The clock is a TestClock moved
 * by hand; São Paulo is UTC-3 (the queue's default hours: weekdays 08:00-18:00).
 */
Deno.test("pause - working time between two instants counts only the queue's open hours", () => {
  const hours = defaultWorkingHours();
  const at = (iso: string) => new Date(iso);
  // Monday 09:00 to 10:30 in São Paulo: all open.
  assert.equal(
    workingMsBetween(at("2026-11-23T12:00:00Z"), at("2026-11-23T13:30:00Z"), hours, SP),
    90 * 60_000,
  );
  // Monday 17:00 to Tuesday 09:00: one hour Monday, one Tuesday; the night does not count.
  assert.equal(
    workingMsBetween(at("2026-11-23T20:00:00Z"), at("2026-11-24T12:00:00Z"), hours, SP),
    2 * 60 * 60_000,
  );
  // Saturday 11:00 to Monday 08:30: Saturday's last hour and Monday's first half hour.
  assert.equal(
    workingMsBetween(at("2026-11-28T14:00:00Z"), at("2026-11-30T11:30:00Z"), hours, SP),
    90 * 60_000,
  );
  // No hours: every minute; backwards: nothing.
  assert.equal(
    workingMsBetween(at("2026-11-23T00:00:00Z"), at("2026-11-23T01:00:00Z"), [], SP),
    3.6e6,
  );
  assert.equal(
    workingMsBetween(at("2026-11-23T01:00:00Z"), at("2026-11-23T00:00:00Z"), hours, SP),
    0,
  );
});

async function queueWithTarget(t: TestApp, token: string, companyId: number, pause: boolean) {
  const queueId = await addQueue(t, companyId, pause ? "Pausa" : "Corrida");
  await hoursPerQueue(t, token);
  const res = await t.request("PUT", `/api/queue/${queueId}`, {
    token,
    body: {
      schedules: defaultWorkingHours(),
      resolutionMinutes: 120,
      pauseWhenWaitingOnCustomer: pause,
    },
  });
  assert.equal(res.status, 200, await res.clone().text());
  assert.equal((await res.json()).pauseWhenWaitingOnCustomer, pause);
  return queueId;
}

Deno.test("pause - our reply stops the resolution clock; the contact's message restarts it, due pushed by the paused business time; no breach while paused", async () => {
  // Monday 09:00 in São Paulo.
  const t = await createTestApp({}, new TestClock("2026-11-23T12:00:00.000Z"));
  try {
    const { a } = await twoCompanies(t);
    const queueId = await queueWithTarget(t, a.admin.token, a.id, true);
    const whatsappId = await connectSimulator(t, a, { queueIds: [queueId] });
    const phone = { from: "5511988887777", name: "Maria Souza" };
    const first = await phoneSends(t, a.admin.token, whatsappId, { ...phone, body: "Olá" });
    assert.equal(first.status, 201, JSON.stringify(first));
    const ticketId = first.ticketId!;
    const dated = await eventually(async () => {
      const row = await ticketRow(t, ticketId);
      return row.resolutionDueAt !== null && row;
    }, { what: "resolution due" });
    assert.equal(dated.queueId, queueId);
    // 120 business minutes from Monday 09:00: 11:00 (14:00 UTC).
    assert.equal(dated.resolutionDueAt, "2026-11-23T14:00:00.000Z");
    assert.equal(dated.resolutionPausedAt, null);
    // Written on the connected phone while the ticket still waits in 'Aguardando': ours, but the
    // customer still waits on a person. The clock runs.
    const fromPhone = await phoneSends(t, a.admin.token, whatsappId, {
      ...phone,
      fromMe: true,
      body: "Um momento",
    });
    assert.equal(fromPhone.ticketId, ticketId);
    await t.deps.afterAnswer.drain();
    assert.equal((await ticketRow(t, ticketId)).resolutionPausedAt, null);

    // 09:10: we answer; the clock stops with 110 minutes left.
    t.clock.set("2026-11-23T12:10:00.000Z");
    const accepted = await t.request("PUT", `/api/tickets/${ticketId}`, {
      token: a.admin.token,
      body: { action: "accept" },
    });
    assert.equal(accepted.status, 200);
    const reply = await t.request("POST", `/api/messages/${ticketId}`, {
      token: a.admin.token,
      body: { body: "Já vejo isso para você" },
    });
    assert.equal(reply.status, 201, await reply.clone().text());
    await eventually(
      async () => (await ticketRow(t, ticketId)).resolutionPausedAt === "2026-11-23T12:10:00.000Z",
      {
        what: "clock paused",
      },
    );
    const view = await (await t.request("GET", `/api/tickets/${ticketId}`, {
      token: a.admin.token,
    })).json();
    assert.equal(view.resolutionPausedAt, "2026-11-23T12:10:00.000Z");

    // Monday 17:30: the old due instant is long past, but the clock stands still: no breach.
    t.clock.set("2026-11-23T20:30:00.000Z");
    await distributionTick(t.deps);
    assert.equal((await ticketRow(t, ticketId)).slaBreachedAt, null);

    // Tuesday 09:00 the contact writes: 110 minutes left again, due at 10:50 (13:50 UTC).
    t.clock.set("2026-11-24T12:00:00.000Z");
    a.admin.token = (await login(t, a.admin.email, a.admin.password)).token;
    const again = await phoneSends(t, a.admin.token, whatsappId, { ...phone, body: "E aí?" });
    assert.equal(again.ticketId, ticketId);
    const resumed = await eventually(async () => {
      const row = await ticketRow(t, ticketId);
      return row.resolutionPausedAt === null && row;
    }, { what: "clock running again" });
    assert.equal(resumed.resolutionDueAt, "2026-11-24T13:50:00.000Z");

    // Running again, the target is missed at 10:50, once.
    t.clock.set("2026-11-24T13:49:00.000Z");
    await distributionTick(t.deps);
    assert.equal((await ticketRow(t, ticketId)).slaBreachedAt, null);
    t.clock.set("2026-11-24T13:50:00.000Z");
    await distributionTick(t.deps);
    assert.equal((await ticketRow(t, ticketId)).slaBreachedAt, "2026-11-24T13:50:00.000Z");
  } finally {
    await t.close();
  }
});

Deno.test("pause - a queue that does not pause keeps the clock running after our reply", async () => {
  const t = await createTestApp({}, new TestClock("2026-11-23T12:00:00.000Z"));
  try {
    const { a } = await twoCompanies(t);
    const queueId = await queueWithTarget(t, a.admin.token, a.id, false);
    const whatsappId = await connectSimulator(t, a, { queueIds: [queueId] });
    const first = await phoneSends(t, a.admin.token, whatsappId, {
      from: "5511977776666",
      body: "Olá",
    });
    const ticketId = first.ticketId!;
    await eventually(async () => (await ticketRow(t, ticketId)).resolutionDueAt !== null);
    await t.request("PUT", `/api/tickets/${ticketId}`, {
      token: a.admin.token,
      body: { action: "accept" },
    });
    const reply = await t.request("POST", `/api/messages/${ticketId}`, {
      token: a.admin.token,
      body: { body: "Oi" },
    });
    assert.equal(reply.status, 201);
    await t.deps.afterAnswer.drain();
    assert.equal((await ticketRow(t, ticketId)).resolutionPausedAt, null);
    t.clock.set("2026-11-23T14:00:00.000Z");
    await distributionTick(t.deps);
    assert.equal((await ticketRow(t, ticketId)).slaBreachedAt, "2026-11-23T14:00:00.000Z");
  } finally {
    await t.close();
  }
});
