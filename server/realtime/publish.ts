import type { Channel, PayloadOf } from "../../contract/events.ts";
import type { MessageView, TicketView } from "../../contract/ticket_types.ts";
import type { TicketSummaryView } from "../../contract/assist_types.ts";
import type { TicketPlacement } from "../events/domain.ts";
import type { Audience } from "./events.ts";
import type { Fanout, VisibilityRule } from "./delivery.ts";

export type { TicketPlacement };

/**
 * The typed way onto the hub: a channel and ITS payload (contract/events.ts). Only
 * server/realtime/ publishes (listeners.ts, from domain events); tests/architecture/events_test.ts
 * holds it.
 */
export function send<C extends Channel>(
  hub: Fanout,
  companyId: number,
  channel: C,
  data: PayloadOf<C>,
  audiences: Audience[] = [{ kind: "company" }],
): number {
  return hub.deliver({ to: "rooms", companyId, channel, data, audiences });
}

/** Like send, but each member of the rooms hears it only under `visibility` (delivery.ts). */
export function sendFiltered<C extends Channel>(
  hub: Fanout,
  companyId: number,
  channel: C,
  data: PayloadOf<C>,
  audiences: Audience[],
  visibility: VisibilityRule,
): number {
  return hub.deliver({ to: "rooms", companyId, channel, data, audiences, visibility });
}

/** The same channel to every connected company (platform-wide notices); super users may differ. */
export function sendEveryCompany<C extends Channel>(
  hub: Fanout,
  channel: C,
  data: PayloadOf<C>,
  superData: PayloadOf<C> = data,
): number {
  return hub.deliver({ to: "everyCompany", channel, data, superData });
}

/**
 * `company-<id>-sync` {action: "reload"} to every socket of this process: events between the
 * processes may have been lost (Redis restarted), so every live list reads itself again.
 */
export function publishReload(hub: Fanout): number {
  return sendEveryCompany(hub, "sync", { action: "reload" });
}

/*
 * Tickets and messages to rooms (STYLE 12).
 *
 * Who hears them inside a company: whoever may read the ticket (the audience rule of
 * contract/ticket_audience.ts, applied per socket by the "ticket" rule of delivery.ts). A change
 * is sent to whoever could read the ticket before OR after it, so that a transfer removes it from
 * the old lists.
 */

function ticketAudiences(ticketId: number, placements: TicketPlacement[]): Audience[] {
  const audiences: Audience[] = [{ kind: "ticket", ticketId }, { kind: "notification" }];
  for (const p of placements) audiences.push({ kind: "status", status: p.status });
  return audiences;
}

/** `company-<id>-ticket` {action: "update", ticket}. `before` is the placement prior to the change. */
export function publishTicketUpdate(
  hub: Fanout,
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
    { rule: "ticket", placements, isGroup: ticket.isGroup },
  );
}

/** `company-<id>-ticket` {action: "delete", ticketId}. */
export function publishTicketDelete(
  hub: Fanout,
  companyId: number,
  ticketId: number,
  before: TicketPlacement,
  isGroup: boolean,
): number {
  return sendFiltered(
    hub,
    companyId,
    "ticket",
    { action: "delete", ticketId },
    ticketAudiences(ticketId, [before]),
    { rule: "ticket", placements: [before], isGroup },
  );
}

/** `company-<id>-ticket` {action: "summary"}: to the ticket's chat room (who has it open). */
export function publishTicketSummary(
  hub: Fanout,
  ticket: TicketView,
  summary: TicketSummaryView,
): number {
  return sendFiltered(
    hub,
    ticket.companyId,
    "ticket",
    { action: "summary", ticketId: ticket.id, summary },
    [{ kind: "ticket", ticketId: ticket.id }],
    { rule: "ticket", placements: [ticket], isGroup: ticket.isGroup },
  );
}

/** `company-<id>-ticket` {action: "updateUnread", ticketId}: unread was reset to 0. */
export function publishTicketUnread(
  hub: Fanout,
  companyId: number,
  ticketId: number,
  placement: TicketPlacement,
  isGroup: boolean,
): number {
  return sendFiltered(
    hub,
    companyId,
    "ticket",
    { action: "updateUnread", ticketId },
    ticketAudiences(ticketId, [placement]),
    { rule: "ticket", placements: [placement], isGroup },
  );
}

/**
 * `company-<id>-appMessage` {action: "create"|"update", message, ticket, contact}. Goes to the
 * ticket's chat room and status room; the notification room only for non-group tickets
 * (notifications are never raised for groups).
 */
export function publishMessage(
  hub: Fanout,
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
    { rule: "ticket", placements: [ticket], isGroup: ticket.isGroup },
  );
}
