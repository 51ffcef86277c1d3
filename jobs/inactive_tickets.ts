import { Cron } from "croner";
import { sql } from "kysely";
import type { Message } from "../db/schema.ts";
import type { AppDeps } from "../server/context.ts";
import { HAND_OVER } from "../server/bots/registry.ts";
import { log } from "../server/log.ts";
import { countedJob } from "../server/metrics/registry.ts";
import { ticketChange } from "../server/events/domain.ts";
import { loadTicketView, messageViews } from "../server/tickets/view_repository.ts";
import { jidOfContact } from "../server/whatsapp/jid.ts";
import { enqueueInTransaction, lastMessageOf } from "../server/whatsapp/outbox/outbox.ts";

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
 * croner only ticks every 30 s; the state is the tickets table. Each change is ONE conditional
 * UPDATE that names the ticket, its status and the `updatedAt` that was read: a tick that runs
 * twice, or two processes, find the row already changed and do nothing, so the closing message is
 * written (to the outbox, in the same transaction) at most once; a restart simply finds the
 * tickets still due.
 */
export const INACTIVE_BATCH = 100;

const cutoff = (stamp: string, minutes: string) =>
  sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', ${stamp}, '-' || ${sql.ref(minutes)} || ' minutes')`;

export async function expireInactiveTickets(
  deps: AppDeps,
): Promise<{ handedOver: number[]; closed: number[] }> {
  const now = deps.clock.now();
  const stamp = now.toISOString();
  const handedOver: number[] = [];
  const closed: number[] = [];

  const withBot = await deps.db.selectFrom("tickets as t")
    .innerJoin("whatsapps as w", "w.id", "t.whatsappId")
    .select(["t.id", "t.companyId", "t.updatedAt", "t.status", "t.queueId", "t.userId"])
    .where("w.timeUseBotQueues", ">", 0).where("t.status", "=", "pending")
    .where("t.userId", "is", null)
    .where((eb) =>
      eb.or([
        eb("t.chatbot", "=", 1),
        eb("t.useIntegration", "=", 1),
        eb("t.promptId", "is not", null),
      ])
    )
    .where("t.updatedAt", "<", cutoff(stamp, "w.timeUseBotQueues"))
    .limit(INACTIVE_BATCH).execute();
  for (const ticket of withBot) {
    const result = await deps.db.updateTable("tickets").set(HAND_OVER).where("id", "=", ticket.id)
      .where("status", "=", "pending")
      .where("updatedAt", "=", ticket.updatedAt).executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) continue;
    handedOver.push(ticket.id);
    const view = await loadTicketView(deps.db, ticket.companyId, ticket.id);
    if (view) deps.events.emit(ticketChange(view, ticket), { ticket: view, before: ticket });
  }

  const idle = await deps.db.selectFrom("tickets as t")
    .innerJoin("whatsapps as w", "w.id", "t.whatsappId")
    .innerJoin("contacts as c", "c.id", "t.contactId")
    .select([
      "t.id",
      "t.companyId",
      "t.updatedAt",
      "t.status",
      "t.queueId",
      "t.userId",
      "t.whatsappId",
      "t.contactId",
      "w.expiresInactiveMessage",
      "c.number",
      "c.lid",
      "c.isGroup",
    ])
    .where("w.expiresTicket", ">", 0).where("t.status", "in", ["pending", "open"])
    .where("t.updatedAt", "<", cutoff(stamp, "w.expiresTicket"))
    .limit(INACTIVE_BATCH).execute();
  for (const ticket of idle) {
    const message = await deps.db.transaction().execute(async (trx) => {
      const result = await trx.updateTable("tickets").set({
        status: "closed",
        closedAt: stamp,
        ...HAND_OVER,
        updatedAt: stamp,
      }).where("id", "=", ticket.id).where("status", "=", ticket.status)
        .where("updatedAt", "=", ticket.updatedAt).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return null;
      const text = ticket.expiresInactiveMessage.trim();
      if (!text || ticket.isGroup === 1 || ticket.whatsappId === null) return undefined;
      const sent: Message = await enqueueInTransaction(trx, {
        companyId: ticket.companyId,
        whatsappId: ticket.whatsappId,
        ticketId: ticket.id,
        contactId: ticket.contactId,
        toJid: jidOfContact(ticket),
        body: text,
        now: stamp,
      });
      await trx.updateTable("tickets").set({ lastMessage: lastMessageOf(text) })
        .where("id", "=", ticket.id).execute();
      return sent;
    });
    if (message === null) continue;
    closed.push(ticket.id);
    const view = await loadTicketView(deps.db, ticket.companyId, ticket.id);
    if (view) {
      deps.events.emit(ticketChange(view, ticket), { ticket: view, before: ticket });
      if (message) {
        const [created] = await messageViews(deps.db, ticket.companyId, [message]);
        deps.events.emit("message.created", { message: created, ticket: view });
      }
    }
    if (message && ticket.whatsappId !== null) deps.sessions.outbox.kick(ticket.whatsappId);
  }
  if (handedOver.length || closed.length) {
    log.info("inactive tickets", { handedOver: handedOver.length, closed: closed.length });
  }
  return { handedOver, closed };
}

/** Starts the 30-second tick; the returned function stops it and waits for a running tick. */
export function startInactiveTicketsJob(deps: AppDeps): () => Promise<void> {
  const job = new Cron("*/30 * * * * *", { protect: true, catch: true }, async () => {
    await countedJob("inactive_tickets", () => expireInactiveTickets(deps)).catch((error) =>
      log.error("inactive tickets tick failed", { error })
    );
  });
  return async () => {
    job.stop();
    while (job.isBusy()) await new Promise((resolve) => setTimeout(resolve, 50));
  };
}
