import type { AppDeps } from "../context.ts";
import { keepSignature } from "../../contract/signature.ts";
import { AppError, badRequest, notFound } from "../errors.ts";
import { log } from "../log.ts";
import { deleteMedia, saveMedia } from "../media/store.ts";
import { assertCanAct, type Placed, type Viewer } from "../tickets/access.ts";
import { readableTicket } from "../tickets/service.ts";
import type { MessageView } from "../tickets/view.ts";
import { EDIT_WINDOW_MINUTES } from "../../contract/validation.ts";
import { deleteForEveryone, editForEveryone, queueOutgoing } from "../whatsapp/outbox/outbox.ts";
import { checkAttachment } from "./attachments.ts";
import { findMessage } from "./repository.ts";
import { contactName, userName } from "../tickets/repository.ts";
import { renderVariables } from "./variables.ts";
import { companyTimeZone } from "../settings/values.ts";
import type { OutgoingTemplate } from "../whatsapp/outbox/outbox.ts";
import { assertWindowOpen, checkedTemplate } from "./window.ts";
import { channelOf } from "./window_repository.ts";
import { acceptsAudio } from "../../contract/channels.ts";
import { webmOpusToOgg } from "../media/opus_ogg.ts";

export type SendInput = {
  body: string;
  quotedMsgId?: number | null;
  /** Files of a multipart send: each becomes one message; the body is the first one's caption. */
  files?: File[];
  /** Recorded audio goes as a voice note. */
  ptt?: boolean;
  /** A pre-approved template instead of free text (Cloud API; the only way past the window). */
  template?: OutgoingTemplate;
};

/** A file of a send, as it will be stored (a voice note possibly rewrapped). */
type Prepared = { data: Uint8Array; mimetype: string; filename: string };

/**
 * The files as the connection's network takes them, before anything is written. A browser's
 * voice recording (WebM with Opus) goes to the Cloud API rewrapped as Ogg Opus, the voice-note
 * format Meta plays (server/media/opus_ogg.ts: the same sound, another container). Audio still
 * in a format it refuses (another WebM, WAV...) is refused in words (422
 * ERR_WHATSAPP_VOICE_FORMAT) rather than failing in the outbox later.
 */
async function prepareFiles(
  deps: AppDeps,
  companyId: number,
  whatsappId: number,
  files: File[],
  types: string[],
): Promise<Prepared[]> {
  const kind = types.some((type) => type.startsWith("audio/"))
    ? await channelOf(deps.db, companyId, whatsappId)
    : undefined;
  const prepared: Prepared[] = [];
  for (const [i, file] of files.entries()) {
    const data = new Uint8Array(await file.arrayBuffer());
    const type = types[i];
    if (!kind || !type.startsWith("audio/") || acceptsAudio(kind, type)) {
      prepared.push({ data, mimetype: type, filename: file.name });
      continue;
    }
    const ogg = type === "audio/webm" && acceptsAudio(kind, "audio/ogg")
      ? webmOpusToOgg(data)
      : undefined;
    if (!ogg) {
      throw new AppError(
        422,
        "ERR_WHATSAPP_VOICE_FORMAT",
        "O WhatsApp oficial não aceita este formato de áudio: envie em OGG (Opus), MP3, AAC, AMR ou M4A.",
      );
    }
    const filename = `${file.name.replace(/\.[^.]*$/, "") || "audio"}.ogg`;
    prepared.push({ data: ogg, mimetype: "audio/ogg", filename });
  }
  return prepared;
}

/**
 * POST /api/messages/:ticketId through the outbox (server/whatsapp/outbox/outbox.ts). Checked before
 * anything is written: the ticket is readable and the caller may act on it, it is open (a pending
 * ticket is accepted first, a closed one reopened), the text is not blank unless a file goes,
 * every file is of an allowed type and size. The sign-message option is the client's: it sends
 * the body already prefixed with the user's name in bold ("*Name*:\n").
 */
export async function sendMessages(
  deps: AppDeps,
  viewer: Viewer,
  ticketId: number,
  input: SendInput,
): Promise<MessageView[]> {
  const ticket = await readableTicket(deps.db, viewer, { id: ticketId });
  assertCanWrite(viewer, ticket);
  const files = input.files ?? [];
  if (input.template) {
    if (ticket.whatsappId === null) {
      throw new AppError(400, "ERR_WAPP_NOT_INITIALIZED", "O ticket não tem uma conexão");
    }
    const ref = { whatsappId: ticket.whatsappId, contactId: ticket.contactId };
    const text = await checkedTemplate(deps, viewer.companyId, ref, input.template);
    return [
      await queueOutgoing(deps, {
        companyId: viewer.companyId,
        ticketId: ticket.id,
        userId: viewer.userId,
        body: text,
        template: input.template,
      }),
    ];
  }
  if (files.length === 0 && !input.body.trim()) {
    throw badRequest("ERR_VALIDATION", "Mensagem vazia", { body: ["Required"] });
  }
  if (ticket.whatsappId === null) {
    throw new AppError(400, "ERR_WAPP_NOT_INITIALIZED", "O ticket não tem uma conexão");
  }
  const types = files.map((file) => checkAttachment(file, deps.config.mediaMaxBytes));
  const prepared = await prepareFiles(deps, viewer.companyId, ticket.whatsappId, files, types);
  await assertWindowOpen(deps, viewer.companyId, {
    whatsappId: ticket.whatsappId,
    contactId: ticket.contactId,
  });
  if (input.quotedMsgId != null) {
    const quoted = await findMessage(deps.db, viewer.companyId, input.quotedMsgId);
    if (!quoted) throw notFound("ERR_NO_MESSAGE_FOUND", "Mensagem citada não encontrada");
  }

  const body = await filled(deps, viewer, ticket, input.body);
  const base = { companyId: viewer.companyId, ticketId: ticket.id, userId: viewer.userId };
  if (files.length === 0) {
    return [await queueOutgoing(deps, { ...base, body, quotedMsgId: input.quotedMsgId })];
  }
  const sent: MessageView[] = [];
  for (const [i, file] of prepared.entries()) {
    const stored = await saveMedia(deps.config, viewer.companyId, file.data, {
      mimetype: file.mimetype,
      filename: file.filename,
    });
    try {
      sent.push(
        await queueOutgoing(deps, {
          ...base,
          body: i === 0 ? body : "",
          quotedMsgId: i === 0 ? input.quotedMsgId : null,
          media: {
            path: stored.path,
            mimetype: stored.mimetype,
            filename: stored.filename,
            ptt: input.ptt && stored.mimetype.startsWith("audio/"),
          },
        }),
      );
    } catch (error) {
      // Not queued: the file would be an orphan.
      await deleteMedia(deps.config, viewer.companyId, stored.path);
      throw error;
    }
  }
  return sent;
}

/**
 * Who may write in a ticket (a send, a forward into it): one who may act on it (assertCanAct:
 * not another attendant's), while it is open (a pending ticket is accepted first, a closed one
 * reopened).
 */
export function assertCanWrite(viewer: Viewer, ticket: Placed): void {
  assertCanAct(viewer, ticket);
  if (ticket.status === "pending") {
    throw badRequest("ERR_INVALID_TRANSITION", "Aceite o ticket antes de responder");
  }
  if (ticket.status === "closed") {
    throw badRequest("ERR_INVALID_TRANSITION", "Reabra o ticket antes de responder");
  }
}

/**
 * A quick answer (or anything typed) with {{name}}, {{user}}, {{protocol}}... reaches the contact
 * filled, like every automatic text (issue 24): the variables of server/messages/variables.ts.
 */
async function filled(
  deps: AppDeps,
  viewer: Viewer,
  ticket: { id: number; contactId: number },
  body: string,
): Promise<string> {
  if (!body.includes("{{")) return body;
  const [contact, user, timeZone] = await Promise.all([
    contactName(deps.db, viewer.companyId, ticket.contactId),
    userName(deps.db, viewer.companyId, viewer.userId),
    companyTimeZone(deps.db, viewer.companyId),
  ]);
  return renderVariables(body, {
    contact,
    user: { name: user ?? "" },
    ticketId: ticket.id,
    now: deps.clock.now(),
    timeZone,
  });
}

/**
 * PUT /api/messages/:id: edits a text we sent, within WhatsApp's window (EDIT_WINDOW_MINUTES of
 * contract/validation.ts; ERR_EDIT_WINDOW_EXPIRED after), through the connection. Not a
 * contact's message, a media or a deleted one (ERR_EDIT_WAPP_MSG).
 */
export async function editMessage(
  deps: AppDeps,
  viewer: Viewer,
  messageId: number,
  body: string,
): Promise<MessageView> {
  const message = await findMessage(deps.db, viewer.companyId, messageId);
  if (!message) throw notFound("ERR_NO_MESSAGE_FOUND", "Mensagem não encontrada");
  const ticket = await readableTicket(deps.db, viewer, { id: message.ticketId });
  assertCanAct(viewer, ticket);
  if (message.fromMe !== 1 || message.mediaUrl !== null || message.isDeleted === 1) {
    throw badRequest("ERR_EDIT_WAPP_MSG", "Só é possível editar textos enviados por nós");
  }
  const age = deps.clock.now().getTime() - Date.parse(message.createdAt);
  if (age > EDIT_WINDOW_MINUTES * 60_000) {
    throw badRequest(
      "ERR_EDIT_WINDOW_EXPIRED",
      `O prazo para editar (${EDIT_WINDOW_MINUTES} minutos) terminou`,
    );
  }
  return await editForEveryone(deps, message, keepSignature(message.body, body));
}

/** DELETE /api/messages/:id: delete for everyone (isDeleted), only the attendants' own side. */
export async function deleteMessage(
  deps: AppDeps,
  viewer: Viewer,
  messageId: number,
): Promise<MessageView> {
  const message = await findMessage(deps.db, viewer.companyId, messageId);
  if (!message) throw notFound("ERR_NO_MESSAGE_FOUND", "Mensagem não encontrada");
  const ticket = await readableTicket(deps.db, viewer, { id: message.ticketId });
  assertCanAct(viewer, ticket);
  // WhatsApp deletes for everyone only what this number sent.
  if (message.fromMe !== 1) {
    throw badRequest("ERR_DELETE_WAPP_MSG", "Só é possível apagar mensagens enviadas");
  }
  const view = await deleteForEveryone(deps, viewer.companyId, message.id);
  log.debug("message deleted for everyone", { companyId: viewer.companyId, messageId });
  return view;
}
