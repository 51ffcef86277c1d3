import { createTestApp, type TestApp } from "./app.ts";
import { WAIT_BOUND_MS } from "./eventually.ts";

/** The test app on a real port (for real WebSockets and the browser). */
export function serve(t: TestApp): {
  url: string;
  wsUrl: string;
  /** How many requests the app has answered so far (a fact tests can wait for). */
  answered: () => number;
  close: () => Promise<void>;
} {
  // Requests still being answered, so that a shutdown that cannot finish can name them.
  const inFlight = new Map<number, string>();
  let nextId = 0;
  let answered = 0;
  const server = Deno.serve(
    { port: 0, hostname: "127.0.0.1", onListen: () => {} },
    async (request, info) => {
      const id = nextId++;
      const url = new URL(request.url);
      inFlight.set(id, `${new Date().toISOString()} ${request.method} ${url.pathname}`);
      try {
        return await t.app.fetch(request, { remoteAddr: info.remoteAddr.hostname });
      } finally {
        inFlight.delete(id);
        answered++;
      }
    },
  );
  const { port } = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    answered: () => answered,
    close: () =>
      deadline(server.shutdown(), 20_000, () => {
        const pending = [...inFlight.values()].join("\n  ") || "(none)";
        return `the test server did not shut down in 20 s; in flight:\n  ${pending}`;
      }),
  };
}

/** What `deadline` rejects with when the time is up. */
export class DeadlineError extends Error {}

/** `promise`, or a DeadlineError with `message()` after `ms`. */
export function deadline<T>(promise: Promise<T>, ms: number, message: () => string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(message())), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export type SocketEvent = { event: string; data: unknown };

/** A real WebSocket client that records every event, with waits for a matching one. */
export class TestSocket {
  readonly events: SocketEvent[] = [];
  readonly #waiters: { match: (e: SocketEvent) => boolean; resolve: (e: SocketEvent) => void }[] =
    [];
  /** settle() barriers in flight, by the id their `ping` carries. */
  readonly #barriers = new Map<number, () => void>();
  #nextBarrier = 0;
  readonly closed: Promise<CloseEvent>;
  private constructor(readonly ws: WebSocket) {
    ws.onmessage = (message) => {
      // One frame holds one event, or several as an array (server/realtime/frames.ts).
      const parsed = JSON.parse(String(message.data)) as SocketEvent | SocketEvent[];
      for (const event of Array.isArray(parsed) ? parsed : [parsed]) this.#record(event);
    };
    this.closed = new Promise((resolve) =>
      ws.addEventListener("close", (e) => resolve(e as CloseEvent))
    );
  }

  #record(event: SocketEvent) {
    if (event.event === "ping") this.ws.send(JSON.stringify({ event: "pong" }));
    if (event.event === "pong") {
      // The answer to a client's ping (a barrier): not an event of the app, so not recorded.
      if (typeof event.data === "number") this.#barriers.get(event.data)?.();
      return;
    }
    this.events.push(event);
    for (const waiter of [...this.#waiters]) {
      if (waiter.match(event)) {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    }
  }

  /**
   * Connects and waits for the server's 'ready'. The token goes in the query, as the
   * specification's client sends it, or in the first message, as our pages do.
   */
  static async connect(
    wsUrl: string,
    token: string,
    tokenIn: "query" | "message" = "query",
  ): Promise<TestSocket> {
    const ws = tokenIn === "query"
      ? new WebSocket(`${wsUrl}/socket?token=${encodeURIComponent(token)}`)
      : new WebSocket(`${wsUrl}/socket`);
    if (tokenIn === "message") {
      ws.onopen = () => ws.send(JSON.stringify({ event: "auth", data: { token } }));
    }
    const socket = new TestSocket(ws);
    await socket.next((e) => e.event === "ready");
    return socket;
  }

  send(event: string, data?: unknown) {
    this.ws.send(JSON.stringify({ event, data }));
  }

  /** Resolves with the first event (already received or future) that matches; rejects after `ms`. */
  next(match: (e: SocketEvent) => boolean, ms = WAIT_BOUND_MS): Promise<SocketEvent> {
    const seen = this.events.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const waiter = {
        match,
        resolve: (e: SocketEvent) => {
          clearTimeout(timer);
          resolve(e);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
        reject(new Error(`no matching socket event within ${ms} ms`));
      }, ms);
      this.#waiters.push(waiter);
    });
  }

  /**
   * A barrier: resolves once this socket has received everything the server sent it before it
   * read our `ping`, and the server has handled every event we sent before (joins, userStatus).
   * The server answers `pong` with our id in order, in the same frame queue as the events
   * (server/realtime/socket.ts, frames.ts). Whatever a request published before its response
   * has arrived once this resolves: assert "heard nothing" after the listener's own settle().
   */
  async settle(ms = WAIT_BOUND_MS): Promise<void> {
    // A closed socket hears nothing more: what it got is all it will ever get.
    const closed = this.closed.then(() => {});
    if (this.ws.readyState !== WebSocket.OPEN) return await closed;
    const id = ++this.#nextBarrier;
    const answered = new Promise<void>((resolve) => {
      this.#barriers.set(id, resolve);
      this.send("ping", id);
    });
    await deadline(
      Promise.race([answered, closed]),
      ms,
      () => `no pong ${id} from the server within ${ms} ms`,
    ).finally(() => this.#barriers.delete(id));
  }

  named(event: string): SocketEvent[] {
    return this.events.filter((e) => e.event === event);
  }

  async close() {
    if (this.ws.readyState === WebSocket.CLOSED) return;
    this.ws.close();
    await this.closed;
  }
}

/** A fresh app on a real port for `fn`; sockets, server and app always closed after. */
export async function withServer(
  fn: (t: TestApp, wsUrl: string, url: string) => Promise<void>,
): Promise<void> {
  const t = await createTestApp();
  const s = serve(t);
  try {
    await fn(t, s.wsUrl, s.url);
  } finally {
    t.deps.hub.closeAll();
    await s.close();
    await t.close();
  }
}
