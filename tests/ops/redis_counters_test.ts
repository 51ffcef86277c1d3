import assert from "node:assert/strict";
import { openRedisLink } from "../../server/redis/link.ts";
import { redisCounters } from "../../server/redis/counters.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { eventually } from "../helpers/eventually.ts";

/**
 * Deployment-wide limits (issue 31 item 3): two links to one real redis-server stand for two
 * processes; a limit of 3 per window holds across both, a refund and a reset count for both,
 * and with Redis gone the counters answer from memory instead of failing.
 */
Deno.test("redis counters - one limit for every process; Redis away: counted in memory, no error", async () => {
  const redis = await startRedis();
  const a = await openRedisLink(redis.url, { name: "counter-a" });
  const b = await openRedisLink(redis.url, { name: "counter-b" });
  try {
    const onA = redisCounters(a)("login", 3, 60_000);
    const onB = redisCounters(b)("login", 3, 60_000);
    const now = Date.now();
    assert.equal(await onA.hit("x", now), 0);
    assert.equal(await onB.hit("x", now), 0);
    assert.equal(await onA.hit("x", now), 0);
    // The fourth attempt, on either process, is over the deployment's limit of 3.
    const wait = await onB.hit("x", now);
    assert.ok(wait > 0 && wait <= 60, `seconds to wait: ${wait}`);
    // Another key and another limit's name count apart.
    assert.equal(await onB.hit("y", now), 0);
    assert.equal(await redisCounters(b)("signup", 3, 60_000).hit("x", now), 0);
    // A refund on A is seen by B; a reset clears the key for both.
    await onA.refund("x");
    await onA.refund("x");
    assert.equal(await onB.hit("x", now), 0);
    await onB.reset("x");
    for (let i = 0; i < 3; i++) assert.equal(await onA.hit("x", now), 0);
    assert.ok(await onA.hit("x", now) > 0);
    // An API allowance counted in bulk (ten files are ten sends).
    const api = redisCounters(a)("external", 10, 60_000);
    assert.equal(await api.hit("whatsapp:1", now, 10), 0);
    assert.ok(await redisCounters(b)("external", 10, 60_000).hit("whatsapp:1", now, 1) > 0);

    // Redis gone: counting goes on in this process's memory, with its limit, and never throws.
    await redis.stopOnly();
    await eventually(() => !a.ready, { what: "A's link sees Redis gone" });
    for (let i = 0; i < 3; i++) assert.equal(await onA.hit("z", now), 0);
    assert.ok(await onA.hit("z", now) > 0, "the memory fallback still limits");
    // Back: Redis counts again (a fresh server: the old window is gone).
    await redis.start();
    await eventually(() => a.ready && b.ready, { what: "both links reconnected" });
    assert.equal(await onB.hit("x", now), 0);
  } finally {
    await a.close();
    await b.close();
    await redis.stop();
  }
});
