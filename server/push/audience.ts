import type { TicketPlacement } from "../events/domain.ts";
import { visibleTo } from "../realtime/delivery.ts";
import type { PushRecipient } from "./repository.ts";

/**
 * The one place push asks who may see a ticket. It is the rule that decides socket delivery of
 * a ticket's events (server/realtime/delivery.ts `visibleTo`, "ticket"), applied to the same
 * placement, so that a push never reaches someone whose screen would not hear the ticket (issue
 * 42: "never to someone the audience rule excludes"). When the rule moves (issue 42 item 1: one
 * audience rule in contract/), this call moves with it, and every kind of push follows.
 */
export function mayHearTicket(
  recipient: PushRecipient,
  placement: TicketPlacement,
  isGroup: boolean,
): boolean {
  return visibleTo(
    {
      userId: recipient.userId,
      profile: recipient.profile,
      queueIds: recipient.queueIds,
      allTicket: recipient.allTicket,
    },
    { rule: "ticket", placements: [placement], isGroup },
  );
}
