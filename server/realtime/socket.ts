import type { Context } from "hono";
import { authenticate } from "../auth/middleware.ts";
import type { AppDeps, AppEnv, AuthInfo } from "../context.ts";
import { AppError } from "../errors.ts";
import { log } from "../log.ts";
import { setUserOnline, userQueueIds } from "../users/repository.ts";
import { PING_INTERVAL_MS } from "./events.ts";
import type { Hub, Member } from "./hub.ts";

const TICKET_STATUSES = new Set(["pending", "open", "closed"]);

/**
 * May this caller follow a ticket's chat? The same rule as reading it over HTTP: the ticket is
 * in the caller's company, and a non-admin sees it only if it is theirs, unassigned to a queue,
 * or in one of their queues (seeds/000 section 5 'Acesso não permitido').
 */
export async function canViewTicket(
  deps: AppDeps,
  auth: AuthInfo,
  ticketId: number,
): Promise<boolean> {
  const ticket = await deps.db.selectFrom("tickets").select(["id", "queueId", "userId"])
    .where("id", "=", ticketId).where("companyId", "=", auth.companyId).executeTakeFirst();
  if (!ticket) return false;
  if (auth.profile === "admin" || ticket.userId === auth.userId || ticket.queueId === null) {
    return true;
  }
  const link = await deps.db.selectFrom("user_queues").select("queueId").where(
    "userId",
    "=",
    auth.userId,
  )
    .where("queueId", "=", ticket.queueId).executeTakeFirst();
  return link !== undefined;
}

type Incoming = { event?: unknown; data?: unknown };

async function handleClientEvent(deps: AppDeps, auth: AuthInfo, member: Member, message: Incoming) {
  const hub = deps.hub;
  switch (message.event) {
    case "joinTickets":
    case "leaveTickets": {
      const status = String(message.data);
      if (!TICKET_STATUSES.has(status)) {
        return hub.sendTo(member, "error", { error: "ERR_VALIDATION" });
      }
      if (message.event === "joinTickets") hub.join(member, { kind: "status", status });
      else hub.leave(member, { kind: "status", status });
      return;
    }
    case "joinChatBox":
    case "leaveChatBox": {
      const ticketId = Number(message.data);
      if (!Number.isInteger(ticketId)) {
        return hub.sendTo(member, "error", { error: "ERR_VALIDATION" });
      }
      if (message.event === "leaveChatBox") return hub.leave(member, { kind: "ticket", ticketId });
      if (await canViewTicket(deps, auth, ticketId)) hub.join(member, { kind: "ticket", ticketId });
      else hub.sendTo(member, "error", { error: "ERR_NO_TICKET_FOUND" });
      return;
    }
    case "joinNotification":
      return hub.join(member, { kind: "notification" });
    case "userStatus":
      await setUserOnline(
        deps.db,
        auth.companyId,
        auth.userId,
        true,
        deps.clock.now().toISOString(),
      );
      return;
    case "pong":
      return;
    default:
      hub.sendTo(member, "error", { error: "ERR_VALIDATION", message: "unknown event" });
  }
}

/**
 * GET /socket?token=<access token>: a WebSocket bound to the token's company and user.
 * Browsers cannot set headers on a WebSocket, hence the query parameter.
 */
export function socketHandler(deps: AppDeps) {
  return async (c: Context<AppEnv>) => {
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") {
      throw new AppError(400, "ERR_VALIDATION", "Expected a WebSocket upgrade");
    }
    const auth = await authenticate(deps, c.req.query("token"));
    const queueIds = await userQueueIds(deps.db, auth.companyId, auth.userId);
    const { socket, response } = Deno.upgradeWebSocket(c.req.raw);
    let member: Member | undefined;
    socket.onopen = () => {
      member = deps.hub.add({
        companyId: auth.companyId,
        userId: auth.userId,
        profile: auth.profile,
        queueIds,
        allTicket: auth.user.allTicket === "enable",
      }, socket);
      deps.hub.sendTo(member, "ready", { companyId: auth.companyId, userId: auth.userId });
    };
    socket.onmessage = (event) => {
      if (!member) return;
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
      const current = member;
      handleClientEvent(deps, auth, current, parsed).catch((error) =>
        log.error("socket event failed", { event: parsed.event, error })
      );
    };
    socket.onclose = () => {
      if (member) deps.hub.remove(member);
    };
    socket.onerror = () => {
      if (member) deps.hub.remove(member);
    };
    return response;
  };
}

/**
 * Pings every socket each PING_INTERVAL_MS and closes those silent for two intervals
 * (seeds/000 section 9: ping interval and timeout 18 s). Returns a stop function.
 */
export function startHeartbeat(hub: Hub, intervalMs = PING_INTERVAL_MS): () => void {
  const timer = setInterval(() => {
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
  }, intervalMs);
  return () => clearInterval(timer);
}

/** Keeps users.online in step with whether the user has a socket open. */
export function wirePresence(deps: Pick<AppDeps, "db" | "hub" | "clock">) {
  deps.hub.onPresence((companyId, userId, online) => {
    setUserOnline(deps.db, companyId, userId, online, deps.clock.now().toISOString()).catch((
      error,
    ) => log.error("presence update failed", { companyId, userId, error }));
  });
}
