import type { Config } from "../config.ts";
import type { Hub } from "../realtime/hub.ts";
import { RedisFanout } from "../realtime/redis_fanout.ts";
import type { SessionManager } from "../whatsapp/sessions/manager.ts";
import type { CounterFactory } from "../auth/rate_limit.ts";
import { redisCounters } from "./counters.ts";
import { openRedisLink, type RedisLink } from "./link.ts";
import { RedisSessionRelay } from "./session_commands.ts";

/**
 * What REDIS_URL switches on (docs/scaling.md 'N processes'): the realtime fan-out between
 * processes, session commands that reach the lease holder, and the deployment-wide counters.
 * server/deps.ts imports this module only when REDIS_URL is set.
 */
export type RedisDeployment = {
  link: RedisLink;
  fanout: RedisFanout;
  /** Limits counted for the whole deployment (logins, second factor, recovery, signups, API). */
  counters: CounterFactory;
};

export async function connectRedis(config: Config, hub: Hub): Promise<RedisDeployment> {
  const url = config.redisUrl;
  if (!url) throw new Error("connectRedis needs REDIS_URL");
  const link = await openRedisLink(url, { name: `balcao-${config.instanceId}` });
  const fanout = await RedisFanout.open(hub, link);
  return { link, fanout, counters: redisCounters(link) };
}

/**
 * Session commands from any process reach the lease holder (needs SESSION_LEASE_SECONDS: without
 * leases every process would run every session, so there is no holder to reach).
 */
export async function relaySessions(
  redis: RedisDeployment,
  config: Config,
  sessions: SessionManager,
): Promise<void> {
  if (!config.sessionLeaseSeconds) return;
  await RedisSessionRelay.open(redis.link, config.instanceId, sessions);
}
