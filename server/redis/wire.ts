import type { Config } from "../config.ts";
import type { Hub } from "../realtime/hub.ts";
import { RedisFanout } from "../realtime/redis_fanout.ts";
import type { SessionManager } from "../whatsapp/sessions/manager.ts";
import type { CounterFactory } from "../auth/rate_limit.ts";
import { log } from "../log.ts";
import { redisCounters } from "./counters.ts";
import { openRedisLink, type RedisLink } from "./link.ts";
import { RedisSessionRelay } from "./session_commands.ts";

/**
 * What REDIS_URL switches on (docs/scaling.md 'N processes'): the realtime fan-out between
 * processes, session commands that reach the lease holder, the deployment-wide counters, and
 * webhook changes heard by every process.
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

/** The channel on which a process says a company's webhooks changed (its number as text). */
export const WEBHOOKS_CHANNEL = "balcao:webhooks";

/**
 * A webhook made or changed through one process is used at once by the others' traffic: each
 * change is published, and every process drops its copy of that company's webhooks. While Redis
 * was away a change may have been missed: when it is back, every copy is dropped.
 */
export async function shareWebhookChanges(
  redis: RedisDeployment,
  // The capture of server/webhooks/capture.ts (named by shape: context.ts imports this module).
  capture: {
    shareChanges(share: (companyId: number) => void): void;
    forget(companyId?: number): void;
  },
) {
  capture.shareChanges((companyId) => {
    redis.link.publish(WEBHOOKS_CHANNEL, String(companyId)).catch((error) =>
      log.warn("webhook change not shared", { companyId, error: String(error) })
    );
  });
  redis.link.onRecovered(() => capture.forget());
  await redis.link.subscribe(WEBHOOKS_CHANNEL, (text) => {
    const companyId = Number(text);
    if (Number.isInteger(companyId)) capture.forget(companyId);
  }).catch((error) => log.warn("webhook changes wait for redis", { error: String(error) }));
}
