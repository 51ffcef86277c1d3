import type { EncryptAnswer, EncryptRequest } from "./encrypt_worker.ts";

/** What a push service is sent: the encrypted payload and its VAPID-signed headers. */
export type PushRequest = { endpoint: string; headers: Record<string, string>; body: Uint8Array };

type Pending = { resolve: (request: PushRequest) => void; reject: (error: Error) => void };

/** How long the thread may take to load `web-push` before the tick gives up (and retries later). */
const START_TIMEOUT_MS = 60_000;

/**
 * The main thread's end of encrypt_worker.ts, one per tick of the `push` job that finds pushes to
 * send (sendDuePushes starts it on the first due batch and closes it when the tick ends, so no
 * thread outlives the work or the app). Numbered requests; a thread that fails fails them all.
 */
export class PushEncrypter {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #failed?: Error;

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
