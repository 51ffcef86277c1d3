import { capabilitiesOf } from "../../contract/channels.ts";
import type { AppDeps } from "../context.ts";
import { changeWithNote } from "../events/outgoing_repository.ts";
import { AppError, badRequest, notFound } from "../errors.ts";
import { log } from "../log.ts";
import { assertCanAct, type Viewer } from "../tickets/access.ts";
import { readableTicket } from "../tickets/service.ts";
import { loadTicketView, messageViews } from "../tickets/view_repository.ts";
import type { MessageView } from "../tickets/view.ts";
import { ProviderSendError } from "../whatsapp/providers/provider.ts";
import { findMessage, setOwnReaction } from "./repository.ts";
import { channelOf } from "./window_repository.ts";

/**
 * POST /api/messages/:id/reaction (issue 45): the attendant's emoji on a message of the chat,
 * sent through the connection at once ("" removes it), on channels with the `reactions`
 * capability only (400 ERR_WHATSAPP_NO_REACTIONS otherwise). Kept on the message (ownReaction)
 * once the network took it; everyone on the ticket sees it through message.updated.
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
  const provider = deps.sessions.connectedProvider(message.whatsappId!);
  if (!provider?.sendReaction || !message.wid || !message.remoteJid || message.isDeleted === 1) {
    throw badRequest("ERR_WAPP_NOT_INITIALIZED", "A conexão não está disponível");
  }
  try {
    await provider.sendReaction(message.remoteJid, message.wid, emoji);
  } catch (error) {
    log.warn("reaction not sent", { companyId, messageId, error });
    const code = error instanceof ProviderSendError && error.failureCode
      ? error.failureCode
      : "ERR_SENDING_WAPP_MSG";
    throw new AppError(400, code as "ERR_SENDING_WAPP_MSG", "A reação não foi enviada", {
      cause: error,
    });
  }
  const now = deps.clock.now().toISOString();
  // Noted with the change (server/events/outgoing.ts): its webhook survives a crash.
  const changed = await changeWithNote(
    deps.db,
    companyId,
    now,
    (trx) => setOwnReaction(trx, companyId, message.id, emoji || null, now),
  );
  const [view] = await messageViews(deps.db, companyId, [changed?.row ?? message]);
  const ticketView = await loadTicketView(deps.db, companyId, message.ticketId);
  if (ticketView && changed) {
    deps.events.emit("message.updated", {
      message: view,
      ticket: ticketView,
      outgoing: changed.outgoing,
    });
  }
  return view;
}
