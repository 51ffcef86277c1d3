import type { AppDeps } from "../context.ts";
import { log } from "../log.ts";
import { ticketChange } from "../events/domain.ts";
import { queueOutgoing } from "../whatsapp/outbox/outbox.ts";
import type { TicketActor, TicketPlacement } from "../events/domain.ts";
import type { TicketView } from "./view.ts";
import { loadTicketView } from "./view_repository.ts";

/** A text to send to the contact once the change is committed, in this order. */
export type AutomaticText = {
  kind: "greeting" | "completion" | "rating" | "transfer";
  body: string;
};

/** A committed ticket change: the ticket after it, where it sat before, what to send. */
export type TicketChange = {
  ticket: TicketView;
  before: TicketPlacement;
  automatic: AutomaticText[];
  /** The change's note (server/events/outgoing.ts), written in its transaction. */
  outgoing?: string;
  /** Who made it (the pushes name them and spare them). */
  actor?: TicketActor;
};

/**
 * What follows a committed ticket change: the automatic texts go to the outbox first, in order
 * (the greeting before the ticket shows as open, seeds/000 section 4; completion then rating),
 * then the ticket update is published.
 *
 * The change itself is already committed: a text that cannot be queued (the ticket has no
 * connection any more) is logged and skipped rather than failing an accepted transition. A
 * queued text survives restarts and an offline connection (the outbox sends it later).
 */
export async function applyTicketChange(
  deps: AppDeps,
  change: TicketChange,
  userId: number,
): Promise<TicketView> {
  const { ticket } = change;
  let sent = 0;
  for (const text of change.automatic) {
    try {
      await queueOutgoing(deps, {
        companyId: ticket.companyId,
        ticketId: ticket.id,
        body: text.body,
        userId,
      });
      sent++;
    } catch (error) {
      log.warn("automatic message not queued", {
        companyId: ticket.companyId,
        ticketId: ticket.id,
        kind: text.kind,
        error,
      });
    }
  }
  // Queued texts moved lastMessage/updatedAt: publish the ticket as it is now.
  const view = sent > 0
    ? (await loadTicketView(deps.db, ticket.companyId, ticket.id)) ?? ticket
    : ticket;
  deps.events.emit(ticketChange(view, change.before), {
    ticket: view,
    before: change.before,
    actor: change.actor,
    outgoing: change.outgoing,
  });
  return view;
}
