import type { Message } from "../../db/schema.ts";
import type { AppDeps } from "../context.ts";
import { HAND_OVER } from "../bots/registry.ts";
import { log } from "../log.ts";
import { renderVariables } from "../messages/variables.ts";
import { ticketChange } from "../events/domain.ts";
import type { TicketPlacement } from "../events/domain.ts";
import { noteOutgoing } from "../events/outgoing_repository.ts";
import { addressOfContact } from "../whatsapp/providers/address.ts";
import { enqueueInTransaction, lastMessageOf } from "../whatsapp/outbox/outbox.ts";
import * as repo from "./inactive_repository.ts";
import { updateTicketRow } from "./repository.ts";
import { loadTicketView, messageViews } from "./view_repository.ts";
import { companyTimeZone } from "../settings/values.ts";

/**
 * The bot phase's time limits (seeds/000 section 3 Connection; issue 15 deliverable 4), per
 * connection, measured from the ticket's last activity (tickets.updatedAt, touched by every
 * message):
 *
 * - `timeUseBotQueues` minutes: a pending ticket still with a bot (queue menu, integration or
 *   prompt) that long is handed to people (it waits in its queue);
 * - `expiresTicket` minutes: a ticket (pending or open) inactive that long is closed, with
 *   `expiresInactiveMessage` sent to the contact when set (not to groups).
 *
 * The `inactive_tickets` job ticks every 30 s; the state is the tickets table. Each change is ONE
 * conditional UPDATE that names the ticket, its status and the `updatedAt` that was read: a tick
 * that runs twice, or two processes, find the row already changed and do nothing, so the closing
 * message is written (to the outbox, in the same transaction) at most once; a restart simply
 * finds the tickets still due.
 */
export const INACTIVE_BATCH = 100;

const CLOSED = { status: "closed" };
const placementOf = (t: TicketPlacement): TicketPlacement => ({
  status: t.status,
  queueId: t.queueId,
  userId: t.userId,
});

export async function expireInactiveTickets(
  deps: AppDeps,
): Promise<{ handedOver: number[]; closed: number[] }> {
  const now = deps.clock.now();
  const stamp = now.toISOString();
  const handedOver: number[] = [];
  const closed: number[] = [];

  const withBot = await repo.ticketsDueForPeople(deps.db, stamp, INACTIVE_BATCH);
  for (const ticket of withBot) {
    const before = placementOf(ticket);
    // The hand-over and its event's note (server/events/outgoing.ts) commit together.
    const outgoing = await deps.db.transaction().execute(async (trx) =>
      await repo.changeIfUntouched(trx, ticket.companyId, ticket, HAND_OVER)
        ? await noteOutgoing(trx, ticket.companyId, "ticket.updated", {
          ticketId: ticket.id,
          before,
        }, stamp)
        : undefined
    );
    if (!outgoing) continue;
    handedOver.push(ticket.id);
    const view = await loadTicketView(deps.db, ticket.companyId, ticket.id);
    if (view) deps.events.emit(ticketChange(view, ticket), { ticket: view, before, outgoing });
  }

  const idle = await repo.ticketsDueToClose(deps.db, stamp, INACTIVE_BATCH);
  for (const ticket of idle) {
    const result = await deps.db.transaction().execute(async (trx) => {
      const closed = await repo.changeIfUntouched(trx, ticket.companyId, ticket, {
        status: "closed",
        closedAt: stamp,
        ...HAND_OVER,
        updatedAt: stamp,
      });
      if (!closed) return null;
      const closing = await noteOutgoing(trx, ticket.companyId, ticketChange(CLOSED, ticket), {
        ticketId: ticket.id,
        before: placementOf(ticket),
      }, stamp);
      const text = renderVariables(ticket.expiresInactiveMessage.trim(), {
        contact: { name: ticket.name },
        ticketId: ticket.id,
        now,
        timeZone: await companyTimeZone(trx, ticket.companyId),
      });
      if (!text || ticket.isGroup === 1 || ticket.whatsappId === null) return { closing };
      const sent: Message = await enqueueInTransaction(trx, {
        companyId: ticket.companyId,
        whatsappId: ticket.whatsappId,
        ticketId: ticket.id,
        contactId: ticket.contactId,
        toJid: addressOfContact(ticket),
        body: text,
        now: stamp,
      });
      await updateTicketRow(trx, ticket.companyId, ticket.id, { lastMessage: lastMessageOf(text) });
      const said = await noteOutgoing(trx, ticket.companyId, "message.created", {
        ticketId: ticket.id,
        messageId: sent.id,
      }, stamp);
      return { closing, sent, said };
    });
    if (result === null) continue;
    const message = result.sent;
    closed.push(ticket.id);
    const view = await loadTicketView(deps.db, ticket.companyId, ticket.id);
    if (view) {
      deps.events.emit(ticketChange(view, ticket), {
        ticket: view,
        before: placementOf(ticket),
        outgoing: result.closing,
      });
      if (message) {
        const [created] = await messageViews(deps.db, ticket.companyId, [message]);
        deps.events.emit("message.created", {
          message: created,
          ticket: view,
          outgoing: result.said,
        });
      }
    }
    if (message && ticket.whatsappId !== null) deps.sessions.outbox.kick(ticket.whatsappId);
  }
  if (handedOver.length || closed.length) {
    log.info("inactive tickets", { handedOver: handedOver.length, closed: closed.length });
  }
  return { handedOver, closed };
}
