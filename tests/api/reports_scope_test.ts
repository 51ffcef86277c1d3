import assert from "node:assert/strict";
import { createUser, twoCompanies, withApp } from "../helpers/app.ts";
import { addContact, addTicket } from "../helpers/tickets.ts";
import { dataset, get, PERIOD, type Row } from "../helpers/report_dataset.ts";

/**
 * Issue 27: '/reports (admins; supervisors for their queues)'. A supervisor of queue 1 of the
 * hand-made period (tests/helpers/report_dataset.ts) reads queue 1's figures only; asking for
 * queue 2 by filter answers like a queue with nothing (the figures of queueId=999999: zeros, no
 * rows), never queue 2's; a transcript of a queue 2 ticket is 404 like a missing one; a user who
 * supervises nothing is refused (403), and the client's series follow the same scope.
 */
Deno.test("reports - a supervisor reads their queues' figures only; others are refused", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const d = await dataset(t, a);
    const sup = await createUser(t, a.id, {
      name: "Supervisora",
      email: "sup@alpha.test",
      queueIds: [d.q1, d.q2],
    });
    // Supervision is the admin's mark on the membership (issue 26), stored by the server.
    const mark = await t.request("PUT", `/api/users/${sup.id}`, {
      token: a.admin.token,
      body: { supervisedQueueIds: [d.q1] },
    });
    assert.equal(mark.status, 200, await mark.clone().text());
    // A ticket still in queue 2 (T4 was transferred to queue 1).
    const contactId = await addContact(t, a.id, "Cliente fila 2", "5511900000099");
    const inQ2 = await addTicket(t, a.id, {
      contactId,
      queueId: d.q2,
      at: "2026-11-04T12:00:00.000Z",
    });

    const queues = await get<{ rows: Row[] }>(t, sup.token, `/api/reports/queues?${PERIOD}`);
    assert.deepEqual(queues.rows.map((r) => r.queueId), [d.q1]);
    assert.equal(queues.rows[0].opened, 5);
    assert.equal(queues.rows[0].resolved, 4);

    const summary = await get<{ totals: Row }>(t, sup.token, `/api/reports/summary?${PERIOD}`);
    assert.deepEqual(summary.totals, {
      opened: 4, // created in queue 1: T1, T2, T3, T5 (not T4, created in queue 2)
      resolved: 4,
      reopened: 1,
      transfers: 1, // T4 into queue 1
      slaBreaches: 0,
      waitingMedianSeconds: 360, // 60 120 | 600 4200 (not T4's 1800 in queue 2)
      waitingP90Seconds: 4200,
      firstResponseMedianSeconds: 450, // 120 300 | 600 1200
      firstResponseP90Seconds: 1200,
      resolutionMedianSeconds: 3600,
      resolutionP90Seconds: 7200,
      messagesIn: 2,
      messagesOut: 4, // not the admin's answer to T4 while it was in queue 2
      ratings: { 1: 1, 2: 0, 3: 2 },
    });
    const admin = await get<{ totals: Row }>(t, a.admin.token, `/api/reports/summary?${PERIOD}`);
    assert.equal(admin.totals.opened, 6); // the admin sees queue 2 too (T4 and the new ticket)

    // Queue 2 by filter: the answer of a queue with nothing, not queue 2's figures.
    const q2 = await get<{ totals: Row }>(
      t,
      sup.token,
      `/api/reports/summary?${PERIOD}&queueId=${d.q2}`,
    );
    const none = await get<{ totals: Row }>(
      t,
      sup.token,
      `/api/reports/summary?${PERIOD}&queueId=999999`,
    );
    assert.deepEqual(q2, none);
    assert.equal(q2.totals.opened, 0);
    const adminQ2 = await get<{ totals: Row }>(
      t,
      a.admin.token,
      `/api/reports/summary?${PERIOD}&queueId=${d.q2}`,
    );
    assert.equal(adminQ2.totals.opened, 2);
    const q2Rows = await get<{ rows: Row[] }>(
      t,
      sup.token,
      `/api/reports/queues?${PERIOD}&queueId=${d.q2}`,
    );
    assert.deepEqual(q2Rows.rows, []);

    // Transcripts: queue 1's ticket yes; queue 2's answers like a missing ticket.
    const mine = await t.request("GET", `/api/reports/tickets/${d.t1}/transcript`, {
      token: sup.token,
    });
    assert.equal(mine.status, 200);
    await mine.body?.cancel();
    for (const id of [inQ2.id, 999999]) {
      const res = await t.request("GET", `/api/reports/tickets/${id}/transcript`, {
        token: sup.token,
      });
      assert.equal(res.status, 404);
      assert.equal((await res.json()).error, "ERR_NO_TICKET_FOUND");
    }

    // The client's series, scoped the same way.
    const days = await get<{ data: unknown[]; count: number }>(
      t,
      sup.token,
      "/api/dashboard/ticketsDay?initialDate=2026-11-02&finalDate=2026-11-04",
    );
    assert.deepEqual(days, {
      data: [
        { total: 2, data: "02/11/2026" },
        { total: 2, data: "03/11/2026" },
        { total: 0, data: "04/11/2026" },
      ],
      count: 4,
    });
    const users = await get<{ data: { nome: string; quantidade: number }[] }>(
      t,
      sup.token,
      "/api/dashboard/ticketsUsers?initialDate=2026-11-02&finalDate=2026-11-04",
    );
    // The user took 6 in queue 1; the admin (in no queue of hers) is not listed (issue 43.6).
    assert.deepEqual(users.data.map((u) => u.quantidade).sort(), [0, 6]);
    const attendants = await get<{ rows: Row[] }>(
      t,
      sup.token,
      `/api/reports/attendants?${PERIOD}`,
    );
    assert.deepEqual(
      attendants.rows.map((r) => r.userId).sort((x, y) => Number(x) - Number(y)),
      [a.user.id, sup.id].sort((x, y) => x - y),
    );
    // The admin still lists everyone.
    const all = await get<{ rows: Row[] }>(t, a.admin.token, `/api/reports/attendants?${PERIOD}`);
    assert.equal(all.rows.length, 3);

    // The dashboard itself stays the admins'.
    const dash = await t.request("GET", "/api/dashboard", { token: sup.token });
    assert.equal(dash.status, 403);
    await dash.body?.cancel();

    // A user who supervises nothing: refused everywhere the reports answer.
    for (
      const path of [
        `/api/reports/summary?${PERIOD}`,
        `/api/reports/attendants.xlsx?${PERIOD}`,
        `/api/reports/tickets/${d.t1}/transcript`,
        "/api/dashboard/ticketsDay",
        "/api/dashboard/ticketsUsers",
      ]
    ) {
      const res = await t.request("GET", path, { token: a.user.token });
      assert.equal(res.status, 403, path);
      assert.equal((await res.json()).error, "ERR_NO_PERMISSION", path);
    }
    // Taking the mark away takes the reports away (read from the database on every request).
    const unmark = await t.request("PUT", `/api/users/${sup.id}`, {
      token: a.admin.token,
      body: { supervisedQueueIds: [] },
    });
    assert.equal(unmark.status, 200);
    const after = await t.request("GET", `/api/reports/summary?${PERIOD}`, { token: sup.token });
    assert.equal(after.status, 403);
    await after.body?.cancel();
  }));
