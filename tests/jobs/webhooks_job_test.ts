import assert from "node:assert/strict";
import {
  createCompany,
  createTestApp,
  restartTestApp,
  type TestApp,
  type TestCompany,
} from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { WebhookReceiver } from "../fakes/webhook_receiver.ts";
import { closeDeps } from "../../server/deps.ts";
import { RETRY_DELAYS_MS } from "../../server/webhooks/delivery.ts";
import { JOBS, startJobs } from "../../jobs/registry.ts";
import type { AppDeps } from "../../server/context.ts";

/** The `webhooks` job of jobs/registry.ts, started as main.ts starts every job. */
const startWebhookJob = (deps: AppDeps) =>
  startJobs(deps, JOBS.filter((job) => job.name === "webhooks"));

/**
 * the `webhooks` job (jobs/registry.ts): the worker that sends the webhook_deliveries queue (server/webhooks/delivery.ts
 * is tested tick by tick in tests/api/webhooks_test.ts). Here the job itself runs, as main.ts
 * starts it: nothing in these tests calls a tick. Its state is the table, so a restart resumes it;
 * a row is claimed before it is sent (status 'sending' WHERE status = 'pending'), which stops two
 * ticks, or two processes, from sending one row twice.
 */

/** The fake receiver listens on 127.0.0.1: allowed only with this switch (SSRF guard). */
const ENV = { INTEGRATIONS_ALLOW_PRIVATE_URLS: "true" };

type Job = () => Promise<void>;
type Ctx = {
  t: TestApp;
  a: TestCompany;
  receiver: WebhookReceiver;
  /** Stop functions of the jobs started: called before the app closes. */
  jobs: Job[];
  /** A restart of the process (the jobs started so far are stopped first): the new app. */
  restart(): Promise<TestApp>;
};

async function withJobApp(fn: (ctx: Ctx) => Promise<void>) {
  const receiver = new WebhookReceiver();
  let t = await createTestApp(ENV);
  const jobs: Job[] = [];
  const stopJobs = async () => {
    for (const stop of jobs.splice(0)) await stop();
  };
  try {
    const a = await createCompany(t, "Alpha");
    const res = await t.request("POST", "/api/webhooks", {
      token: a.admin.token,
      body: { name: "ERP", url: receiver.url, events: ["contact.created"] },
    });
    assert.equal(res.status, 201, await res.clone().text());
    receiver.secret = (await res.json()).secret;
    await fn({
      t,
      a,
      receiver,
      jobs,
      restart: async () => {
        await stopJobs();
        return t = await restartTestApp(t);
      },
    });
  } finally {
    await stopJobs();
    await receiver.close();
    await t.close();
  }
}

async function addContact(t: TestApp, company: TestCompany, n: number) {
  const res = await t.request("POST", "/api/contacts", {
    token: company.admin.token,
    body: { name: `Cliente ${n}`, number: `55139${String(n).padStart(8, "0")}` },
  });
  assert.equal(res.status, 201, await res.clone().text());
}

function deliveries(t: TestApp) {
  return t.deps.db.selectFrom("webhook_deliveries").selectAll().orderBy("id").execute();
}

/** Every delivery row is in `status` (and there are `count` of them). */
function allRows(t: TestApp, count: number, status: string) {
  return async () => {
    const rows = await deliveries(t);
    assert.equal(rows.length, count);
    assert.deepEqual(rows.filter((r) => r.status !== status), []);
    return rows;
  };
}

Deno.test("webhooks job - what was queued while no job ran (a restart) goes out once it starts, more than a batch, each event once; a new event is sent with no tick", () =>
  withJobApp(async ({ t, a, receiver, jobs, restart }) => {
    // 45 events, more than a batch of 20, queued while the process runs no job.
    for (let n = 0; n < 45; n++) await addContact(t, a, n);
    await eventually(allRows(t, 45, "pending"));
    assert.equal(receiver.received.length, 0);

    const restarted = await restart();
    jobs.push(startWebhookJob(restarted.deps));
    const rows = await eventually(allRows(restarted, 45, "delivered"));
    assert.ok(rows.every((r) => r.attempts === 1 && r.lastStatus === 200));
    const ids = receiver.received.map((r) => r.eventId);
    assert.equal(ids.length, 45, "one request per event");
    assert.equal(new Set(ids).size, 45);
    assert.deepEqual(new Set(ids), new Set(rows.map((r) => r.eventId)));
    assert.ok(receiver.received.every((r) => r.signatureValid && r.event === "contact.created"));

    // With the job running, a new event reaches the receiver without anyone ticking.
    await addContact(restarted, a, 99);
    await eventually(allRows(restarted, 46, "delivered"));
    assert.equal(receiver.received.length, 46);
  }));

Deno.test("webhooks job - two processes' jobs on one database at once send each delivery once (the claim)", () =>
  withJobApp(async ({ t, a, receiver, jobs }) => {
    for (let n = 0; n < 30; n++) await addContact(t, a, n);
    await eventually(allRows(t, 30, "pending"));
    // A second process on the same data folder (SESSION_LEASE_SECONDS deployments run two).
    // The same database on either engine: its folder and its URL (t.env).
    const other = await createTestApp({ ...t.env, ...ENV, DATA_DIR: t.dir }, t.clock);
    try {
      // The receiver holds its answers until both jobs have rows in flight: they overlap.
      const release = Promise.withResolvers<void>();
      receiver.holding = release.promise;
      jobs.push(startWebhookJob(t.deps), startWebhookJob(other.deps));
      await eventually(() => receiver.received.length >= 20, { what: "a batch in flight" });
      release.resolve();
      receiver.holding = null;
      await eventually(allRows(t, 30, "delivered"));
      const ids = receiver.received.map((r) => r.eventId);
      assert.equal(ids.length, 30, "no row sent twice");
      assert.equal(new Set(ids).size, 30);
      assert.ok((await deliveries(t)).every((r) => r.attempts === 1));
    } finally {
      for (const stop of jobs.splice(0)) await stop();
      // Not other.close(): it would delete the data folder the first app still uses.
      await closeDeps(other.deps);
    }
  }));

Deno.test("webhooks job - a restart resumes: a retry falls due in the new process, a send cut short by a crash is sent again", () =>
  withJobApp(async ({ t, a, receiver, jobs, restart }) => {
    receiver.failWith = 503;
    const stop = startWebhookJob(t.deps);
    await addContact(t, a, 1);
    await addContact(t, a, 2);
    const failed = await eventually(async () => {
      const rows = await allRows(t, 2, "pending")();
      assert.ok(rows.every((r) => r.attempts === 1 && r.lastStatus === 503));
      return rows;
    });
    await stop();
    // The process dies while sending the second row: its claim stays behind.
    await t.deps.db.updateTable("webhook_deliveries").set({
      status: "sending",
      claimId: "dead-process",
      claimedUntil: t.clock.now().toISOString(),
    }).where("id", "=", failed[1].id).execute();

    const restarted = await restart();
    receiver.failWith = null;
    restarted.clock.advance(RETRY_DELAYS_MS[0] * 1.1 + 1000);
    jobs.push(startWebhookJob(restarted.deps));
    const rows = await eventually(allRows(restarted, 2, "delivered"));
    assert.deepEqual(rows.map((r) => [r.attempts, r.claimId]), [[2, null], [2, null]]);
    // At least once: each event was tried twice, and accepted once.
    assert.deepEqual(
      receiver.accepted().map((r) => r.eventId).sort(),
      failed.map((r) => r.eventId).sort(),
    );
    assert.equal(receiver.received.length, 4);
  }));

Deno.test("webhooks job - stop lets the delivery in flight finish and be recorded; nothing is sent after", () =>
  withJobApp(async ({ t, a, receiver }) => {
    const release = Promise.withResolvers<void>();
    receiver.holding = release.promise;
    const stop = startWebhookJob(t.deps);
    await addContact(t, a, 1);
    await eventually(() => receiver.received.length === 1, { what: "the delivery in flight" });
    const stopped = stop();
    release.resolve();
    await stopped;
    const [row] = await deliveries(t);
    assert.deepEqual([row.status, row.attempts], ["delivered", 1]);

    // Stopped: an event is still queued (the table keeps it for the next start), never sent here.
    await addContact(t, a, 2);
    const rows = await eventually(async () => {
      const rows = await deliveries(t);
      assert.equal(rows.length, 2);
      return rows;
    });
    assert.equal(rows[1].status, "pending");
    assert.equal(receiver.received.length, 1);
  }));
