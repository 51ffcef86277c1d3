import assert from "node:assert/strict";
import { type TestApp, twoCompanies, withApp } from "../helpers/app.ts";
import { insertContact, insertTicket, sockets, withServedApp } from "../helpers/admin_fixtures.ts";
import { eventually } from "../helpers/eventually.ts";

/**
 * Hand-computed fixtures. The test clock is 2026-11-22T12:00Z = 09:00 in São Paulo (UTC-3), so
 * the default range is 2026-11-01..2026-11-22 local = [2026-11-01T03:00Z, 2026-11-23T03:00Z).
 */
async function fixtures(t: TestApp, companyId: number, userId: number, adminId: number) {
  const tickets = {
    // closed by the user: waited 10 min, supported 30 min
    t1: await insertTicket(t, companyId, {
      status: "closed",
      userId,
      createdAt: "2026-11-10T13:00:00.000Z",
      acceptedAt: "2026-11-10T13:10:00.000Z",
      closedAt: "2026-11-10T13:40:00.000Z",
    }),
    // closed by the admin: waited 30 min, supported 60 min
    t2: await insertTicket(t, companyId, {
      status: "closed",
      userId: adminId,
      createdAt: "2026-11-11T10:00:00.000Z",
      acceptedAt: "2026-11-11T10:30:00.000Z",
      closedAt: "2026-11-11T11:30:00.000Z",
    }),
    // open (happening): waited 5 min
    t3: await insertTicket(t, companyId, {
      status: "open",
      userId,
      createdAt: "2026-11-12T09:00:00.000Z",
      acceptedAt: "2026-11-12T09:05:00.000Z",
    }),
    // pending, in range
    t4: await insertTicket(t, companyId, {
      status: "pending",
      createdAt: "2026-11-20T12:00:00.000Z",
    }),
    // pending, before the range (Oct 31 20:00 local)
    t5: await insertTicket(t, companyId, {
      status: "pending",
      createdAt: "2026-10-31T23:00:00.000Z",
    }),
    // pending, Oct 31 23:30 local: before the range although Nov 1 in UTC
    t6: await insertTicket(t, companyId, {
      status: "pending",
      createdAt: "2026-11-01T02:30:00.000Z",
    }),
    // open, Nov 1 00:30 local: in range; waited 15 min
    t7: await insertTicket(t, companyId, {
      status: "open",
      userId: adminId,
      createdAt: "2026-11-01T03:30:00.000Z",
      acceptedAt: "2026-11-01T03:45:00.000Z",
    }),
    // created and accepted in October, closed in range by the user: supported 3 days = 4320 min
    t8: await insertTicket(t, companyId, {
      status: "closed",
      userId,
      createdAt: "2026-10-30T12:00:00.000Z",
      acceptedAt: "2026-10-30T12:20:00.000Z",
      closedAt: "2026-11-02T12:20:00.000Z",
    }),
    // closed straight from pending, never accepted: finished, no support time
    t9: await insertTicket(t, companyId, {
      status: "closed",
      createdAt: "2026-11-05T10:00:00.000Z",
      closedAt: "2026-11-05T10:05:00.000Z",
    }),
  };
  // a group with a pending ticket: counts as pending, never as a lead
  const group = await insertContact(t, companyId, {
    name: "Grupo",
    number: "120363025246125486",
    isGroup: 1,
    createdAt: "2026-11-15T12:00:00.000Z",
  });
  await insertTicket(t, companyId, {
    contactId: group.id,
    status: "pending",
    isGroup: 1,
    createdAt: "2026-11-15T12:00:00.000Z",
  });
  // an imported contact without tickets: not a lead
  await insertContact(t, companyId, { name: "Importado", createdAt: "2026-11-16T12:00:00.000Z" });
  const rate = (ticketId: number, uid: number, value: number, createdAt: string) =>
    t.deps.db.insertInto("user_ratings").values({
      companyId,
      ticketId,
      userId: uid,
      rate: value,
      createdAt,
    }).execute();
  await rate(tickets.t1.id, userId, 3, "2026-11-10T14:00:00.000Z");
  await rate(tickets.t8.id, userId, 2, "2026-11-11T14:00:00.000Z");
  await rate(tickets.t8.id, userId, 1, "2026-10-20T14:00:00.000Z"); // before the range
  await rate(tickets.t2.id, adminId, 1, "2026-11-12T14:00:00.000Z");
  await t.deps.db.updateTable("users").set({ online: 1 }).where("id", "=", adminId).execute();
  return tickets;
}

async function get(t: TestApp, token: string, query = "") {
  const res = await t.request("GET", `/api/dashboard${query}`, { token });
  return { status: res.status, body: await res.json() };
}

Deno.test("dashboard - counters and attendants for the default range match the hand-computed fixtures", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    await fixtures(t, a.id, a.user.id, a.admin.id);
    // company B's activity never counts for A
    await insertTicket(t, b.id, {
      status: "closed",
      userId: b.user.id,
      createdAt: "2026-11-10T13:00:00.000Z",
      acceptedAt: "2026-11-10T13:01:00.000Z",
      closedAt: "2026-11-10T15:00:00.000Z",
    });
    const { status, body } = await get(t, a.admin.token);
    assert.equal(status, 200);
    assert.deepEqual(body.range, {
      from: "2026-11-01",
      to: "2026-11-22",
      timeZone: "America/Sao_Paulo",
    });
    assert.deepEqual(body.counters, {
      supportPending: 2, // t4 and the group's ticket
      supportHappening: 2, // t3, t7
      supportFinished: 4, // t1, t2, t8, t9
      leads: 6, // contacts of t1, t2, t3, t4, t7, t9
      avgSupportTime: 1470, // (30 + 60 + 4320) / 3
      avgWaitTime: 15, // (10 + 30 + 5 + 15) / 4
    });
    assert.deepEqual(body.attendants, [
      {
        id: a.admin.id,
        name: "Alpha Admin",
        rating: 1,
        avgSupportTime: 60,
        finished: 1,
        online: true,
      },
      {
        id: a.user.id,
        name: "Alpha User",
        rating: 2.5, // (3 + 2) / 2; the October rating is outside
        avgSupportTime: 2175, // (30 + 4320) / 2
        finished: 2,
        online: false,
      },
    ]);
  }));

Deno.test("dashboard - an explicit date range and a period", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    await fixtures(t, a.id, a.user.id, a.admin.id);
    const range = await get(t, a.admin.token, "?date_from=2026-11-10&date_to=2026-11-11");
    assert.equal(range.status, 200);
    assert.deepEqual(range.body.counters, {
      supportPending: 0,
      supportHappening: 0,
      supportFinished: 2,
      leads: 2,
      avgSupportTime: 45,
      avgWaitTime: 20,
    });
    // 3 days = Nov 20, 21 and 22: only t4 (pending) was created then
    const period = await get(t, a.admin.token, "?days=3");
    assert.deepEqual(period.body.range.from, "2026-11-20");
    assert.deepEqual(period.body.counters, {
      supportPending: 1,
      supportHappening: 0,
      supportFinished: 0,
      leads: 1,
      avgSupportTime: 0,
      avgWaitTime: 0,
    });
    // the period wins when both are sent; an empty date_to means today
    const both = await get(t, a.admin.token, "?days=3&date_from=2026-01-01");
    assert.equal(both.body.range.from, "2026-11-20");
    const open = await get(t, a.admin.token, "?days=0&date_from=2026-11-21&date_to=");
    assert.deepEqual([open.body.range.from, open.body.range.to], ["2026-11-21", "2026-11-22"]);
  }));

Deno.test("dashboard - neither a period nor valid dates is 400 'Parametrize o filtro'", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    for (
      const query of [
        "?days=0",
        "?days=&date_from=&date_to=",
        "?days=abc",
        "?date_from=2026-13-01&date_to=2026-13-02",
        "?date_from=2026-02-30",
        "?date_from=2026-11-10&date_to=2026-11-01",
        "?date_to=2026-11-10",
        "?days=400",
      ]
    ) {
      const { status, body } = await get(t, a.admin.token, query);
      assert.equal(status, 400, query);
      assert.deepEqual(body, { error: "ERR_VALIDATION", message: "Parametrize o filtro" }, query);
    }
  }));

Deno.test("dashboard hourly - today's tickets in 24 local-hour buckets", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    for (
      const createdAt of [
        "2026-11-22T02:59:59.999Z", // yesterday 23:59 local: not today
        "2026-11-22T03:00:00.000Z", // 00:00 local
        "2026-11-22T03:59:59.999Z", // 00:59 local
        "2026-11-22T04:00:00.000Z", // 01:00 local
        "2026-11-22T11:30:00.000Z", // 08:30 local
        "2026-11-23T02:59:59.000Z", // 23:59 local
        "2026-11-23T03:00:00.000Z", // tomorrow
      ]
    ) await insertTicket(t, a.id, { createdAt });
    await insertTicket(t, b.id, { createdAt: "2026-11-22T11:30:00.000Z" });
    const expected = Array.from({ length: 24 }, (_, hour) => ({ hour, count: 0 }));
    expected[0].count = 2;
    expected[1].count = 1;
    expected[8].count = 1;
    expected[23].count = 1;
    const { status, body } = await get(t, a.admin.token);
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(body.hourly, expected);
    const hourly = await t.request("GET", "/api/dashboard/hourly", { token: a.admin.token });
    assert.deepEqual(await hourly.json(), { date: "2026-11-22", hourly: expected });
  }));

Deno.test("dashboard - admins only; company B sees only its own numbers and users", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    await fixtures(t, a.id, a.user.id, a.admin.id);
    const byUser = await t.request("GET", "/api/dashboard", { token: a.user.token });
    assert.equal(byUser.status, 403);
    assert.equal((await byUser.json()).error, "ERR_NO_PERMISSION");
    const { body } = await get(t, b.admin.token);
    assert.deepEqual(body.counters, {
      supportPending: 0,
      supportHappening: 0,
      supportFinished: 0,
      leads: 0,
      avgSupportTime: 0,
      avgWaitTime: 0,
    });
    assert.deepEqual(body.attendants.map((u: { name: string }) => u.name), [
      "Beta Admin",
      "Beta User",
    ]);
    assert.ok(body.hourly.every((h: { count: number }) => h.count === 0));
  }));

Deno.test("dashboard - online comes from the socket presence", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    await withServedApp(t, async (wsUrl) => {
      const online = async () => {
        const { body } = await get(t, a.admin.token);
        return body.attendants.find((u: { id: number }) => u.id === a.user.id).online as boolean;
      };
      assert.equal(await online(), false);
      const [s] = await sockets(wsUrl, a.user.token);
      // Presence is written when the socket joins and leaves: wait for the dashboard to show it.
      await eventually(online, { what: "the user shown online" });
      await s.close();
      await eventually(async () => !(await online()), { what: "the user shown offline" });
    });
  }));
