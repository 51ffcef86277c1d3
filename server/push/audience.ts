import type { TicketPlacement } from "../events/domain.ts";
import { hearsTicket } from "../realtime/delivery.ts";
import type { PushRecipient } from "./repository.ts";

/**
 * The one place push asks who may see a ticket: socket delivery's audience (`hearsTicket`,
 * which is exactly contract/ticket_audience.ts `mayReadTicket`), applied to the same placement,
 * so a push never reaches someone the audience rule excludes (issue 42) and whoever's screen
 * hears the ticket may be pushed about it.
 */
export function mayHearTicket(
  recipient: PushRecipient,
  placement: TicketPlacement,
  isGroup: boolean,
): boolean {
  return hearsTicket(
    {
      userId: recipient.userId,
      profile: recipient.profile,
      queueIds: recipient.queueIds,
      allTicket: recipient.allTicket,
    },
    { ...placement, isGroup },
  );
}
