import assert from "node:assert/strict";
import { createTestApp, TestClock, twoCompanies } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { serve, type TestSocket } from "../helpers/server.ts";
import { ticketRow } from "../helpers/tickets.ts";
import { isWithinDailyHours } from "../../server/queues/hours.ts";
import { distributionTick } from "../../server/distribution/tick.ts";
import { contacts, distributionScene, goOnline, newPending } from "./helpers.ts";

/** These cases read São Paulo's clock (UTC-3); other zones: tests/api/company_zone_test.ts. */
const SP = "America/Sao_Paulo";

/**
 * Issue 26: an attendant is given tickets only when they may work now: the queue's hours and
 * their own (users.startWork / endWork, HH:MM in São Paulo, UTC-3; unset: any time).
 */
Deno.test("work hours - a user's daily hours, a shift over midnight, unset meaning any time", () => {
  const at = (iso: string) => new Date(iso);
  // 09:00 and 18:00 in São Paulo.
  assert.equal(isWithinDailyHours("08:00", "17:00", at("2026-11-23T12:00:00Z"), SP), true);
  assert.equal(isWithinDailyHours("08:00", "17:00", at("2026-11-23T21:00:00Z"), SP), false);
  assert.equal(isWithinDailyHours("13:00", "18:00", at("2026-11-23T12:00:00Z"), SP), false);
  // A night shift: 23:00 (02:00 UTC) in, 09:00 out.
  assert.equal(isWithinDailyHours("22:00", "06:00", at("2026-11-24T02:00:00Z"), SP), true);
  assert.equal(isWithinDailyHours("22:00", "06:00", at("2026-11-23T12:00:00Z"), SP), false);
  assert.equal(isWithinDailyHours(null, null, at("2026-11-23T12:00:00Z"), SP), true);
});

Deno.test("work hours - admins set a user's hours; half of them, or a plain user's own, are refused", async () => {
  const t = await createTestApp();
  try {
    const { a } = await twoCompanies(t);
    const put = (token: string, id: number, body: unknown) =>
      t.request("PUT", `/api/users/${id}`, { token, body });
    const set = await put(a.admin.token, a.user.id, { startWork: "08:00", endWork: "14:00" });
    assert.equal(set.status, 200);
    const body = await set.json();
    assert.equal(body.startWork, "08:00");
    assert.equal(body.endWork, "14:00");
    const half = await put(a.admin.token, a.user.id, { startWork: null });
    assert.equal(half.status, 400);
    assert.equal((await half.json()).error, "ERR_INVALID_WORK_HOURS");
    const same = await put(a.admin.token, a.user.id, { endWork: "08:00" });
    assert.equal((await same.json()).error, "ERR_INVALID_WORK_HOURS");
    const badTime = await put(a.admin.token, a.user.id, { startWork: "25:00" });
    assert.equal(badTime.status, 400);
    const own = await put(a.user.token, a.user.id, { startWork: "06:00", endWork: "22:00" });
    assert.equal(own.status, 403);
    const cleared = await put(a.admin.token, a.user.id, { startWork: null, endWork: null });
    assert.equal(cleared.status, 200);
    assert.equal((await cleared.json()).startWork, null);
  } finally {
    await t.close();
  }
});

Deno.test("work hours - distribution skips an online attendant outside their own hours; the ticket waits for them until their hours open", async () => {
  // Monday 09:00 in São Paulo.
  const t = await createTestApp({}, new TestClock("2026-11-23T12:00:00.000Z"));
  const s = serve(t);
  const sockets: TestSocket[] = [];
  try {
    const { a } = await twoCompanies(t);
    const { queueId, attendants } = await distributionScene(t, a, {
      distribution: "least_busy",
      attendants: 2,
    });
    const [late, early] = attendants;
    // The first attendant (first on a tie) works from 13:00.
    const set = await t.request("PUT", `/api/users/${late.id}`, {
      token: a.admin.token,
      body: { startWork: "13:00", endWork: "18:00" },
    });
    assert.equal(set.status, 200);
    sockets.push(await goOnline(t, s.wsUrl, late), await goOnline(t, s.wsUrl, early));
    const [c1, c2] = await contacts(t, a.id, 2);
    const first = await newPending(t, a.admin.token, c1, queueId);
    const given = await eventually(async () => {
      const row = await ticketRow(t, first.id);
      return row.userId !== null && row;
    }, { what: "first ticket given" });
    assert.equal(given.userId, early.id);

    // Only the late one is online now: the next ticket waits.
    await sockets.pop()!.close();
    await eventually(async () => {
      const row = await t.deps.db.selectFrom("users").select("online").where("id", "=", early.id)
        .executeTakeFirstOrThrow();
      return row.online === 0;
    }, { what: "early attendant offline" });
    const second = await newPending(t, a.admin.token, c2, queueId);
    await t.deps.afterAnswer.drain();
    await distributionTick(t.deps);
    assert.equal((await ticketRow(t, second.id)).userId, null);

    // 13:00: their hours open; the job gives it to them.
    t.clock.set("2026-11-23T16:00:00.000Z");
    await distributionTick(t.deps);
    const row = await ticketRow(t, second.id);
    assert.equal(row.userId, late.id);
    assert.equal(row.status, "open");
  } finally {
    for (const socket of sockets) await socket.close();
    t.deps.hub.closeAll();
    await s.close();
    await t.close();
  }
});
