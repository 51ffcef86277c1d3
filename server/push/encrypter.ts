import type { EncryptAnswer, EncryptRequest } from "./encrypt_worker.ts";

/** What a push service is sent: the encrypted payload and its VAPID-signed headers. */
export type PushRequest = { endpoint: string; headers: Record<string, string>; body: Uint8Array };

type Pending = { resolve: (request: PushRequest) => void; reject: (error: Error) => void };

/** How long the thread may take to load `web-push` before the tick gives up (and retries later). */
const START_TIMEOUT_MS = 60_000;

/** An idle thread is ended after this long (a busy hour's ticks share one). */
export const PUSH_THREAD_IDLE_MS = 60_000;

/**
 * The main thread's end of encrypt_worker.ts. Numbered requests; a thread that fails fails them
 * all (and the next tick starts another: see usePushThread).
 */
export class PushEncrypter {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #failed?: Error;

  get failed(): boolean {
    return this.#failed !== undefined;
  }

  private constructor(worker: Worker) {
    this.#worker = worker;
  }

  static async start(): Promise<PushEncrypter> {
    const worker = new Worker(new URL("./encrypt_worker.ts", import.meta.url).href, {
      type: "module",
    });
    const encrypter = new PushEncrypter(worker);
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      await new Promise<void>((resolve, reject) => {
        worker.onmessage = (event: MessageEvent<EncryptAnswer | "ready">) => {
          if (event.data === "ready") return resolve();
          encrypter.#answer(event.data);
        };
        worker.onerror = (event: ErrorEvent) => {
          event.preventDefault();
          const error = new Error(`push encryption thread failed: ${event.message}`);
          encrypter.#fail(error);
          reject(error);
        };
        timer = setTimeout(
          () => reject(new Error("push encryption thread did not start")),
          START_TIMEOUT_MS,
        );
      });
    } catch (error) {
      worker.terminate();
      throw error;
    } finally {
      clearTimeout(timer);
    }
    return encrypter;
  }

  /** The request for one device (web-push's generateRequestDetails, on the thread). */
  encrypt(request: Omit<EncryptRequest, "id">): Promise<PushRequest> {
    if (this.#failed) return Promise.reject(this.#failed);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...request, id } satisfies EncryptRequest);
    });
  }

  close(): void {
    this.#fail(new Error("push encryption thread closed"));
    this.#worker.terminate();
  }

  #answer(answer: EncryptAnswer): void {
    const pending = this.#pending.get(answer.id);
    if (!pending) return;
    this.#pending.delete(answer.id);
    if (answer.ok) {
      pending.resolve({ endpoint: answer.endpoint, headers: answer.headers, body: answer.body });
    } else pending.reject(new Error(answer.error));
  }

  #fail(error: Error): void {
    this.#failed ??= error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}

/**
 * One thread per app (AppDeps), started by the first tick with pushes to send and kept for the
 * next ones: starting it costs ~0.2 s of CPU and up to a second (loading `web-push` anew), more
 * than ten pushes' encryption. Ended once no tick has used it for PUSH_THREAD_IDLE_MS, and by
 * closeDeps (server/deps.ts), so none outlives the app.
 */
type Kept = {
  thread: Promise<PushEncrypter>;
  /** The thread once started (a tick gives back only the thread it was given). */
  started?: PushEncrypter;
  using: number;
  idle?: ReturnType<typeof setTimeout>;
};
const kept = new WeakMap<object, Kept>();

/** The app's push thread for one tick; give it back with `donePushThread` when the tick ends. */
export async function usePushThread(app: object): Promise<PushEncrypter> {
  for (let attempt = 1;; attempt++) {
    let entry = kept.get(app);
    if (!entry) {
      entry = { thread: PushEncrypter.start(), using: 0 };
      kept.set(app, entry);
    }
    // Counted before waiting: no idle timer ends it meanwhile.
    entry.using++;
    clearTimeout(entry.idle);
    let thread: PushEncrypter | undefined;
    let error: unknown;
    try {
      thread = await entry.thread;
    } catch (failure) {
      error = failure;
    }
    if (thread && !thread.failed && kept.get(app) === entry) return entry.started = thread;
    // It did not start, or failed since: forgotten, so this tick (once) or the next starts another.
    entry.using--;
    if (kept.get(app) === entry) closePushThread(app);
    if (attempt === 2) throw error ?? new Error("push encryption thread failed");
  }
}

/** A tick is done with its thread: the last one out arms the idle timer. */
export function donePushThread(app: object, thread: PushEncrypter): void {
  const entry = kept.get(app);
  if (!entry || entry.started !== thread || --entry.using > 0) return;
  const idle = setTimeout(() => closePushThread(app), PUSH_THREAD_IDLE_MS);
  // The thread's own ending never keeps a stopping process alive.
  Deno.unrefTimer(idle);
  entry.idle = idle;
}

/** Ends the app's push thread, if any (closeDeps; the idle timer). */
export function closePushThread(app: object): void {
  const entry = kept.get(app);
  if (!entry) return;
  kept.delete(app);
  clearTimeout(entry.idle);
  entry.thread.then((thread) => thread.close(), () => {});
}
