import { createTestApp, type TestApp } from "./app.ts";

/** The test app on a real port (for real WebSockets and the browser). */
export function serve(t: TestApp): { url: string; wsUrl: string; close: () => Promise<void> } {
  // Requests still being answered, so that a shutdown that cannot finish can name them.
  const inFlight = new Map<number, string>();
  let nextId = 0;
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
      }
    },
  );
  const { port } = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
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
  next(match: (e: SocketEvent) => boolean, ms = 3000): Promise<SocketEvent> {
    const seen = this.events.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("timed out waiting for a socket event")), ms);
      this.#waiters.push({
        match,
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e);
        },
      });
    });
  }

  /** Gives the server time to deliver anything pending (a round trip through a ping of our own). */
  async settle() {
    await new Promise((r) => setTimeout(r, 50));
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
