import { getMimeType } from "hono/utils/mime";
import type { Ticket } from "../../db/schema.ts";
import type { AppDeps } from "../context.ts";
import { ticketChange } from "../events/domain.ts";
import { noteOutgoingMany } from "../events/outgoing_repository.ts";
import { log } from "../log.ts";
import { renderVariables } from "../messages/variables.ts";
import {
  findActiveTicket,
  insertClosedTicket,
  updateTicketRow,
  userName,
} from "../tickets/repository.ts";
import { loadTicketView, messageViews } from "../tickets/view_repository.ts";
import { addressOfContact } from "../whatsapp/providers/address.ts";
import { enqueueInTransaction, lastMessageOf } from "../whatsapp/outbox/outbox.ts";
import { findScheduleView, updateSchedule } from "./repository.ts";
import * as repo from "./sending_repository.ts";
import { companyTimeZone } from "../settings/values.ts";
import { parseSendTemplate } from "../../contract/channels.ts";
import { templateText } from "../messages/template_rule.ts";

/**
 * Sends due schedules (seeds/001 'Schedules'; the `schedules` job ticks every 30 s). The state is
 * in the schedules table: PENDENTE rows whose sendAt has passed are picked, and each is written to
 * the outbox (server/whatsapp/outbox/outbox.ts) in the SAME transaction that marks it ENVIADA. So
 * a tick that runs twice, or a restart in the middle, never sends a schedule twice nor loses one:
 * the outbox delivers what was committed.
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

/** One tick of the `schedules` job: the due ones are sent, then the provider's later refusals. */
export async function scheduleTick(deps: AppDeps) {
  await sendDueSchedules(deps);
  await markRefusedSchedules(deps);
}

export async function sendDueSchedules(deps: AppDeps): Promise<Outcome[]> {
  const now = deps.clock.now();
  const stamp = now.toISOString();
  const due = await repo.dueSchedules(deps.db, stamp, SCHEDULE_BATCH);
  const outcomes: Outcome[] = [];
  for (const { id, companyId } of due) {
    try {
      const outcome = await sendOne(deps, companyId, id, now);
      if (outcome) outcomes.push(outcome);
    } catch (error) {
      log.error("schedule send failed", { companyId, scheduleId: id, error });
      await repo.failPendingSchedule(deps.db, companyId, id, "ERR_SENDING_WAPP_MSG", stamp);
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
    const schedule = await repo.findPendingSchedule(trx, companyId, scheduleId);
    if (!schedule) return undefined; // taken by another tick, edited or deleted meanwhile
    const contact = await repo.scheduleContact(trx, companyId, schedule.contactId);
    const whatsapp = await repo.defaultConnection(trx, companyId);
    const errorCode = !whatsapp
      ? "ERR_NO_DEF_WAPP_FOUND"
      : !deps.sessions.connectedProvider(whatsapp.id)
      ? "ERR_WAPP_NOT_INITIALIZED"
      : !contact ||
          (contact.isGroup !== 1 && !contact.lid && !SENDABLE_NUMBER.test(contact.number))
      ? "ERR_WAPP_INVALID_CONTACT"
      : null;
    if (errorCode || !contact || !whatsapp) {
      await updateSchedule(trx, companyId, schedule.id, {
        status: "ERRO",
        errorCode,
        updatedAt: stamp,
      });
      log.warn("schedule not sent", { companyId, scheduleId, errorCode });
      return { status: "ERRO" as const, scheduleId: schedule.id, userId: schedule.userId };
    }
    let ticket: Pick<Ticket, "id" | "status" | "queueId" | "userId"> | undefined =
      await findActiveTicket(trx, companyId, contact.id, whatsapp.id);
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
    // {{user}}: who scheduled the message.
    const user = schedule.userId === null
      ? null
      : { name: await userName(trx, companyId, schedule.userId) ?? "" };
    const fill = {
      contact,
      user,
      ticketId: ticket.id,
      now,
      timeZone: await companyTimeZone(trx, companyId),
    };
    // A template's parameters take the same variables as the body ({{name}}, …).
    const saved = parseSendTemplate(schedule.template);
    const template = saved
      ? { ...saved, parameters: saved.parameters.map((p) => renderVariables(p, fill)) }
      : undefined;
    const body = template
      ? await templateText(trx, companyId, whatsapp.id, template)
      : renderVariables(schedule.body, fill);
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
      toJid: addressOfContact(contact),
      body,
      media: template ? undefined : media,
      template,
      now: stamp,
    });
    await updateTicketRow(trx, companyId, ticket.id, {
      lastMessage: lastMessageOf(body, media?.filename),
      updatedAt: stamp,
    });
    await updateSchedule(trx, companyId, schedule.id, {
      status: "ENVIADA",
      sentAt: stamp,
      ticketId: ticket.id,
      messageId: message.id,
      errorCode: null,
      updatedAt: stamp,
    });
    const before = opened
      ? undefined
      : { status: ticket.status, queueId: ticket.queueId, userId: ticket.userId };
    // Noted with the send (server/events/outgoing.ts): its webhooks survive a crash here.
    const [messageNote, ticketNote] = await noteOutgoingMany(trx, companyId, [
      { event: "message.created", subject: { ticketId: ticket.id, messageId: message.id } },
      before
        ? { event: ticketChange(ticket, before), subject: { ticketId: ticket.id, before } }
        : { event: "ticket.created", subject: { ticketId: ticket.id } },
    ], stamp);
    return {
      notes: { message: messageNote, ticket: ticketNote },
      status: "ENVIADA" as const,
      scheduleId: schedule.id,
      userId: schedule.userId,
      message,
      ticketId: ticket.id,
      whatsappId: whatsapp.id,
      // undefined: this send opened the ticket.
      before,
    };
  });
  if (!result) return undefined;
  // After the commit: events, and the outbox worker is woken for the connection.
  if (result.status === "ENVIADA") {
    const view = await loadTicketView(deps.db, companyId, result.ticketId);
    if (view) {
      const [message] = await messageViews(deps.db, companyId, [result.message]);
      const outgoing = result.notes;
      deps.events.emit("message.created", { message, ticket: view, outgoing: outgoing.message });
      if (!result.before) {
        deps.events.emit("ticket.created", { ticket: view, outgoing: outgoing.ticket });
      } else {
        deps.events.emit(ticketChange(view, result.before), {
          ticket: view,
          before: result.before,
          outgoing: outgoing.ticket,
        });
      }
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
  const since = new Date(deps.clock.now().getTime() - REFUSAL_WINDOW_MS).toISOString();
  const refused = await repo.markRefused(deps.db, since, stamp);
  for (const s of refused) {
    const record = await findScheduleView(deps.db, s.companyId, s.id);
    if (record) {
      deps.events.emit("schedule.saved", { companyId: s.companyId, record, created: false });
    }
  }
  return refused.map((s) => s.id);
}
