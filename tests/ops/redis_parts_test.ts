import assert from "node:assert/strict";
import { openRedisLink } from "../../server/redis/link.ts";
import { redisCounters } from "../../server/redis/counters.ts";
import { RedisSessionRelay, sessionChannel } from "../../server/redis/session_commands.ts";
import { AppError } from "../../server/errors.ts";
import { startRedis } from "../helpers/redis_server.ts";
import { eventually } from "../helpers/eventually.ts";
import { createTestApp } from "../helpers/app.ts";

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

/** The error a session command rejected with (its status and code). */
async function failureOf(promise: Promise<unknown>): Promise<{ status: number; code: string }> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof AppError, String(error));
    return { status: error.status, code: error.code };
  }
  throw new Error("the command succeeded");
}

Deno.test("redis session commands - the holder's error comes back; a gone or silent holder answers ERR_SESSION_UNREACHABLE, never a hang", async () => {
  const redis = await startRedis();
  const t = await createTestApp();
  const link = await openRedisLink(redis.url, { name: "relay-x" });
  const silent = await openRedisLink(redis.url, { name: "silent" });
  try {
    const relay = await RedisSessionRelay.open(link, "X", t.deps.sessions, 500);
    const command = { op: "start" as const, companyId: 1, whatsappId: 999_999 };
    // To itself through Redis: the holder ran it, and its 404 is the caller's answer.
    assert.deepEqual(await failureOf(relay.send("X", command)), {
      status: 404,
      code: "ERR_NO_WAPP_FOUND",
    });
    // Nobody listens on the holder's channel (the process died): at once.
    assert.deepEqual(await failureOf(relay.send("ghost", command)), {
      status: 503,
      code: "ERR_SESSION_UNREACHABLE",
    });
    // A holder that hears and never answers (stuck): after the timeout.
    await silent.subscribe(sessionChannel("stuck"), () => {});
    assert.deepEqual(await failureOf(relay.send("stuck", command)), {
      status: 503,
      code: "ERR_SESSION_UNREACHABLE",
    });
    // Redis gone: at once too.
    await redis.stopOnly();
    await eventually(() => !link.ready, { what: "the link sees Redis gone" });
    assert.deepEqual(await failureOf(relay.send("X", command)), {
      status: 503,
      code: "ERR_SESSION_UNREACHABLE",
    });
  } finally {
    await link.close();
    await silent.close();
    await t.close();
    await redis.stop();
  }
});
