import type { Channel } from "../../contract/events.ts";
import type { TicketPlacement } from "../events/domain.ts";
import type { Audience } from "./events.ts";
import { rolesOf } from "../../contract/roles.ts";
import {
  type AudienceTicket,
  type AudienceViewer,
  mayReadTicket,
  readsEveryTicket,
} from "../../contract/ticket_audience.ts";

/**
 * What publish.ts hands to the fan-out: an event as plain data (company, channel, payload,
 * audiences, and a named visibility rule), never a closure, so that it can cross a process
 * boundary (Redis, server/realtime/redis_fanout.ts) and every process applies the rooms and the
 * per-socket rules to its own sockets (Hub.deliver).
 */
export type VisibilityRule =
  /**
   * Tickets and messages: whoever may read the ticket in one of the placements (before or after a
   * change, so that a transfer removes it from the old lists): hearsTicket.
   */
  | { rule: "ticket"; placements: TicketPlacement[]; isGroup: boolean }
  /** Everyone but admins (they get a fuller payload of their own). */
  | { rule: "notAdmin" }
  /** The sockets of one sign-in session only. */
  | { rule: "session"; sessionId: number };

/**
 * A change to open sockets themselves (members.ts): a user's queues or profile, sockets to close.
 * It crosses processes like an event, since the sockets may be on any of them.
 */
export type MemberChange =
  | {
    op: "user";
    companyId: number;
    userId: number;
    patch: { profile?: "admin" | "user"; queueIds?: number[]; allTicket?: boolean };
  }
  | { op: "closeUser"; companyId: number; userId: number; reason: string }
  | { op: "closeSession"; companyId: number; sessionId: number; reason: string }
  | { op: "closeCompany"; companyId: number; reason: string }
  | { op: "flags"; companyId: number; flags: string[] };

export type Delivery =
  | { to: "members"; change: MemberChange }
  | {
    to: "rooms";
    companyId: number;
    channel: Channel;
    data: unknown;
    audiences: Audience[];
    visibility?: VisibilityRule;
  }
  /** Every connected company, each under its own event name; super users may get `superData`. */
  | { to: "everyCompany"; channel: Channel; data: unknown; superData: unknown };

/**
 * Where publish.ts sends: the local hub itself (one process), or Redis, which hands every event
 * back to the hub of each process, this one included. Answers how many local sockets got it
 * (0 through Redis: delivery happens when the event comes back).
 */
export interface Fanout {
  deliver(delivery: Delivery): number;
}

/** What the rules read of a socket (hub.ts Member has it). */
export type Viewer = {
  userId: number;
  profile: string;
  isSuper?: boolean;
  queueIds: number[];
  allTicket?: boolean;
  sessionId?: number;
};

/** A socket's member as the audience rule's viewer (contract/ticket_audience.ts). */
export function audienceViewerOf(member: Viewer): AudienceViewer {
  return {
    userId: member.userId,
    isAdmin: readsEveryTicket(rolesOf({ profile: member.profile, super: member.isSuper === true })),
    queueIds: member.queueIds,
    allTicket: member.allTicket === true,
  };
}

/**
 * Socket delivery's audience for a ticket: does this member hear the events of a ticket placed
 * so? Exactly the audience rule, mayReadTicket (contract/ticket_audience.ts): whoever may read a
 * ticket hears its events, and nobody else. Anything that tells users about a ticket (push too)
 * asks this.
 */
export function hearsTicket(member: Viewer, ticket: AudienceTicket): boolean {
  return mayReadTicket(audienceViewerOf(member), ticket);
}

/** Whether a member hears an event under the rule (no rule: everyone in the rooms). */
export function visibleTo(member: Viewer, rule: VisibilityRule | undefined): boolean {
  if (rule === undefined) return true;
  switch (rule.rule) {
    case "ticket":
      return rule.placements.some((p) => hearsTicket(member, { ...p, isGroup: rule.isGroup }));
    case "notAdmin":
      return member.profile !== "admin";
    case "session":
      return member.sessionId === rule.sessionId;
  }
}
