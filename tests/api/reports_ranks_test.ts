import assert from "node:assert/strict";
import { twoCompanies, withApp } from "../helpers/app.ts";
import { dataset, get, PERIOD, type Row } from "../helpers/report_dataset.ts";

/**
 * The two ways the reports rank durations agree (issue 27, speed): a total reads its median and
 * p90 at their ranks from the seconds index (repository.ts durationsAt), a table ranks each
 * group's whole list (quantiles); one queue's total and that queue's row are the same question.
 * Tagged tickets' messages per day come from report_ticket_messages (migration 0470).
 */
const TIMED = [
  "waitingMedianSeconds",
  "waitingP90Seconds",
  "firstResponseMedianSeconds",
  "firstResponseP90Seconds",
  "resolutionMedianSeconds",
  "resolutionP90Seconds",
] as const;

Deno.test("reports - a total's ranks equal its group's; tagged messages per day", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const d = await dataset(t, a);
    const queues = await get<{ rows: Row[] }>(t, a.admin.token, `/api/reports/queues?${PERIOD}`);
    for (const queueId of [d.q1, d.q2]) {
      const total = await get<{ totals: Row }>(
        t,
        a.admin.token,
        `/api/reports/summary?${PERIOD}&queueId=${queueId}`,
      );
      const row = queues.rows.find((r) => r.queueId === queueId)!;
      for (const name of TIMED) assert.equal(total.totals[name], row[name], `${queueId} ${name}`);
    }
    // Queue 1: waits 60 120 600 4200 (even: the mean of the middle two), p90 the 4th.
    const q1 = queues.rows.find((r) => r.queueId === d.q1)!;
    assert.equal(q1.waitingMedianSeconds, 360);
    assert.equal(q1.waitingP90Seconds, 4200);
    // The whole company: 60 120 600 1800 4200 (odd: the middle one); p90 the 5th.
    const all = await get<{ totals: Row }>(t, a.admin.token, `/api/reports/summary?${PERIOD}`);
    assert.equal(all.totals.waitingMedianSeconds, 600);
    assert.equal(all.totals.waitingP90Seconds, 4200);
    assert.equal(all.totals.resolutionMedianSeconds, 3600); // 1800 3600 3600 7200
    assert.equal(all.totals.resolutionP90Seconds, 7200);

    // VIP (T1, T3): T1 on Nov 2 one in, one out; T3 on Nov 3 two out.
    const days = await get<{ rows: Row[] }>(
      t,
      a.admin.token,
      `/api/reports/days?${PERIOD}&tagId=${d.tagId}`,
    );
    assert.deepEqual(days.rows.map((r) => [r.day, r.messagesIn, r.messagesOut]), [
      ["2026-11-02", 1, 1],
      ["2026-11-03", 0, 2],
      ["2026-11-04", 0, 0],
    ]);
  }));
