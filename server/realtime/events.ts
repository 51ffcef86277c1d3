import type { Channel } from "../../contract/events.ts";

/**
 * Realtime names (seeds/000 section 7). Every server event is sent as
 * `{ "event": "company-<companyId>-<channel>", "data": <payload> }` so that a client can tell its
 * company's channels apart, exactly as the specification's channel names read. The channels and
 * their payloads are the catalogue of contract/events.ts.
 */
export type { Channel };

/**
 * Events a client sends. `ping` (data: an id, a number or a short string) is answered `pong` with
 * the same id, after every event already queued for this socket and after the client's earlier
 * events were handled: a round trip that proves the socket heard everything sent before it
 * (tests/helpers/server.ts settle()). `pong` answers the server's own heartbeat `ping`.
 */
export const CLIENT_EVENTS = [
  "joinTickets",
  "leaveTickets",
  "joinChatBox",
  "leaveChatBox",
  "joinNotification",
  "userStatus",
  "ping",
  "pong",
] as const;
export type ClientEvent = typeof CLIENT_EVENTS[number];

/** Heartbeat (seeds/000 section 9: socket ping interval and timeout 18000 ms). */
export const PING_INTERVAL_MS = 18_000;

export function eventName(companyId: number, channel: Channel): string {
  return `company-${companyId}-${channel}`;
}

/**
 * Who inside one company receives an event. Rooms never name a company themselves: the hub
 * prefixes the company of the publisher, and a socket only ever joins rooms of its token's company.
 */
export type Audience =
  | { kind: "company" }
  | { kind: "admins" }
  | { kind: "user"; userId: number }
  | { kind: "ticket"; ticketId: number }
  | { kind: "status"; status: string }
  | { kind: "notification" };

export function roomKey(companyId: number, audience: Audience): string {
  switch (audience.kind) {
    case "company":
      return `c${companyId}`;
    case "admins":
      return `c${companyId}:admins`;
    case "user":
      return `c${companyId}:user:${audience.userId}`;
    case "ticket":
      return `c${companyId}:ticket:${audience.ticketId}`;
    case "status":
      return `c${companyId}:status:${audience.status}`;
    case "notification":
      return `c${companyId}:notification`;
  }
}
