import { AppError } from "../errors.ts";

/**
 * Fixed-window attempt counter per key (an address, an account). In memory on purpose: it holds
 * no data that must survive a restart, only a short-lived count.
 */
export class RateLimiter {
  readonly #hits = new Map<string, { count: number; resetAt: number }>();
  constructor(private readonly max: number, private readonly windowMs: number) {}

  /** Counts `n` attempts; returns seconds to wait when over the limit, else 0. */
  hit(key: string, now = Date.now(), n = 1): number {
    const entry = this.#hits.get(key);
    if (!entry || entry.resetAt <= now) {
      this.#hits.set(key, { count: n, resetAt: now + this.windowMs });
      this.#sweep(now);
      return n > this.max ? Math.ceil(this.windowMs / 1000) : 0;
    }
    entry.count += n;
    return entry.count > this.max ? Math.ceil((entry.resetAt - now) / 1000) : 0;
  }

  /** Takes back `n` attempts counted by `hit` (they turned out not to count). */
  refund(key: string, n = 1) {
    const entry = this.#hits.get(key);
    if (entry) entry.count = Math.max(0, entry.count - n);
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
 * A fixed-window counter as the limits use it: in this process's memory (MemoryCounter, one
 * process) or in Redis for the whole deployment (server/redis/counters.ts, REDIS_URL), so that N
 * processes do not allow N times the limit.
 */
export interface AttemptCounter {
  /** Counts `n` attempts; answers seconds to wait when over the limit, else 0. */
  hit(key: string, now: number, n?: number): Promise<number>;
  /** Takes back `n` attempts counted by `hit`. */
  refund(key: string, n?: number): Promise<void>;
  reset(key: string): Promise<void>;
}

/** Makes the counter of one limit (`name` keeps limits apart in a shared store). */
export type CounterFactory = (name: string, max: number, windowMs: number) => AttemptCounter;

/** This process's memory: RateLimiter behind the shared interface. */
export class MemoryCounter implements AttemptCounter {
  readonly #limiter: RateLimiter;
  constructor(max: number, windowMs: number) {
    this.#limiter = new RateLimiter(max, windowMs);
  }
  hit(key: string, now: number, n = 1): Promise<number> {
    return Promise.resolve(this.#limiter.hit(key, now, n));
  }
  refund(key: string, n = 1): Promise<void> {
    this.#limiter.refund(key, n);
    return Promise.resolve();
  }
  reset(key: string): Promise<void> {
    this.#limiter.reset(key);
    return Promise.resolve();
  }
}

export const memoryCounters: CounterFactory = (_name, max, windowMs) =>
  new MemoryCounter(max, windowMs);

export function rateLimited(wait: number): AppError {
  return new AppError(
    429,
    "ERR_RATE_LIMITED",
    `Muitas tentativas. Tente novamente em ${wait} segundos.`,
  );
}

/**
 * The limits of attempts that guess a secret (logins, password recovery): per account
 * (LOGIN_MAX_ATTEMPTS) and per client address (LOGIN_MAX_ATTEMPTS_PER_ADDRESS), both over
 * LOGIN_WINDOW_SECONDS. Keys are `<kind>:<account>` and `<kind>:<address>`, so each kind counts
 * on its own.
 */
export type AttemptLimits = { account: AttemptCounter; address: AttemptCounter };

export function attemptLimits(
  config: {
    loginMaxAttempts: number;
    loginMaxAttemptsPerAddress: number;
    loginWindowSeconds: number;
  },
  counters: CounterFactory = memoryCounters,
): AttemptLimits {
  const windowMs = config.loginWindowSeconds * 1000;
  return {
    account: counters("attempts:account", config.loginMaxAttempts, windowMs),
    address: counters("attempts:address", config.loginMaxAttemptsPerAddress, windowMs),
  };
}

export type AttemptKeys = { kind: string; account: string; address: string };

/** The two counters' keys of an attempt. */
function keysOf(keys: AttemptKeys) {
  return {
    account: `${keys.kind}:${keys.account.toLowerCase()}`,
    address: `${keys.kind}:${keys.address}`,
  };
}

async function counted(limits: AttemptLimits, keys: AttemptKeys, now: number): Promise<number> {
  const k = keysOf(keys);
  const [account, address] = await Promise.all([
    limits.account.hit(k.account, now),
    limits.address.hit(k.address, now),
  ]);
  return Math.max(account, address);
}

async function refundBoth(limits: AttemptLimits, keys: AttemptKeys) {
  const k = keysOf(keys);
  await Promise.all([limits.account.refund(k.account), limits.address.refund(k.address)]);
}

/**
 * Counts every request against both keys (password recovery mails: each one is sent, whatever
 * the answer says); over either limit, 429 ERR_RATE_LIMITED and not counted.
 */
export async function limitRequests(
  limits: AttemptLimits,
  keys: AttemptKeys,
  retryAfter?: (seconds: number) => void,
) {
  const wait = await counted(limits, keys, Date.now());
  if (wait <= 0) return;
  await refundBoth(limits, keys);
  retryAfter?.(wait);
  throw rateLimited(wait);
}

/**
 * Runs an attempt that guesses a secret, counting it only when it fails (`isFailure`): behind a
 * proxy, or in an office on one address, successful logins lock nobody out. The attempt is
 * counted before it runs and given back after, so that many sent at once cannot all slip under
 * the limit. A success clears its account's failures; the address keeps its count, so that a
 * guesser cannot wipe it by logging into an account of their own between guesses. Over either
 * limit, 429 ERR_RATE_LIMITED (with Retry-After through `retryAfter`), and the refused attempt
 * counts nowhere: a locked account does not lock the address of whoever keeps trying it.
 */
export async function guardAttempt<T>(
  limits: AttemptLimits,
  keys: AttemptKeys,
  attempt: () => Promise<T>,
  options: { isFailure: (error: unknown) => boolean; retryAfter?: (seconds: number) => void },
): Promise<T> {
  const wait = await counted(limits, keys, Date.now());
  if (wait > 0) {
    await refundBoth(limits, keys);
    options.retryAfter?.(wait);
    throw rateLimited(wait);
  }
  let result: T;
  try {
    result = await attempt();
  } catch (error) {
    if (!options.isFailure(error)) await refundBoth(limits, keys);
    throw error;
  }
  const k = keysOf(keys);
  await Promise.all([limits.account.reset(k.account), limits.address.refund(k.address)]);
  return result;
}
