import type { Context } from "hono";
import { authenticate } from "../auth/middleware.ts";
import { subscriptionOverdue } from "../auth/policy.ts";
import { enabledFlags } from "../plans/features.ts";
import type { AppDeps, AppEnv, AuthInfo } from "../context.ts";
import { AppError } from "../errors.ts";
import { log } from "../log.ts";
import { canViewTicket } from "../tickets/access.ts";
import { userQueueIds } from "../users/repository.ts";
import { markPresence } from "../users/presence_repository.ts";
import { PING_INTERVAL_MS } from "./events.ts";
import { FrameCoalescer } from "./frames.ts";
import type { Hub, Member } from "./hub.ts";

const TICKET_STATUSES = new Set(["pending", "open", "closed"]);

type Incoming = { event?: unknown; data?: unknown };

/**
 * Confirms a join. Events published before it were not sent to this socket, events after it
 * are: a client that read a list before this answer reads it again, and misses nothing.
 */
function joined(hub: Hub, member: Member, event: string, data: unknown) {
  hub.sendTo(member, "joined", { event, data });
}

async function handleClientEvent(deps: AppDeps, auth: AuthInfo, member: Member, message: Incoming) {
  const hub = deps.hub;
  switch (message.event) {
    case "joinTickets":
    case "leaveTickets": {
      const status = String(message.data);
      if (!TICKET_STATUSES.has(status)) {
        return hub.sendTo(member, "error", { error: "ERR_VALIDATION" });
      }
      if (message.event === "joinTickets") {
        hub.join(member, { kind: "status", status });
        return joined(hub, member, message.event, status);
      }
      hub.leave(member, { kind: "status", status });
      return;
    }
    case "joinChatBox":
    case "leaveChatBox": {
      const ticketId = Number(message.data);
      if (!Number.isInteger(ticketId)) {
        return hub.sendTo(member, "error", { error: "ERR_VALIDATION" });
      }
      if (message.event === "leaveChatBox") return hub.leave(member, { kind: "ticket", ticketId });
      if (await canViewTicket(deps.db, auth, ticketId)) {
        hub.join(member, { kind: "ticket", ticketId });
        return joined(hub, member, message.event, ticketId);
      }
      hub.sendTo(member, "error", { error: "ERR_NO_TICKET_FOUND" });
      return;
    }
    case "joinNotification":
      hub.join(member, { kind: "notification" });
      return joined(hub, member, message.event, null);
    case "userStatus":
      await markPresence(
        deps.db,
        {
          companyId: auth.companyId,
          userId: auth.userId,
          instanceId: deps.config.instanceId,
        },
        true,
        deps.clock.now().toISOString(),
      );
      return;
    case "ping": {
      // A client's barrier (events.ts CLIENT_EVENTS): answered in order, after what is queued.
      const id = message.data;
      if (typeof id !== "number" && !(typeof id === "string" && id.length <= 64)) {
        return hub.sendTo(member, "error", { error: "ERR_VALIDATION", message: "ping id" });
      }
      return hub.sendTo(member, "pong", id);
    }
    case "pong":
      return;
    default:
      hub.sendTo(member, "error", { error: "ERR_VALIDATION", message: "unknown event" });
  }
}

/** Close code for a socket whose token was refused (4000-4999: the application's own). */
export const SOCKET_AUTH_FAILED = 4001;

/** How long a socket opened without `?token=` has to send its `auth` message. */
export const SOCKET_AUTH_TIMEOUT_MS = 10_000;

/**
 * GET /socket: a WebSocket bound to the token's company and user. The token comes in the first
 * message, `{"event": "auth", "data": {"token": "<access token>"}}` (our pages), or, for the
 * specification's client, in the query, `/socket?token=<access token>`: browsers cannot set
 * headers on a WebSocket, and a request line lands in proxy logs, a message does not (issue 35).
 *
 * The upgrade is answered at once and the token checked once the socket is open: a refused token
 * (or no `auth` first message within SOCKET_AUTH_TIMEOUT_MS) gets an `error` event with its code
 * and a close with SOCKET_AUTH_FAILED. Not checked before the upgrade because an upgrade answered
 * after an await, to a client that has gone meanwhile (a tab closed mid-handshake), is never
 * completed by Deno.serve and keeps `server.shutdown()` waiting forever (Deno 2.9;
 * tests/realtime/hub_test.ts reproduces it).
 */
export function socketHandler(deps: AppDeps) {
  return (c: Context<AppEnv>) => {
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
      throw new AppError(400, "ERR_VALIDATION", "Expected a WebSocket upgrade");
    }
    let upgraded: ReturnType<typeof Deno.upgradeWebSocket>;
    try {
      upgraded = Deno.upgradeWebSocket(c.req.raw);
    } catch {
      throw new AppError(400, "ERR_VALIDATION", "Expected a WebSocket upgrade");
    }
    const { socket, response } = upgraded;
    const queryToken = c.req.query("token");
    let auth: AuthInfo | undefined;
    let member: Member | undefined;
    /** Set once a token is being checked: later messages wait for `ready`, as clients do. */
    let admitting = false;
    let authTimer: ReturnType<typeof setTimeout> | undefined;
    // A socket's events are handled one after another, in the order sent: a join answered before
    // the next event is read, so that a client's `ping` is answered after all it sent before.
    let handled: Promise<void> = Promise.resolve();

    const refuse = (code: string) => {
      try {
        socket.send(JSON.stringify({ event: "error", data: { error: code } }));
        socket.close(SOCKET_AUTH_FAILED, code);
      } catch {
        // The client is already gone.
      }
    };

    const admit = async (token: string | undefined) => {
      admitting = true;
      clearTimeout(authTimer);
      let queueIds: number[];
      try {
        const { queueIds: admitted, ...caller } = await authenticate(deps, token);
        // A socket lives long: what it checks later reads the user's queues afresh (viewerOf).
        auth = caller;
        // Issue 29: a billing-only session hears nothing (it pays; /me tells it when it may).
        if (auth.restricted) throw subscriptionOverdue();
        // A session that must turn on two-factor first hears nothing yet (issue 30).
        if (auth.enrolling) return refuse("ERR_TWO_FACTOR_SETUP_REQUIRED");
        queueIds = admitted ?? await userQueueIds(deps.db, auth.companyId, auth.userId);
      } catch (error) {
        if (!(error instanceof AppError)) log.error("socket authentication failed", { error });
        return refuse(error instanceof AppError ? error.code : "ERR_UNAUTHORIZED");
      }
      // The client may have left while its token was being checked.
      if (socket.readyState !== WebSocket.OPEN) return;
      member = deps.hub.add({
        companyId: auth.companyId,
        userId: auth.userId,
        profile: auth.profile,
        queueIds,
        allTicket: auth.user.allTicket === "enable",
        flags: enabledFlags(auth.plan),
        isSuper: auth.isSuper,
        sessionId: auth.sessionId,
      }, new FrameCoalescer(socket));
      deps.hub.sendTo(member, "ready", { companyId: auth.companyId, userId: auth.userId });
    };

    socket.onopen = () => {
      if (queryToken !== undefined) return void admit(queryToken);
      authTimer = setTimeout(() => refuse("ERR_UNAUTHORIZED"), SOCKET_AUTH_TIMEOUT_MS);
    };
    socket.onmessage = (event) => {
      if (!member || !auth) {
        if (!admitting) void admit(tokenOfAuthMessage(String(event.data)));
        return;
      }
      member.lastSeen = Date.now();
      let parsed: Incoming;
      try {
        parsed = JSON.parse(String(event.data));
      } catch {
        return deps.hub.sendTo(member, "error", {
          error: "ERR_VALIDATION",
          message: "invalid JSON",
        });
      }
      const [a, m] = [auth, member];
      handled = handled.then(() => handleClientEvent(deps, a, m, parsed)).catch((error) =>
        log.error("socket event failed", { event: parsed.event, error })
      );
    };
    socket.onclose = () => {
      clearTimeout(authTimer);
      if (member) deps.hub.remove(member);
    };
    socket.onerror = () => {
      clearTimeout(authTimer);
      if (member) deps.hub.remove(member);
    };
    return response;
  };
}

/** The token of `{"event": "auth", "data": {"token": "..."}}`; undefined for anything else. */
function tokenOfAuthMessage(text: string): string | undefined {
  try {
    const message = JSON.parse(text) as Incoming;
    const data = message.data as { token?: unknown } | null | undefined;
    return message.event === "auth" && typeof data?.token === "string" ? data.token : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Pings every socket and closes those silent for two intervals: the `heartbeat` job runs it each
 * PING_INTERVAL_MS (seeds/000 section 9: ping interval and timeout 18 s).
 */
export function pingMembers(hub: Hub, intervalMs = PING_INTERVAL_MS) {
  const now = Date.now();
  for (const member of [...hub.members()]) {
    if (now - member.lastSeen > intervalMs * 2) {
      try {
        member.socket.close(4000, "ping timeout");
      } catch {
        // already closed
      }
      hub.remove(member);
    } else {
      hub.sendTo(member, "ping");
    }
  }
}

/**
 * Keeps users.online in step with whether the user has a socket open in any process: this
 * process's row of the user (server/users/presence_repository.ts) follows its own sockets, and
 * the value told is the user's across processes (a socket closing here while another process
 * holds one leaves them online).
 */
export function wirePresence(deps: Pick<AppDeps, "db" | "hub" | "clock" | "events" | "config">) {
  const instanceId = deps.config.instanceId;
  const writing = new Set<Promise<void>>();
  presenceWrites.set(deps.hub, writing);
  deps.hub.onPresence((companyId, userId, here) => {
    const now = deps.clock.now().toISOString();
    const write = markPresence(deps.db, { companyId, userId, instanceId }, here, now).then(
      (online) => deps.events.emit("user.presence", { companyId, userId, online }),
      (error) => log.error("presence update failed", { companyId, userId, error }),
    ).finally(() => writing.delete(write));
    writing.add(write);
  });
}

const presenceWrites = new WeakMap<Hub, Set<Promise<void>>>();

/** Resolves once the presence rows of the sockets closed so far are written (shutdown). */
export async function presenceWritten(hub: Hub): Promise<void> {
  await Promise.all([...presenceWrites.get(hub) ?? []]);
}
