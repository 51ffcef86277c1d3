import { AppError } from "../errors.ts";

/**
 * Fixed-window attempt counter per key (an IP, an email). In memory on purpose: it holds no
 * data that must survive a restart, only a short-lived count.
 */
export class RateLimiter {
  readonly #hits = new Map<string, { count: number; resetAt: number }>();
  constructor(private readonly max: number, private readonly windowMs: number) {}

  /** Counts one attempt; returns seconds to wait when over the limit, else 0. */
  hit(key: string, now = Date.now()): number {
    const entry = this.#hits.get(key);
    if (!entry || entry.resetAt <= now) {
      this.#hits.set(key, { count: 1, resetAt: now + this.windowMs });
      this.#sweep(now);
      return 0;
    }
    entry.count++;
    return entry.count > this.max ? Math.ceil((entry.resetAt - now) / 1000) : 0;
  }

  reset(key: string) {
    this.#hits.delete(key);
  }

  #sweep(now: number) {
    if (this.#hits.size < 10_000) return;
    for (const [key, entry] of this.#hits) if (entry.resetAt <= now) this.#hits.delete(key);
  }
}

/**
 * Counts one attempt under every key (an IP, an email); over the limit for any of them, a 429
 * ERR_RATE_LIMITED that says how long to wait (and sets Retry-After through `retryAfter`).
 */
export function limitAttempts(
  limiter: RateLimiter,
  keys: string[],
  retryAfter?: (seconds: number) => void,
) {
  const wait = Math.max(...keys.map((key) => limiter.hit(key)));
  if (wait <= 0) return;
  retryAfter?.(wait);
  throw new AppError(
    429,
    "ERR_RATE_LIMITED",
    `Muitas tentativas. Tente novamente em ${wait} segundos.`,
  );
}

/** Client address: Deno.serve's remote address, passed in as a binding by main.ts. */
export function clientIp(c: { env?: { remoteAddr?: string } }): string {
  return c.env?.remoteAddr ?? "local";
}
