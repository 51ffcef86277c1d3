import { type AttemptCounter, type CounterFactory, MemoryCounter } from "../auth/rate_limit.ts";
import { log } from "../log.ts";
import type { RedisLink } from "./link.ts";

/**
 * A fixed window counted in Redis (REDIS_URL): every process counts on one key, so the limit
 * holds for the whole deployment. The key is INCRBY'd and set to expire with the window on its
 * first count (PEXPIRE NX), so a window ends by itself. While Redis is away the counter falls
 * back to this process's memory (a limit per process for that while, rather than no limit and
 * rather than refusing every login).
 */
class RedisCounter implements AttemptCounter {
  readonly #fallback: MemoryCounter;
  #warned = false;

  constructor(
    private readonly link: RedisLink,
    private readonly name: string,
    private readonly max: number,
    private readonly windowMs: number,
  ) {
    this.#fallback = new MemoryCounter(max, windowMs);
  }

  #key(key: string) {
    return `balcao:limit:${this.name}:${key}`;
  }

  #degraded(error: unknown) {
    if (this.#warned) return;
    this.#warned = true;
    log.warn("limit counted in this process: redis unreachable", {
      limit: this.name,
      error: String(error),
    });
  }

  async hit(key: string, now: number, n = 1): Promise<number> {
    try {
      const { count, ttlMs } = await this.link.count(this.#key(key), n, this.windowMs);
      this.#warned = false;
      return count > this.max ? Math.max(1, Math.ceil(ttlMs / 1000)) : 0;
    } catch (error) {
      this.#degraded(error);
      return await this.#fallback.hit(key, now, n);
    }
  }

  async refund(key: string, n = 1): Promise<void> {
    try {
      await this.link.decrement(this.#key(key), n, this.windowMs);
    } catch (error) {
      this.#degraded(error);
      await this.#fallback.refund(key, n);
    }
  }

  async reset(key: string): Promise<void> {
    try {
      await this.link.remove(this.#key(key));
    } catch (error) {
      this.#degraded(error);
      await this.#fallback.reset(key);
    }
  }
}

export function redisCounters(link: RedisLink): CounterFactory {
  return (name, max, windowMs) => new RedisCounter(link, name, max, windowMs);
}
