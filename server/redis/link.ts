import { createClient } from "@redis/client";
import { log } from "../log.ts";

/**
 * The one connection pair to Redis (REDIS_URL, docs/scaling.md): a client for commands and
 * PUBLISH, and a second one in subscriber mode (Redis allows nothing else on it). server/deps.ts
 * imports this module only when REDIS_URL is set, so without it not a byte of the client loads
 * (issue 33; tests/ops/redis_test.ts checks it).
 *
 * Faults: both clients reconnect by themselves (a growing delay up to 2 s). While Redis is away,
 * commands fail at once instead of queueing (`disableOfflineQueue`): a publish fails, a counter
 * falls back to this process's memory, a session command answers ERR_SESSION_UNREACHABLE, and
 * HTTP keeps serving. When the subscriber is back, `onRecovered` listeners run (the realtime
 * fan-out tells the browsers to read their lists again: what was published meanwhile is lost).
 */
export interface RedisLink {
  /**
   * Sends to every subscriber of `channel`, this process's included; answers how many heard it.
   * Rejects while Redis is away.
   */
  publish(channel: string, message: string): Promise<number>;
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  /** INCRBY with the key expiring after `windowMs` from its first count; the count and its TTL. */
  count(key: string, n: number, windowMs: number): Promise<{ count: number; ttlMs: number }>;
  /** DECRBY, never below 0 for long: a key without expiry gets the window's. */
  decrement(key: string, n: number, windowMs: number): Promise<void>;
  remove(key: string): Promise<void>;
  readonly ready: boolean;
  /** Runs each time the subscriber is back after losing Redis. */
  onRecovered(listener: () => void): void;
  close(): Promise<void>;
}

/** The longest wait between two reconnection attempts. */
const MAX_RECONNECT_DELAY_MS = 2000;

/**
 * Connects both clients. Waits up to `connectTimeoutMs` for Redis at start; past it the process
 * starts anyway (serving HTTP alone) and the clients keep trying.
 */
export async function openRedisLink(
  url: string,
  options: { name: string; connectTimeoutMs?: number },
): Promise<RedisLink> {
  const clientOptions = {
    url,
    name: options.name,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 2000,
      reconnectStrategy: (retries: number) =>
        Math.min(50 * 2 ** Math.min(retries, 6), MAX_RECONNECT_DELAY_MS),
    },
  };
  const commands = createClient(clientOptions);
  const subscriber = createClient(clientOptions);
  const recovered: (() => void)[] = [];
  let closing = false;
  for (const [role, client] of [["commands", commands], ["subscriber", subscriber]] as const) {
    // The client reconnects by itself: one line per loss, not one per attempt.
    let down = false;
    const lost = (error?: unknown) => {
      if (down) return;
      down = true;
      if (!closing) log.warn("redis unreachable", { role, error: String(error ?? "") });
    };
    client.on("error", lost);
    client.on("reconnecting", () => lost());
    client.on("ready", () => {
      if (!down) return;
      down = false;
      log.info("redis back", { role });
      // Only the subscriber's return matters to listeners: what it missed is lost.
      if (role !== "subscriber") return;
      for (const listener of recovered) {
        try {
          listener();
        } catch (error) {
          log.error("redis recovery listener failed", { error });
        }
      }
    });
  }
  const timeout = options.connectTimeoutMs ?? 5000;
  await Promise.race([
    Promise.all([commands.connect(), subscriber.connect()]).catch((error) =>
      log.warn("redis not reached at start; retrying in the background", { error: String(error) })
    ),
    new Promise((resolve) => setTimeout(resolve, timeout)),
  ]);
  return {
    async publish(channel, message) {
      return Number(await commands.publish(channel, message));
    },
    async subscribe(channel, listener) {
      await subscriber.subscribe(channel, (message: string) => listener(message));
    },
    async count(key, n, windowMs) {
      const [count, , ttl] = await commands.multi().incrBy(key, n).pExpire(key, windowMs, "NX")
        .pTTL(key).exec() as unknown as [number, number, number];
      return { count: Number(count), ttlMs: Math.max(0, Number(ttl)) };
    },
    async decrement(key, n, windowMs) {
      await commands.multi().decrBy(key, n).pExpire(key, windowMs, "NX").exec();
    },
    async remove(key) {
      await commands.del(key);
    },
    get ready() {
      return commands.isReady && subscriber.isReady;
    },
    onRecovered(listener) {
      recovered.push(listener);
    },
    async close() {
      closing = true;
      await Promise.allSettled([commands.close(), subscriber.close()]);
    },
  };
}
