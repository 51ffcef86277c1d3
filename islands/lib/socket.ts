import { useCallback, useEffect, useRef } from "react";
import { api, refreshAccessToken } from "./api.ts";
import { readStorage, STORAGE, storedToken } from "./storage.ts";
import type { SocketMessage } from "../../contract/types.ts";
import type {
  Channel,
  PayloadOf,
  ResourceChannelOf,
  ResourceEvent,
  SocketEvents,
} from "../../contract/events.ts";

/**
 * The page's one realtime connection to /socket (server/realtime/socket.ts), authenticated by a
 * first message `{event: "auth", data: {token}}`. Messages are JSON `{ event, data }`; company
 * events are named `company-<companyId>-<channel>` and are subscribed here by channel:
 * `realtime.on("ticket", (data) => ...)`.
 *
 * - answers the server's `ping` with `pong` (seeds/000 section 9: 18 s);
 * - reconnects with a growing delay (1 s doubling to 30 s, with jitter), refreshing an expired
 *   token first, and sends again the rooms joined with `join(...)`;
 * - remembers which joins the server confirmed (`joined`): see useRoomSync;
 * - sends `userStatus` every 300000 ms while connected (seeds/000 section 9).
 */
export const USER_STATUS_INTERVAL_MS = 300_000;
const MAX_BACKOFF_MS = 30_000;

/**
 * What a page can listen to: a company channel (its payload is the catalogue's,
 * contract/events.ts), an event of the socket itself, or `disconnect` (this page lost it).
 */
export type Listenable = Channel | keyof SocketEvents | "disconnect";

export type DataOf<C extends Listenable> = C extends Channel ? PayloadOf<C>
  : C extends keyof SocketEvents ? SocketEvents[C]
  : null;

/** An event of one of several channels, told apart by `channel`. */
export type ChannelEvent<C extends Channel> = { [K in C]: { channel: K; data: PayloadOf<K> } }[C];

/**
 * Handlers are kept by name. The server sends each name's catalogue payload (the trust boundary
 * of the JSON it sends): `#emit` hands the parsed data to the handlers of that name, typed by
 * `on` when they were added.
 */
type Handler = (data: never) => void;

/**
 * Whether the access token is about to expire (no signature check: only to avoid a refused
 * socket). Measured by this browser's clock from when the token arrived, over the token's own
 * lifetime (exp - iat): a computer whose clock is off would otherwise refresh at every page load,
 * or never.
 */
function tokenStale(token: string): boolean {
  try {
    const payload = JSON.parse(atob(token.split(".")[1].replace(/-/g, "+").replace(/_/g, "/")));
    const { iat, exp } = payload as { iat?: unknown; exp?: unknown };
    if (typeof exp !== "number") return false;
    const receivedAt = Number(readStorage(STORAGE.tokenReceivedAt));
    if (typeof iat === "number" && Number.isFinite(receivedAt) && receivedAt > 0) {
      return Date.now() - receivedAt > (exp - iat) * 1000 - STALE_MARGIN_MS;
    }
    return exp * 1000 < Date.now() + STALE_MARGIN_MS;
  } catch {
    return false;
  }
}

/** A token this close to its expiry is refreshed before the socket opens. */
const STALE_MARGIN_MS = 5_000;

export class RealtimeClient {
  #ws: WebSocket | null = null;
  #handlers = new Map<string, Set<Handler>>();
  #joins = new Map<string, { event: string; data: unknown }>();
  /** Joins the server confirmed on this connection (see useRoomSync). */
  #confirmed = new Set<string>();
  #companyId: number | null = null;
  #attempt = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #statusTimer: ReturnType<typeof setInterval> | null = null;
  #stopped = true;
  #ready = false;
  /** The token this connection was opened with (see AppShell: a login elsewhere). */
  token: string | null = null;

  get connected(): boolean {
    return this.#ready;
  }

  /** Opens the connection (once per page; later calls do nothing). */
  start() {
    if (!this.#stopped) return;
    this.#stopped = false;
    void this.#connect();
  }

  stop() {
    this.#stopped = true;
    this.#ready = false;
    if (this.#timer) clearTimeout(this.#timer);
    if (this.#statusTimer) clearInterval(this.#statusTimer);
    this.#ws?.close();
    this.#ws = null;
  }

  /**
   * Subscribes to a company channel ("ticket", "whatsapp", "auth", ...) or to a raw event name
   * ("ready"). Returns the unsubscribe function.
   */
  on<C extends Listenable>(channel: C, handler: (data: DataOf<C>) => void): () => void {
    let set = this.#handlers.get(channel);
    if (!set) this.#handlers.set(channel, set = new Set());
    set.add(handler);
    return () => set.delete(handler);
  }

  send(event: string, data?: unknown) {
    if (this.#ws?.readyState === WebSocket.OPEN) this.#ws.send(JSON.stringify({ event, data }));
  }

  /**
   * Joins a room (joinTickets with a status, joinChatBox with a ticket id, joinNotification),
   * now and after every reconnect. Returns a function that leaves it (leaveTickets/leaveChatBox).
   */
  join(event: JoinEvent, data?: unknown): () => void {
    const key = joinKey(event, data);
    this.#joins.set(key, { event, data });
    if (this.#ready) this.send(event, data);
    return () => {
      this.#joins.delete(key);
      this.#confirmed.delete(key);
      const leave = event === "joinTickets"
        ? "leaveTickets"
        : event === "joinChatBox"
        ? "leaveChatBox"
        : null;
      if (leave && this.#ready) this.send(leave, data);
    };
  }

  /** Did the server confirm this join on the current connection? */
  isJoined(event: JoinEvent, data?: unknown): boolean {
    return this.#confirmed.has(joinKey(event, data));
  }

  /** `<html data-socket="connecting|ready|closed">`: styles (offline hint) and tests can see it. */
  #mark(state: "connecting" | "ready" | "closed") {
    document.documentElement.dataset.socket = state;
  }

  #emit(channel: string, data: unknown) {
    for (const handler of this.#handlers.get(channel) ?? []) {
      try {
        (handler as (data: unknown) => void)(data);
      } catch (error) {
        // One failing listener must not stop the others; keep it visible to developers.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  async #connect() {
    if (this.#stopped) return;
    let token = storedToken();
    if (!token) return;
    if (tokenStale(token)) {
      token = await refreshAccessToken(token);
      if (!token) {
        // The api client knows what a dead session means (clears it, goes to /login).
        await api.get("/auth/me", { quiet: true }).catch(() => {});
        return;
      }
    }
    if (this.#stopped) return;
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    this.#mark("connecting");
    // The token goes in the first message, not the URL: request lines land in proxy logs.
    const ws = new WebSocket(`${scheme}//${location.host}/socket`);
    this.#ws = ws;
    this.token = token;
    const sent = token;
    ws.onopen = () => ws.send(JSON.stringify({ event: "auth", data: { token: sent } }));
    ws.onmessage = (message) => this.#onMessage(String(message.data));
    ws.onclose = () => {
      if (this.#ws !== ws) return;
      const wasReady = this.#ready;
      this.#ready = false;
      this.#confirmed.clear();
      this.#ws = null;
      if (this.#statusTimer) clearInterval(this.#statusTimer);
      this.#mark("closed");
      this.#emit("disconnect", null);
      if (this.#stopped) return;
      if (!wasReady) {
        // Refused before 'ready': maybe the token went stale; let the api client sort it out.
        void api.get("/auth/me", { quiet: true }).catch(() => {});
      }
      this.#schedule();
    };
  }

  #schedule() {
    const base = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** this.#attempt);
    this.#attempt++;
    const delay = base / 2 + Math.random() * base / 2;
    this.#timer = setTimeout(() => void this.#connect(), delay);
  }

  #onMessage(raw: string) {
    let parsed: SocketMessage | SocketMessage[];
    try {
      parsed = JSON.parse(raw);
    } catch {
      return;
    }
    // The server sends the events of one turn together as an array (server/realtime/frames.ts).
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) this.#onEvent(message);
  }

  #onEvent(message: SocketMessage) {
    if (message.event === "ping") {
      this.send("pong");
      return;
    }
    if (message.event === "ready") {
      const companyId = field(message.data, "companyId");
      this.#companyId = typeof companyId === "number" ? companyId : null;
      this.#ready = true;
      this.#attempt = 0;
      for (const join of this.#joins.values()) this.send(join.event, join.data);
      this.send("userStatus");
      if (this.#statusTimer) clearInterval(this.#statusTimer);
      this.#statusTimer = setInterval(() => this.send("userStatus"), USER_STATUS_INTERVAL_MS);
      this.#mark("ready");
      this.#emit("ready", message.data);
      return;
    }
    if (message.event === "joined") {
      const event = field(message.data, "event");
      if (typeof event === "string") {
        this.#confirmed.add(joinKey(event, field(message.data, "data")));
      }
      this.#emit("joined", message.data);
      return;
    }
    const prefix = `company-${this.#companyId}-`;
    if (this.#companyId !== null && message.event.startsWith(prefix)) {
      this.#emit(message.event.slice(prefix.length), message.data);
    } else {
      this.#emit(message.event, message.data);
    }
  }
}

type JoinEvent = "joinTickets" | "joinChatBox" | "joinNotification";

/** A field of an object the socket sent (undefined for anything else). */
function field(data: unknown, key: string): unknown {
  return data !== null && typeof data === "object"
    ? Object.getOwnPropertyDescriptor(data, key)?.value
    : undefined;
}

function joinKey(event: string, data: unknown): string {
  return `${event}:${JSON.stringify(data ?? null)}`;
}

/** The page's connection; the shell starts it once the session is known. */
export const realtime = new RealtimeClient();

/**
 * Subscribes a component to a channel for its lifetime; `data` is the channel's payload of the
 * catalogue (contract/events.ts). The handler may change between renders without resubscribing;
 * no channel (null) subscribes to nothing.
 */
export function useRealtime<C extends Listenable>(
  channel: C | null,
  handler: (data: DataOf<C>) => void,
) {
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(
    () => channel === null ? undefined : realtime.on<C>(channel, (data) => ref.current(data)),
    [channel],
  );
}

/**
 * A live list's events (the list kit): a resource channel whose records a list of T shows, as
 * resource events of T.
 */
export function useResourceEvents<T>(
  channel: ResourceChannelOf<T> | null,
  handler: (event: ResourceEvent<T>) => void,
) {
  const ref = useRef(handler);
  ref.current = handler;
  // A resource channel's payload is a ResourceEvent of its record (checked in contract/events.ts),
  // and that record is a T (ResourceChannelOf): its events are resource events of T.
  const deliver = (event: ResourceEvent<T>) => ref.current(event);
  useEffect(
    () =>
      channel === null
        ? undefined
        : realtime.on<Channel>(channel, deliver as (data: PayloadOf<Channel>) => void),
    [channel],
  );
}

/**
 * Several channels with one handler, each event told apart by its `channel` (the shell's live
 * lists); a change of the channels subscribes again.
 */
export function useChannels<C extends Channel>(
  channels: readonly C[],
  handler: (event: ChannelEvent<C>) => void,
) {
  const ref = useRef(handler);
  ref.current = handler;
  const key = channels.join(" ");
  useEffect(() => {
    // Each channel's data is its own payload, so `{channel, data}` is that channel's event.
    type Untyped = (event: { channel: Channel; data: unknown }) => void;
    const deliver: Untyped = (event) => (ref.current as Untyped)(event);
    const offs = channels.map((channel) =>
      realtime.on<Channel>(channel, (data) => deliver({ channel, data }))
    );
    return () => offs.forEach((off) => off());
  }, [key]);
}

/** A room a view follows: the join event and its data (e.g. ["joinTickets", "pending"]). */
export type Room = readonly [JoinEvent, unknown];

/**
 * Keeps something read over HTTP and then followed over the socket complete. Events published
 * before the server confirmed the view's rooms (the page just opened, or the connection came
 * back) never reached this socket; a read made then may miss them. So a read marks itself stale
 * unless every room is confirmed, and once the last of them is confirmed `reread` runs.
 * Without rooms, a reconnect triggers `reread`; so does the server's `sync` reload signal (events
 * lost between its processes). Returns `markRead`: call it as each read starts.
 */
export function useRoomSync(rooms: readonly Room[], reread: () => void): () => void {
  const stale = useRef(false);
  const roomsRef = useRef(rooms);
  roomsRef.current = rooms;
  const rereadRef = useRef(reread);
  rereadRef.current = reread;
  const allJoined = () => roomsRef.current.every(([e, d]) => realtime.isJoined(e, d));
  const catchUp = () => {
    if (!stale.current) return;
    stale.current = false;
    rereadRef.current();
  };
  useRealtime("disconnect", () => {
    stale.current = true;
  });
  useRealtime("ready", () => {
    if (roomsRef.current.length === 0) catchUp();
  });
  // The server may have lost events between its processes (Redis restarted): read again now.
  useRealtime("sync", () => rereadRef.current());
  useRealtime("joined", () => {
    if (roomsRef.current.length > 0 && allJoined()) catchUp();
  });
  return useCallback(() => {
    stale.current = !allJoined() || !realtime.connected;
  }, []);
}
