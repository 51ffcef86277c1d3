import type { SocketLike } from "./hub.ts";

/**
 * Frame coalescing for real WebSockets. Every event a socket is sent during one turn of the event
 * loop leaves in ONE frame: a lone event as its JSON object, several as a JSON array of them, in
 * order. Under load (a group commit of 64 inbound messages, each an event for 50 listeners) the
 * cost of a WebSocket send is the frame, not the bytes: 3,200 frames become 50. Clients accept
 * both shapes (islands/lib/socket.ts, tests/helpers/server.ts).
 */
export class FrameCoalescer implements SocketLike {
  #pending: string[] = [];
  #closed = false;

  constructor(private readonly socket: WebSocket) {}

  send(text: string) {
    if (this.#closed) throw new Error("socket closed");
    if (this.#pending.length === 0) scheduleFlush(this);
    this.#pending.push(text);
  }

  close(code?: number, reason?: string) {
    this.flush();
    this.#closed = true;
    this.socket.close(code, reason);
  }

  /** Writes what is pending as one frame; `frames` shares the joined text between sockets. */
  flush(frames?: FrameCache) {
    const pending = this.#pending;
    if (pending.length === 0 || this.#closed) return;
    this.#pending = [];
    if (this.socket.readyState !== WebSocket.OPEN) return;
    this.socket.send(
      pending.length === 1 ? pending[0] : frames ? frames.join(pending) : `[${pending.join(",")}]`,
    );
  }
}

/**
 * Most listeners of a company get the same events in a turn: their frame is built once. Event
 * texts are the hub's own strings, so a sequence is named by the numbers given to its texts.
 */
class FrameCache {
  readonly #ids = new Map<string, number>();
  readonly #frames = new Map<string, string>();

  join(texts: string[]): string {
    let key = "";
    for (const text of texts) {
      let id = this.#ids.get(text);
      if (id === undefined) this.#ids.set(text, id = this.#ids.size);
      key += `${id},`;
    }
    let frame = this.#frames.get(key);
    if (frame === undefined) this.#frames.set(key, frame = `[${texts.join(",")}]`);
    return frame;
  }
}

let dirty: FrameCoalescer[] = [];

function scheduleFlush(socket: FrameCoalescer) {
  if (dirty.length === 0) setTimeout(flushAll, 0);
  dirty.push(socket);
}

function flushAll() {
  const sockets = dirty;
  dirty = [];
  const frames = new FrameCache();
  for (const socket of sockets) {
    try {
      socket.flush(frames);
    } catch {
      // a socket closing under us: its close handler removes it from the hub
    }
  }
}
