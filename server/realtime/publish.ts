import type { Channel, PayloadOf } from "../../contract/events.ts";
import type { MessageView, TicketView } from "../../contract/ticket_types.ts";
import type { TicketPlacement } from "../events/domain.ts";
import type { Audience } from "./events.ts";
import type { Hub, Member } from "./hub.ts";

export type { TicketPlacement };

/**
 * The typed way onto the hub: a channel and ITS payload (contract/events.ts). Only
 * server/realtime/ publishes (listeners.ts, from domain events); tests/architecture/events_test.ts
 * holds it.
 */
export function send<C extends Channel>(
  hub: Hub,
  companyId: number,
  channel: C,
  data: PayloadOf<C>,
  audiences: Audience[] = [{ kind: "company" }],
): number {
  return hub.publish(companyId, channel, data, audiences);
}

/** Like send, but each member of the rooms decides through `filter` (per-user visibility). */
export function sendFiltered<C extends Channel>(
  hub: Hub,
  companyId: number,
  channel: C,
  data: PayloadOf<C>,
  audiences: Audience[],
  filter: (member: Member) => boolean,
): number {
  return hub.publishFiltered(companyId, channel, data, audiences, filter);
}

/** The same channel to every connected company (platform-wide notices); super users may differ. */
export function sendEveryCompany<C extends Channel>(
  hub: Hub,
  channel: C,
  data: PayloadOf<C>,
  superData: PayloadOf<C> = data,
): number {
  return hub.publishEveryCompany(channel, data, superData);
}

/*
 * Tickets and messages to rooms (STYLE 12).
 *
 * Visibility inside a company (seeds/000 section 6): admins see every ticket; a user sees a
 * ticket that is theirs, has no queue, or sits in one of their queues. A change is sent to whoever
 * could see the ticket before OR after it, so that a transfer removes it from the old lists.
 */

export function canSee(member: Member, placement: TicketPlacement): boolean {
  if (member.profile === "admin") return true;
  if (placement.userId !== null) return placement.userId === member.userId;
  return placement.queueId === null || member.queueIds.includes(placement.queueId);
}

/**
 * users.allTicket 'enable' (seeds/000 section 6): the notifications list of such a user also holds
 * the unassigned pending tickets of every queue (server/tickets/list_repository.ts), so their events reach
 * them too (never for groups). A client's list still keeps only its selected queues.
 */
function allTicketSees(member: Member, placement: TicketPlacement, isGroup: boolean): boolean {
  return member.allTicket === true && !isGroup && placement.status === "pending" &&
    placement.userId === null;
}

function hears(member: Member, placements: TicketPlacement[], isGroup: boolean): boolean {
  return placements.some((p) => canSee(member, p) || allTicketSees(member, p, isGroup));
}

function ticketAudiences(ticketId: number, placements: TicketPlacement[]): Audience[] {
  const audiences: Audience[] = [{ kind: "ticket", ticketId }, { kind: "notification" }];
  for (const p of placements) audiences.push({ kind: "status", status: p.status });
  return audiences;
}

/** `company-<id>-ticket` {action: "update", ticket}. `before` is the placement prior to the change. */
export function publishTicketUpdate(
  hub: Hub,
  ticket: TicketView,
  before?: TicketPlacement,
): number {
  const placements: TicketPlacement[] = [ticket];
  if (before) placements.push(before);
  return sendFiltered(
    hub,
    ticket.companyId,
    "ticket",
    { action: "update", ticket },
    ticketAudiences(ticket.id, placements),
    (m) => hears(m, placements, ticket.isGroup),
  );
}

/** `company-<id>-ticket` {action: "delete", ticketId}. */
export function publishTicketDelete(
  hub: Hub,
  companyId: number,
  ticketId: number,
  before: TicketPlacement,
): number {
  return sendFiltered(
    hub,
    companyId,
    "ticket",
    { action: "delete", ticketId },
    ticketAudiences(ticketId, [before]),
    // Removals may also reach an allTicket user for a group: nothing to remove, no harm.
    (m) => hears(m, [before], false),
  );
}

/** `company-<id>-ticket` {action: "updateUnread", ticketId}: unread was reset to 0. */
export function publishTicketUnread(
  hub: Hub,
  companyId: number,
  ticketId: number,
  placement: TicketPlacement,
): number {
  return sendFiltered(
    hub,
    companyId,
    "ticket",
    { action: "updateUnread", ticketId },
    ticketAudiences(ticketId, [placement]),
    (m) => hears(m, [placement], false),
  );
}

/**
 * `company-<id>-appMessage` {action: "create"|"update", message, ticket, contact}. Goes to the
 * ticket's chat room and status room; the notification room only for non-group tickets
 * (notifications are never raised for groups).
 */
export function publishMessage(
  hub: Hub,
  action: "create" | "update",
  message: MessageView,
  ticket: TicketView,
): number {
  const audiences: Audience[] = [{ kind: "ticket", ticketId: ticket.id }, {
    kind: "status",
    status: ticket.status,
  }];
  if (!ticket.isGroup) audiences.push({ kind: "notification" });
  return sendFiltered(
    hub,
    ticket.companyId,
    "appMessage",
    { action, message, ticket, contact: ticket.contact },
    audiences,
    (m) => hears(m, [ticket], ticket.isGroup),
  );
}
