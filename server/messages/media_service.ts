import type { AppDeps, AuthInfo } from "../context.ts";
import { notFound } from "../errors.ts";
import { openMedia } from "../media/store.ts";
import { canViewTicket } from "../tickets/access.ts";
import { messageMedia } from "./repository.ts";

/**
 * A message's media file, the only way media leaves the server: the message must be in the
 * caller's company and in a ticket the caller may see (otherwise 404 ERR_NO_MESSAGE_FOUND,
 * exactly like a missing one); a file gone from disk is 404 ERR_NO_MEDIA_FOUND. The caller
 * streams `file` and closes it.
 */
export async function openMessageMedia(deps: AppDeps, auth: AuthInfo, messageId: number) {
  const message = await messageMedia(deps.db, auth.companyId, messageId);
  if (!message?.mediaUrl || !(await canViewTicket(deps.db, auth, message.ticketId))) {
    throw notFound("ERR_NO_MESSAGE_FOUND", "Mensagem não encontrada");
  }
  const opened = await openMedia(deps.config, auth.companyId, message.mediaUrl);
  if (!opened) throw notFound("ERR_NO_MEDIA_FOUND", "Arquivo não encontrado");
  return {
    ...opened,
    mimetype: message.mediaMimetype,
    name: message.mediaName ?? "file",
  };
}
