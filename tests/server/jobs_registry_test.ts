import { oneTurn } from "../helpers/eventually.ts";
import assert from "node:assert/strict";
import { type Job, startJobs } from "../../jobs/registry.ts";
import type { AppDeps } from "../../server/context.ts";
import { StorageHealth } from "../../server/storage/health.ts";

/**
 * How the registry runs a job (jobs/registry.ts): one tick at a time, a wake during a tick asks
 * for exactly one more, and stopping waits for the tick in progress and starts no other. The
 * jobs here tick on demand (a wake, or at start) behind a long interval, and each step waits for
 * the fact it needs (a tick started, a tick released), never for time.
 */
// Storage that works (the runner asks it before each tick; issue 34): never probed while "ok".
const deps = { storage: new StorageHealth("/nonexistent") } as unknown as AppDeps;
const HOUR = { ms: 3_600_000 };

/** A tick that reports each start and waits until the test releases it. */
function gatedTick() {
  const starts: PromiseWithResolvers<void>[] = [];
  const gates: PromiseWithResolvers<void>[] = [];
  const slot = (list: PromiseWithResolvers<void>[], n: number) => {
    while (list.length <= n) list.push(Promise.withResolvers<void>());
    return list[n];
  };
  let count = 0;
  return {
    tick: async () => {
      const n = count++;
      slot(starts, n).resolve();
      await slot(gates, n).promise;
    },
    get count() {
      return count;
    },
    /** Resolves when tick `n` (from 0) has started. */
    started: (n: number) => slot(starts, n).promise,
    release: (n: number) => slot(gates, n).resolve(),
  };
}

Deno.test("jobs registry - stop waits for the running tick, then no tick starts", async () => {
  const ticks = gatedTick();
  let wake = () => {};
  const job: Job = {
    name: "test_stop",
    every: () => HOUR,
    atStart: true,
    tick: ticks.tick,
    wake: (_deps, run) => wake = run,
  };
  const stop = startJobs(deps, [job]);
  await ticks.started(0);
  let stopped = false;
  const stopping = stop().then(() => stopped = true);
  // The stop is waiting on the tick: once every other pending callback has run (one turn of
  // the event loop), it has still not ended; only the release can end it.
  await oneTurn();
  assert.equal(stopped, false);
  wake(); // after stop: refused
  ticks.release(0);
  await stopping;
  assert.equal(ticks.count, 1);
});

Deno.test("jobs registry - wakes during a tick ask for exactly one more tick after it", async () => {
  const ticks = gatedTick();
  let wake = () => {};
  const job: Job = {
    name: "test_wake",
    every: () => HOUR,
    atStart: true,
    tick: ticks.tick,
    wake: (_deps, run) => wake = run,
  };
  const stop = startJobs(deps, [job]);
  await ticks.started(0);
  wake();
  wake();
  wake();
  ticks.release(0);
  await ticks.started(1);
  assert.equal(ticks.count, 2, "one more tick, not three");
  ticks.release(1);
  await stop();
  assert.equal(ticks.count, 2);
});

Deno.test("jobs registry - `then` runs after the tick in the same turn; a failure does not stop it", async () => {
  const order: string[] = [];
  const done = Promise.withResolvers<void>();
  const job: Job = {
    name: "test_first",
    every: () => HOUR,
    atStart: true,
    tick: () => {
      order.push("first");
      throw new Error("first failed");
    },
    then: {
      name: "test_second",
      tick: () => {
        order.push("second");
        done.resolve();
      },
    },
  };
  const stop = startJobs(deps, [job]);
  await done.promise;
  await stop();
  assert.deepEqual(order, ["first", "second"]);
});

Deno.test("jobs registry - a job without a schedule (e.g. BACKUP_CRON unset) never runs", async () => {
  let ran = false;
  const stop = startJobs(deps, [{
    name: "test_off",
    every: () => undefined,
    atStart: true,
    tick: () => ran = true,
  }]);
  await stop();
  assert.equal(ran, false);
});
