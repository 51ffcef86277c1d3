import assert from "node:assert/strict";
import { createTestApp, type TestApp, TestClock, twoCompanies } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { serve, type TestSocket } from "../helpers/server.ts";
import { ticketRow } from "../helpers/tickets.ts";
import { defaultWorkingHours } from "../../server/queues/hours.ts";
import { distributionTick } from "../../server/distribution/tick.ts";
import { contacts, distributionScene, goOnline, hoursPerQueue, newPending } from "./helpers.ts";

/**
 * Issue 50.1: the hours a queue keeps count for distribution and service levels only when the
 * company manages hours per queue ('Gerenciamento de Expediente' = Fila); changing hours,
 * targets or that setting dates waiting tickets again.
 */

// Saturday 01:52 in São Paulo: the default week (Saturday 08:00-12:00) is closed.
const SATURDAY_NIGHT = "2026-11-28T04:52:00.000Z";

async function scene(t: TestApp, wsUrl: string) {
  const { a, b } = await twoCompanies(t);
  const { queueId, attendants } = await distributionScene(t, a, {
    distribution: "round_robin",
    attendants: 2,
  });
  // The default week, as every queue made in the dialog keeps it.
  const week = await t.request("PUT", `/api/queue/${queueId}`, {
    token: a.admin.token,
    body: { schedules: defaultWorkingHours() },
  });
  assert.equal(week.status, 200, await week.clone().text());
  const sockets = [
    await goOnline(t, wsUrl, attendants[0]),
    await goOnline(t, wsUrl, attendants[1]),
  ];
  return { a, b, queueId, sockets };
}

/** Runs `fn` on Saturday night with the scene, its first-response target set to one minute. */
async function atNight(
  fn: (t: TestApp, made: Awaited<ReturnType<typeof scene>>) => Promise<void>,
  scheduleType?: string,
) {
  const t = await createTestApp({}, new TestClock(SATURDAY_NIGHT));
  const s = serve(t);
  let sockets: TestSocket[] = [];
  try {
    const made = await scene(t, s.wsUrl);
    sockets = made.sockets;
    if (scheduleType) await hoursPerQueue(t, made.a.admin.token, scheduleType);
    const put = await t.request("PUT", `/api/queue/${made.queueId}`, {
      token: made.a.admin.token,
      body: { firstResponseMinutes: 1 },
    });
    assert.equal(put.status, 200);
    await fn(t, made);
  } finally {
    for (const socket of sockets) await socket.close();
    t.deps.hub.closeAll();
    await s.close();
    await t.close();
  }
}

Deno.test("queue hours - with 'Gerenciamento de Expediente' off, a queue works around the clock: given out at night, due in working minutes of a 24-hour day", () =>
  atNight(async (t, { a, queueId }) => {
    const [contactId] = await contacts(t, a.id, 1);
    const ticket = await newPending(t, a.admin.token, contactId, queueId);
    const row = await eventually(async () => {
      const r = await ticketRow(t, ticket.id);
      return r.userId !== null && r;
    }, { what: "the night ticket given to an online attendant" });
    assert.equal(row.status, "open");
    assert.equal(row.firstResponseDueAt, "2026-11-28T04:53:00.000Z");
    // Unanswered, it breaches at 01:53 that night (not after Saturday's 08:00 opening).
    t.clock.set("2026-11-28T04:53:30.000Z");
    await distributionTick(t.deps);
    assert.equal((await ticketRow(t, ticket.id)).slaBreachedAt, "2026-11-28T04:53:30.000Z");
  }));

Deno.test("queue hours - when hours count per queue, changing them (or the targets, or the setting) dates waiting tickets again and gives them out once open", () =>
  atNight(async (t, { a, b, queueId }) => {
    const [c1, c2] = await contacts(t, a.id, 2);
    const ticket = await newPending(t, a.admin.token, c1, queueId);
    // Closed until Saturday 08:00: nobody gets it, due one working minute after opening.
    await eventually(
      async () => (await ticketRow(t, ticket.id)).firstResponseDueAt === "2026-11-28T11:01:00.000Z",
      {
        what: "due at 08:01",
      },
    );
    await t.deps.afterAnswer.drain();
    assert.equal((await ticketRow(t, ticket.id)).userId, null);

    // A new target: the waiting ticket follows it (5 working minutes from 08:00).
    const target = await t.request("PUT", `/api/queue/${queueId}`, {
      token: a.admin.token,
      body: { firstResponseMinutes: 5 },
    });
    assert.equal(target.status, 200);
    await eventually(
      async () => (await ticketRow(t, ticket.id)).firstResponseDueAt === "2026-11-28T11:05:00.000Z",
      {
        what: "due again after the target changed",
      },
    );

    // Company B's setting and queues change nothing of A's.
    await hoursPerQueue(t, b.admin.token, "disabled");
    await t.deps.afterAnswer.drain();
    assert.equal((await ticketRow(t, ticket.id)).firstResponseDueAt, "2026-11-28T11:05:00.000Z");

    // Open all Saturday: the waiting ticket is dated from when it entered (01:52 + 5 min) and
    // given out now that the queue works.
    const week = (await (await t.request("GET", `/api/queue/${queueId}`, {
      token: a.admin.token,
    })).json()).schedules.map((d: { weekdayEn: string }) =>
      d.weekdayEn === "saturday" ? { ...d, startTime: "00:00", endTime: "23:59" } : d
    );
    const hours = await t.request("PUT", `/api/queue/${queueId}`, {
      token: a.admin.token,
      body: { schedules: week },
    });
    assert.equal(hours.status, 200);
    const given = await eventually(async () => {
      const r = await ticketRow(t, ticket.id);
      return r.userId !== null && r;
    }, { what: "given out once its queue opened" });
    assert.equal(given.firstResponseDueAt, "2026-11-28T04:57:00.000Z");

    // Hours back to the default week, then the setting off: a new waiting ticket is due in
    // 5 minutes of round-the-clock time.
    await t.request("PUT", `/api/queue/${queueId}`, {
      token: a.admin.token,
      body: {
        distribution: "off",
        schedules: week.map((d: { weekdayEn: string }) =>
          d.weekdayEn === "saturday" ? { ...d, startTime: "08:00", endTime: "12:00" } : d
        ),
      },
    });
    const second = await newPending(t, a.admin.token, c2, queueId);
    await eventually(
      async () => (await ticketRow(t, second.id)).firstResponseDueAt === "2026-11-28T11:05:00.000Z",
      {
        what: "the second ticket due after opening",
      },
    );
    await hoursPerQueue(t, a.admin.token, "disabled");
    await eventually(
      async () => (await ticketRow(t, second.id)).firstResponseDueAt === "2026-11-28T04:57:00.000Z",
      {
        what: "dated again when hours stopped counting",
      },
    );
  }, "queue"));

Deno.test("company hours - when the company's hours count ('Empresa'), changing them dates waiting tickets again and gives them out once open (issue 50 item 1)", () =>
  atNight(async (t, { a, queueId }) => {
    const [c1] = await contacts(t, a.id, 1);
    const ticket = await newPending(t, a.admin.token, c1, queueId);
    const closed = await eventually(
      async () => (await ticketRow(t, ticket.id)).firstResponseDueAt,
      {
        what: "dated on the company's hours",
      },
    );
    await t.deps.afterAnswer.drain();
    assert.equal((await ticketRow(t, ticket.id)).userId, null);
    assert.notEqual(closed, "2026-11-28T04:53:00.000Z");

    // Open all Saturday: dated from when it entered (01:52 + 1 min), given out now.
    const company = await (await t.request("GET", `/api/companies/${a.id}`, {
      token: a.admin.token,
    })).json();
    const week = company.schedules.map((d: { weekdayEn: string }) =>
      d.weekdayEn === "saturday" ? { ...d, startTime: "00:00", endTime: "23:59" } : d
    );
    const put = await t.request("PUT", `/api/companies/${a.id}/schedules`, {
      token: a.admin.token,
      body: { schedules: week },
    });
    assert.equal(put.status, 200, await put.clone().text());
    const given = await eventually(async () => {
      const r = await ticketRow(t, ticket.id);
      return r.userId !== null && r;
    }, { what: "given out once the company opened" });
    assert.equal(given.firstResponseDueAt, "2026-11-28T04:53:00.000Z");
  }, "company"));
