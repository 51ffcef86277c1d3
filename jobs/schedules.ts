import { Cron } from "croner";
import { getMimeType } from "hono/utils/mime";
import type { AppDeps } from "../server/context.ts";
import { log } from "../server/log.ts";
import { findScheduleView } from "../server/schedules/repository.ts";
import { countedJob } from "../server/metrics/registry.ts";
import { renderVariables } from "../server/messages/variables.ts";
import { ticketChange } from "../server/events/domain.ts";
import { insertClosedTicket } from "../server/tickets/repository.ts";
import { loadTicketView, messageViews } from "../server/tickets/view_repository.ts";
import { jidOfContact } from "../server/whatsapp/jid.ts";
import { enqueueInTransaction, lastMessageOf } from "../server/whatsapp/outbox/outbox.ts";

/**
 * Sends due schedules (seeds/001 'Schedules'). croner only ticks every 30 s; the state is in the
 * schedules table: PENDENTE rows whose sendAt has passed are picked, and each is written to the
 * outbox (server/whatsapp/outbox/outbox.ts) in the SAME transaction that marks it ENVIADA. So a tick
 * that runs twice, or a restart in the middle, never sends a schedule twice nor loses one: the
 * outbox delivers what was committed.
 *
 * The message goes on the contact's open ticket on the company's default connection, or on a
 * new ticket created closed for the schedule's author (a reply then opens a fresh ticket as
 * usual). A schedule that cannot go is marked ERRO with why (`errorCode`): no default connection
 * (ERR_NO_DEF_WAPP_FOUND), a default connection that is not connected (ERR_WAPP_NOT_INITIALIZED),
 * a number WhatsApp cannot take (ERR_WAPP_INVALID_CONTACT). The queued message is kept in
 * `messageId`: if the provider refuses it later, its sendError shows the schedule as failed too
 * (server/schedules/repository.ts). POST /api/schedules/:id/retry puts a failed one back.
 */

/** A contact number WhatsApp can address: 8 to 15 digits (groups and LIDs keep their ids). */
const SENDABLE_NUMBER = /^\d{8,15}$/;
export const SCHEDULE_BATCH = 50;

type Outcome = { scheduleId: number; status: "ENVIADA" | "ERRO" };

export async function sendDueSchedules(deps: AppDeps): Promise<Outcome[]> {
  const now = deps.clock.now();
  const stamp = now.toISOString();
  // schedules_due (status, sendAt): only due rows are read.
  const due = await deps.db.selectFrom("schedules").select(["id", "companyId"])
    .where("status", "=", "PENDENTE").where("sendAt", "<=", stamp).orderBy("sendAt")
    .limit(SCHEDULE_BATCH).execute();
  const outcomes: Outcome[] = [];
  for (const { id, companyId } of due) {
    try {
      const outcome = await sendOne(deps, companyId, id, now);
      if (outcome) outcomes.push(outcome);
    } catch (error) {
      log.error("schedule send failed", { companyId, scheduleId: id, error });
      await deps.db.updateTable("schedules")
        .set({ status: "ERRO", errorCode: "ERR_SENDING_WAPP_MSG", updatedAt: stamp })
        .where("id", "=", id).where("status", "=", "PENDENTE").execute();
      outcomes.push({ scheduleId: id, status: "ERRO" });
    }
  }
  return outcomes;
}

async function sendOne(
  deps: AppDeps,
  companyId: number,
  scheduleId: number,
  now: Date,
): Promise<Outcome | undefined> {
  const stamp = now.toISOString();
  const result = await deps.db.transaction().execute(async (trx) => {
    const schedule = await trx.selectFrom("schedules").selectAll().where("id", "=", scheduleId)
      .where("companyId", "=", companyId).where("status", "=", "PENDENTE").executeTakeFirst();
    if (!schedule) return undefined; // taken by another tick, edited or deleted meanwhile
    const contact = await trx.selectFrom("contacts").select([
      "id",
      "name",
      "number",
      "lid",
      "isGroup",
    ])
      .where("id", "=", schedule.contactId).where("companyId", "=", companyId)
      .executeTakeFirst();
    const whatsapp = await trx.selectFrom("whatsapps").select("id").where(
      "companyId",
      "=",
      companyId,
    )
      .where("isDefault", "=", 1).orderBy("id").executeTakeFirst();
    const errorCode = !whatsapp
      ? "ERR_NO_DEF_WAPP_FOUND"
      : !deps.sessions.connectedProvider(whatsapp.id)
      ? "ERR_WAPP_NOT_INITIALIZED"
      : !contact ||
          (contact.isGroup !== 1 && !contact.lid && !SENDABLE_NUMBER.test(contact.number))
      ? "ERR_WAPP_INVALID_CONTACT"
      : null;
    if (errorCode || !contact || !whatsapp) {
      await trx.updateTable("schedules").set({ status: "ERRO", errorCode, updatedAt: stamp })
        .where("id", "=", schedule.id).execute();
      log.warn("schedule not sent", { companyId, scheduleId, errorCode });
      return { status: "ERRO" as const, scheduleId: schedule.id, userId: schedule.userId };
    }
    let ticket = await trx.selectFrom("tickets").select(["id", "status", "queueId", "userId"])
      .where("companyId", "=", companyId).where("contactId", "=", contact.id)
      .where("whatsappId", "=", whatsapp.id).where("status", "<>", "closed").executeTakeFirst();
    const opened = !ticket;
    if (!ticket) {
      const id = await insertClosedTicket(trx, companyId, {
        contactId: contact.id,
        whatsappId: whatsapp.id,
        userId: schedule.userId,
        isGroup: contact.isGroup,
      }, stamp);
      ticket = { id, status: "closed" as const, queueId: null, userId: schedule.userId };
    }
    const body = renderVariables(schedule.body, { contact, ticketId: ticket.id, now });
    const media = schedule.mediaPath
      ? {
        path: schedule.mediaPath,
        filename: schedule.mediaName ?? "imagem",
        mimetype: getMimeType(schedule.mediaName ?? "") ?? "image/jpeg",
      }
      : undefined;
    const message = await enqueueInTransaction(trx, {
      companyId,
      whatsappId: whatsapp.id,
      ticketId: ticket.id,
      contactId: contact.id,
      toJid: jidOfContact(contact),
      body,
      media,
      now: stamp,
    });
    await trx.updateTable("tickets").set({
      lastMessage: lastMessageOf(body, media?.filename),
      updatedAt: stamp,
    }).where("id", "=", ticket.id).execute();
    await trx.updateTable("schedules").set({
      status: "ENVIADA",
      sentAt: stamp,
      ticketId: ticket.id,
      messageId: message.id,
      errorCode: null,
      updatedAt: stamp,
    }).where("id", "=", schedule.id).execute();
    return {
      status: "ENVIADA" as const,
      scheduleId: schedule.id,
      userId: schedule.userId,
      message,
      ticketId: ticket.id,
      whatsappId: whatsapp.id,
      // null: this send opened the ticket.
      before: opened
        ? null
        : { status: ticket.status, queueId: ticket.queueId, userId: ticket.userId },
    };
  });
  if (!result) return undefined;
  // After the commit: events, and the outbox worker is woken for the connection.
  if (result.status === "ENVIADA") {
    const view = await loadTicketView(deps.db, companyId, result.ticketId);
    if (view) {
      const [message] = await messageViews(deps.db, companyId, [result.message]);
      deps.events.emit("message.created", { message, ticket: view });
      if (!result.before) deps.events.emit("ticket.created", { ticket: view });
      else {deps.events.emit(ticketChange(view, result.before), {
          ticket: view,
          before: result.before,
        });}
    }
    deps.sessions.outbox.kick(result.whatsappId);
  }
  // The /schedules row turns sent or failed live.
  const record = await findScheduleView(deps.db, companyId, result.scheduleId);
  if (record) deps.events.emit("schedule.saved", { companyId, record, created: false });
  return { scheduleId: result.scheduleId, status: result.status };
}

/** How far back a sent schedule's message is checked for a refusal. */
export const REFUSAL_WINDOW_MS = 86_400_000;

/**
 * Schedules whose queued message the provider refused after the job handed it over (the outbox
 * gave up: messages.sendError) become ERRO with that code, and their authors' /schedules rows
 * turn to a send error live. The state is the status itself: a tick that runs twice finds
 * nothing more to change. Returns the ids it changed.
 */
export async function markRefusedSchedules(deps: AppDeps): Promise<number[]> {
  const stamp = deps.clock.now().toISOString();
  const refused = await deps.db.updateTable("schedules")
    .set((eb) => ({
      status: "ERRO",
      errorCode: eb.selectFrom("messages").select("sendError")
        .whereRef("messages.id", "=", "schedules.messageId"),
      updatedAt: stamp,
    }))
    // schedules_due (status, sendAt): only the last day's sends are looked at (the outbox gives a
    // message up within minutes), each message by its id.
    .where("status", "=", "ENVIADA")
    .where("sendAt", ">=", new Date(deps.clock.now().getTime() - REFUSAL_WINDOW_MS).toISOString())
    .where((eb) =>
      eb.exists(
        eb.selectFrom("messages").select("messages.id")
          .whereRef("messages.id", "=", "schedules.messageId")
          .where("messages.sendError", "is not", null),
      )
    )
    .returning(["id", "companyId", "userId"]).execute();
  for (const s of refused) {
    const record = await findScheduleView(deps.db, s.companyId, s.id);
    if (record) {
      deps.events.emit("schedule.saved", { companyId: s.companyId, record, created: false });
    }
  }
  return refused.map((s) => s.id);
}

/** Starts the 30-second tick; the returned function stops it and waits for a running tick. */
export function startScheduleJob(deps: AppDeps): () => Promise<void> {
  const job = new Cron("*/30 * * * * *", { protect: true, catch: true }, async () => {
    // One counted run: the due ones are sent, then the provider's later refusals recorded.
    await countedJob("schedules", async () => {
      await sendDueSchedules(deps);
      await markRefusedSchedules(deps);
    }).catch((error) => log.error("schedule tick failed", { error }));
  });
  return async () => {
    job.stop();
    while (job.isBusy()) await new Promise((resolve) => setTimeout(resolve, 50));
  };
}
