import { capabilitiesOf } from "../../contract/channels.ts";
import type { AppDeps } from "../context.ts";
import { changeWithNote } from "../events/outgoing_repository.ts";
import { badRequest, notFound } from "../errors.ts";
import { assertCanAct, type Viewer } from "../tickets/access.ts";
import { readableTicket } from "../tickets/service.ts";
import { loadTicketView, messageViews } from "../tickets/view_repository.ts";
import type { MessageView } from "../tickets/view.ts";
import { insertReaction } from "../whatsapp/outbox/outbox_repository.ts";
import { newMessageId } from "../whatsapp/providers/address.ts";
import { findMessage } from "./repository.ts";
import { channelOf } from "./window_repository.ts";

/**
 * POST /api/messages/:id/reaction (issue 45): the attendant's emoji on a message of the chat
 * ("" removes it), on channels with the `reactions` capability only (400
 * ERR_WHATSAPP_NO_REACTIONS otherwise). It goes through the outbox, in the chat's order, like a
 * message: accepted while the connection is down, and a process killed mid-send sends it again
 * after the restart (a reaction is a state, so the same emoji twice changes nothing). The message
 * shows it at once; a refusal for good puts back what it showed (server/whatsapp/outbox/worker.ts).
 */
export async function reactToMessage(
  deps: AppDeps,
  viewer: Viewer,
  messageId: number,
  emoji: string,
): Promise<MessageView> {
  const companyId = viewer.companyId;
  const message = await findMessage(deps.db, companyId, messageId);
  if (!message) throw notFound("ERR_NO_MESSAGE_FOUND", "Mensagem não encontrada");
  const ticket = await readableTicket(deps.db, viewer, { id: message.ticketId });
  assertCanAct(viewer, ticket);
  const kind = message.whatsappId === null
    ? undefined
    : await channelOf(deps.db, companyId, message.whatsappId);
  if (!kind || !capabilitiesOf(kind).reactions) {
    throw badRequest("ERR_WHATSAPP_NO_REACTIONS", "Esta conexão não envia reações");
  }
  if (!message.wid || !message.remoteJid || message.isDeleted === 1) {
    throw badRequest("ERR_WHATSAPP_NO_REACTIONS", "Esta mensagem não aceita reações");
  }
  const now = deps.clock.now().toISOString();
  // The outbox row, the message's new look and its message.updated note commit together
  // (server/events/outgoing.ts): the webhook survives a crash like the send does.
  const changed = await changeWithNote(deps.db, companyId, now, (trx) =>
    insertReaction(trx, {
      companyId,
      whatsappId: message.whatsappId!,
      ticketId: message.ticketId,
      messageId: message.id,
      wid: newMessageId(),
      toJid: message.remoteJid!,
      quotedWid: message.wid,
      mediaPath: null,
      mediaMimetype: null,
      mediaName: null,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    }, { emoji, previous: message.ownReaction }));
  const [view] = await messageViews(deps.db, companyId, [changed?.row ?? message]);
  const ticketView = await loadTicketView(deps.db, companyId, message.ticketId);
  if (ticketView && changed) {
    deps.events.emit("message.updated", {
      message: view,
      ticket: ticketView,
      outgoing: changed.outgoing,
    });
  }
  deps.sessions.kickOutbox(message.whatsappId!);
  return view;
}
