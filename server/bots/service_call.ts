import { AppError } from "../errors.ts";
import type { Fetcher, OutboundInit } from "../http/outbound_fetch.ts";
import { log } from "../log.ts";

/**
 * How every bot calls its outside service (webhook, n8n, typebot, dialogflow, TTS): through
 * `via` (a user's URL: AppDeps.outbound, which checks the address it connects to, each redirect
 * included; an operator's endpoint: operatorFetch) with a per-attempt timeout, a few retries with exponential backoff for what may pass
 * (network errors, timeouts, 429 and 5xx), and a circuit per service that, after repeated
 * failures, stops calling for a while so that contacts are handed to people at once instead of
 * each waiting out the retries. The circuit lives in memory: a restart simply tries again.
 */
export class ServiceError extends Error {
  constructor(message: string, readonly retriable: boolean, readonly status?: number) {
    super(message);
    this.name = "ServiceError";
  }
}

export type CallOptions = {
  timeoutMs: number;
  via: Fetcher;
  /** Attempts after the first (default 2). */
  retries?: number;
  backoffMs?: number;
  /** Answers larger than this are refused (default 1 MiB). */
  maxBytes?: number;
};

export type ServiceAnswer = { status: number; text: string; headers: Headers };

const FAILURES_TO_OPEN = 3;
const OPEN_MS = 30_000;

export class Circuit {
  readonly #state = new Map<string, { failures: number; openUntil: number }>();

  /** `now`: the clock it opens and closes by (the assistant's job passes the app's clock). */
  constructor(private readonly now: () => number = Date.now) {}

  isOpen(key: string): boolean {
    const state = this.#state.get(key);
    return state !== undefined && state.openUntil > this.now();
  }

  success(key: string) {
    this.#state.delete(key);
  }

  failure(key: string) {
    const state = this.#state.get(key) ?? { failures: 0, openUntil: 0 };
    state.failures++;
    if (state.failures >= FAILURES_TO_OPEN) {
      state.openUntil = this.now() + OPEN_MS;
      state.failures = 0;
      log.warn("bots: service circuit opened; tickets go to people for a while", { key });
    }
    this.#state.set(key, state);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function readLimited(response: Response, maxBytes: number): Promise<Uint8Array> {
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (true) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new ServiceError("answer too large", false);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** One request with retries; resolves with a 2xx answer's bytes, else throws ServiceError. */
export async function callServiceBytes(
  url: string,
  init: OutboundInit,
  options: CallOptions,
): Promise<{ status: number; bytes: Uint8Array; headers: Headers }> {
  const retries = options.retries ?? 2;
  const backoff = options.backoffMs ?? 200;
  let last: ServiceError = new ServiceError("not called", true);
  for (let attempt = 0; attempt <= retries; attempt++) {
    if (attempt > 0) await sleep(backoff * 2 ** (attempt - 1));
    try {
      const response = await options.via(url, {
        ...init,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      const bytes = await readLimited(response, options.maxBytes ?? 1024 * 1024);
      if (response.status >= 200 && response.status < 300) {
        return { status: response.status, bytes, headers: response.headers };
      }
      const retriable = response.status === 429 || response.status >= 500;
      last = new ServiceError(`HTTP ${response.status}`, retriable, response.status);
      if (!retriable) throw last;
    } catch (error) {
      if (error instanceof ServiceError && !error.retriable) throw error;
      // A refused address (ERR_INTEGRATION_URL, checked on every call: a name may resolve
      // elsewhere since it was saved) does not pass by trying again.
      if (error instanceof AppError) throw new ServiceError(error.message, false);
      if (!(error instanceof ServiceError)) {
        const name = error instanceof Error ? error.name : "";
        last = new ServiceError(
          name === "TimeoutError" ? "timed out" : `unreachable: ${String(error)}`,
          true,
        );
      }
    }
  }
  throw last;
}

export async function callService(
  url: string,
  init: OutboundInit,
  options: CallOptions,
): Promise<ServiceAnswer> {
  const { status, bytes, headers } = await callServiceBytes(url, init, options);
  return { status, text: new TextDecoder().decode(bytes), headers };
}

/** Parses an answer's JSON; a body that is not JSON is a ServiceError (the bot hands over). */
export function parseJson(text: string): unknown {
  if (text.trim() === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new ServiceError("answer is not JSON", false);
  }
}
