import type { MenuChoice, SendTemplate } from "../../../contract/channels.ts";
import type { StorageHealth } from "../../storage/health.ts";
import type { Database } from "../../../db/client.ts";
import type { Message } from "../../../db/schema.ts";
import type { Clock } from "../../clock.ts";
import type { Config } from "../../config.ts";
import { AppError, badRequest, notFound } from "../../errors.ts";
import { log } from "../../log.ts";
import { noteMessage } from "../../events/outgoing_repository.ts";
import { mediaExists, mediaTypeOf } from "../../media/store.ts";
import type { EventBus } from "../../events/bus.ts";
import type { MessageView } from "../../tickets/view.ts";
import { loadTicketView, messageViews } from "../../tickets/view_repository.ts";
import { addressOfContact, addressOfPhone, newMessageId } from "../providers/address.ts";
import {
  editMessageBody,
  findMessage,
  previewDeletedMessage,
  previewEditedMessage,
} from "../../messages/repository.ts";
import {
  cancelPendingSend,
  connectionOf,
  connectionToCheck,
  editPendingSend,
  insertOutgoing,
  isBeingSent,
  markMessageDeleted,
  quotedMessage,
  recipientOf,
  setTicketLastMessage,
  ticketToSend,
} from "./outbox_repository.ts";
import type { RunningProviders } from "../providers/provider.ts";

/**
 * Outbound messages (DESIGN 'WhatsApp': outbox). A send is a fromMe message row (ack 0) and an
 * outbox row written in ONE transaction, before anything goes to the provider; the worker
 * (worker.ts) then sends rows in order per connection. The WhatsApp id is chosen here,
 * stored on both rows, and every attempt sends under it, so a restart neither loses nor doubles.
 */
export type OutboxDeps = {
  config: Config;
  db: Database;
  events: EventBus;
  clock: Clock;
  sessions: RunningProviders;
  /** Whether the data folder can be written (issue 34): a storage failure is its one log line. */
  storage?: StorageHealth;
};

/** A file already saved with server/media/store.ts (its `path` key). */
export type OutgoingMedia = { path: string; mimetype: string; filename: string; ptt?: boolean };

export type OutgoingInput = {
  companyId: number;
  ticketId: number;
  body: string;
  /** Id of the message (messages.id) this one replies to. */
  quotedMsgId?: number | null;
  media?: OutgoingMedia;
  /** Who sends it, for the log (the body already carries a signature when the user wants one). */
  userId?: number | null;
  /** A template send (Cloud API, issue 45): `body` is its text as the contact reads it. */
  template?: OutgoingTemplate;
};

export type OutgoingTemplate = SendTemplate;

/** What the ticket list shows for a message. */
export function lastMessageOf(body: string, mediaName?: string | null, mediaType?: string | null) {
  return body.trim() || mediaName || mediaType || "";
}

/**
 * Writes the fromMe message (ack 0) and its outbox row. Must run inside the caller's
 * transaction, so that the message exists if and only if it will be sent.
 */
export async function enqueueInTransaction(
  trx: Database,
  args: {
    companyId: number;
    whatsappId: number;
    ticketId: number;
    contactId: number;
    toJid: string;
    body: string;
    quoted?: { id: number; wid: string | null } | null;
    media?: OutgoingMedia;
    now: string;
    /** When it may go out, if later than `now` (a bot spacing its replies). */
    dueAt?: string;
    /** A forward: WhatsApp and our bubble mark it so. */
    forwarded?: boolean;
    template?: OutgoingTemplate;
    /** A chatbot menu's choices: buttons or a list where the channel has them. */
    menu?: MenuChoice[];
  },
): Promise<Message> {
  const wid = newMessageId();
  const mimetype = args.media?.mimetype ?? null;
  return await insertOutgoing(trx, {
    companyId: args.companyId,
    ticketId: args.ticketId,
    contactId: args.contactId,
    whatsappId: args.whatsappId,
    wid,
    remoteJid: args.toJid,
    participant: null,
    body: args.body,
    fromMe: 1,
    mediaType: mimetype ? (args.media?.ptt ? "audio" : mediaTypeOf(mimetype)) : null,
    mediaUrl: args.media?.path ?? null,
    mediaName: args.media?.filename ?? null,
    mediaMimetype: mimetype,
    ack: 0,
    read: 1,
    quotedMsgId: args.quoted?.id ?? null,
    isForwarded: args.forwarded ? 1 : 0,
    dataJson: null,
    createdAt: args.now,
    updatedAt: args.now,
  }, {
    companyId: args.companyId,
    whatsappId: args.whatsappId,
    ticketId: args.ticketId,
    wid,
    toJid: args.toJid,
    body: args.body,
    mediaPath: args.media?.path ?? null,
    mediaMimetype: mimetype,
    mediaName: args.media?.filename ?? null,
    ptt: args.media?.ptt ? 1 : 0,
    quotedWid: args.quoted?.wid ?? null,
    forwarded: args.forwarded ? 1 : 0,
    template: args.template ? JSON.stringify(args.template) : null,
    menu: args.menu?.length ? JSON.stringify(args.menu) : null,
    nextAttemptAt: args.dueAt ?? args.now,
    createdAt: args.now,
    updatedAt: args.now,
  });
}

/**
 * Queues a message on a ticket's connection and returns it (ack 0). Accepted while the
 * connection is offline: it is sent when the connection is back. Throws ERR_NO_TICKET_FOUND,
 * ERR_WAPP_NOT_INITIALIZED (the ticket has no connection), ERR_NO_MESSAGE_FOUND (quoted message)
 * or ERR_INVALID_MEDIA (file not stored for this company).
 */
export async function queueOutgoing(deps: OutboxDeps, input: OutgoingInput): Promise<MessageView> {
  const { db, clock } = deps;
  const { companyId } = input;
  const body = input.body ?? "";
  if (!body.trim() && !input.media) throw badRequest("ERR_VALIDATION", "Mensagem vazia");
  const ticket = await ticketToSend(db, companyId, input.ticketId);
  if (!ticket) throw notFound("ERR_NO_TICKET_FOUND", "Ticket não encontrado");
  const whatsapp = ticket.whatsappId === null
    ? undefined
    : await connectionOf(db, companyId, ticket.whatsappId);
  if (!whatsapp) {
    throw new AppError(400, "ERR_WAPP_NOT_INITIALIZED", "O ticket não tem uma conexão");
  }
  const contact = await recipientOf(db, companyId, ticket.contactId);
  let quoted: { id: number; wid: string | null } | null = null;
  if (input.quotedMsgId !== undefined && input.quotedMsgId !== null) {
    quoted = await quotedMessage(db, companyId, whatsapp.id, input.quotedMsgId) ?? null;
    if (!quoted) throw notFound("ERR_NO_MESSAGE_FOUND", "Mensagem citada não encontrada");
  }
  if (input.media && !(await mediaExists(deps.config, companyId, input.media.path))) {
    throw badRequest("ERR_INVALID_MEDIA", "Arquivo não encontrado");
  }
  const now = clock.now().toISOString();
  const { message, notes } = await db.transaction().execute(async (trx) => {
    const row = await enqueueInTransaction(trx, {
      companyId,
      whatsappId: whatsapp.id,
      ticketId: ticket.id,
      contactId: contact.id,
      toJid: addressOfContact(contact),
      body,
      quoted,
      media: input.media,
      template: input.template,
      now,
    });
    await setTicketLastMessage(
      trx,
      companyId,
      ticket.id,
      lastMessageOf(body, input.media?.filename),
      now,
    );
    // Noted with the send (server/events/outgoing.ts): its webhook survives a crash.
    return { message: row, notes: await noteMessage(trx, companyId, "message.created", row, now) };
  });
  log.debug("message queued", {
    companyId,
    ticketId: ticket.id,
    messageId: message.id,
    userId: input.userId ?? null,
  });
  const [view] = await messageViews(db, companyId, [message]);
  const ticketView = await loadTicketView(db, companyId, ticket.id);
  if (ticketView) {
    deps.events.emit("message.created", {
      message: view,
      ticket: ticketView,
      outgoing: notes.message,
    });
  }
  deps.sessions.kickOutbox(whatsapp.id);
  return view;
}

/**
 * Deletes a message for everyone (seeds/000: ERR_DELETE_WAPP_MSG on failure). A message still
 * waiting in the outbox is simply not sent; a sent one is revoked through the connection.
 */
export async function deleteForEveryone(
  deps: OutboxDeps,
  companyId: number,
  messageId: number,
): Promise<MessageView> {
  const { db } = deps;
  const message = await findMessage(db, companyId, messageId);
  if (!message) throw notFound("ERR_NO_MESSAGE_FOUND", "Mensagem não encontrada");
  if (message.isDeleted === 1) return (await messageViews(db, companyId, [message]))[0];
  const now = deps.clock.now().toISOString();
  if (!(await cancelPendingSend(db, companyId, message.id, now))) {
    if (await isBeingSent(db, companyId, message.id)) {
      throw badRequest("ERR_DELETE_WAPP_MSG", "A mensagem está sendo enviada; tente novamente");
    }
    const provider = message.whatsappId === null
      ? undefined
      : deps.sessions.connectedProvider(message.whatsappId);
    if (!provider || !message.wid || !message.remoteJid) {
      throw badRequest("ERR_DELETE_WAPP_MSG", "A conexão não está disponível");
    }
    try {
      await provider.deleteForEveryone(message.remoteJid, message.wid, message.fromMe === 1);
    } catch (error) {
      log.error("delete for everyone failed", { companyId, messageId, error });
      throw new AppError(400, "ERR_DELETE_WAPP_MSG", "Não foi possível apagar a mensagem", {
        cause: error,
      });
    }
  }
  // Marked deleted, and out of the preview when it was the newest, in one transaction.
  const deleted = await db.transaction().execute(async (trx) => {
    const row = await markMessageDeleted(trx, companyId, message.id, now);
    const previewed = await previewDeletedMessage(trx, companyId, row);
    return {
      row,
      notes: await noteMessage(trx, companyId, "message.updated", row, now, previewed),
    };
  });
  return await publishMessageChange(deps, companyId, deleted.row, deleted.notes);
}

/**
 * Edits a text we sent (PUT /api/messages/:id; the caller checked who and when). A text still
 * waiting in the outbox goes out edited; a sent one is edited through the connection
 * (ERR_EDIT_WAPP_MSG when it cannot be). The replaced text is kept (previousBodies) and the
 * ticket's room hears message.updated.
 */
export async function editForEveryone(
  deps: OutboxDeps,
  message: Message,
  body: string,
): Promise<MessageView> {
  const { db } = deps;
  const companyId = message.companyId;
  const now = deps.clock.now().toISOString();
  if (message.body === body) return (await messageViews(db, companyId, [message]))[0];
  if (!(await editPendingSend(db, companyId, message.id, body, now))) {
    if (await isBeingSent(db, companyId, message.id)) {
      throw badRequest("ERR_EDIT_WAPP_MSG", "A mensagem está sendo enviada; tente novamente");
    }
    const provider = message.whatsappId === null
      ? undefined
      : deps.sessions.connectedProvider(message.whatsappId);
    if (!provider || !message.wid || !message.remoteJid) {
      throw badRequest("ERR_WAPP_NOT_INITIALIZED", "A conexão não está disponível");
    }
    try {
      await provider.editText(message.remoteJid, message.wid, body);
    } catch (error) {
      log.error("edit failed", { companyId, messageId: message.id, error });
      throw new AppError(400, "ERR_EDIT_WAPP_MSG", "Não foi possível editar a mensagem", {
        cause: error,
      });
    }
  }
  const edited = await db.transaction().execute(async (trx) => {
    const row = await editMessageBody(trx, companyId, message.id, body, now);
    const previewed = row !== undefined && await previewEdited(trx, companyId, row);
    const notes = await noteMessage(
      trx,
      companyId,
      "message.updated",
      row ?? message,
      now,
      previewed,
    );
    return { row, notes };
  });
  return await publishMessageChange(deps, companyId, edited.row ?? message, edited.notes);
}

/**
 * After a message change commits (deleted or edited for everyone): its view, and the ticket's
 * room told message.updated, plus ticket.updated when the change moved the list's preview; each
 * with the note written in the change's transaction.
 */
async function publishMessageChange(
  deps: OutboxDeps,
  companyId: number,
  changed: Message,
  notes: { message: string; ticket?: string },
): Promise<MessageView> {
  const [view] = await messageViews(deps.db, companyId, [changed]);
  const ticketView = await loadTicketView(deps.db, companyId, changed.ticketId);
  if (ticketView) {
    deps.events.emit("message.updated", {
      message: view,
      ticket: ticketView,
      outgoing: notes.message,
    });
    if (notes.ticket) {
      deps.events.emit("ticket.updated", { ticket: ticketView, outgoing: notes.ticket });
    }
  }
  return view;
}

/**
 * An edited message (ours or the contact's) that is its ticket's newest becomes the ticket's
 * preview, in the edit's transaction; whether it did (the lists then hear ticket.updated).
 */
export async function previewEdited(trx: Database, companyId: number, edited: Message) {
  const text = lastMessageOf(edited.body, edited.mediaName, edited.mediaType);
  return await previewEditedMessage(trx, companyId, edited, text);
}

/**
 * Whether a number is on WhatsApp, through the given connection or the company's default.
 * Throws ERR_NO_DEF_WAPP_FOUND / ERR_NO_WAPP_FOUND, ERR_WAPP_NOT_INITIALIZED (not connected),
 * ERR_WAPP_INVALID_CONTACT (not a WhatsApp number), ERR_WAPP_CHECK_CONTACT (the check failed).
 */
export async function checkNumber(
  deps: OutboxDeps,
  companyId: number,
  number: string,
  whatsappId?: number,
): Promise<{ number: string; jid: string; whatsappId: number }> {
  const whatsapp = await connectionToCheck(deps.db, companyId, whatsappId);
  if (!whatsapp) {
    throw whatsappId === undefined
      ? notFound("ERR_NO_DEF_WAPP_FOUND", "Nenhuma conexão padrão encontrada")
      : notFound("ERR_NO_WAPP_FOUND", "Conexão não encontrada");
  }
  const digits = number.replace(/\D/g, "");
  if (digits.length < 8 || digits.length > 20) {
    throw badRequest("ERR_WAPP_INVALID_CONTACT", "Este não é um número de Whatsapp válido");
  }
  const provider = deps.sessions.connectedProvider(whatsapp.id);
  if (!provider) throw badRequest("ERR_WAPP_NOT_INITIALIZED", "A conexão não está conectada");
  let result: { exists: boolean; jid?: string };
  try {
    result = await provider.checkNumber(digits);
  } catch (error) {
    log.error("number check failed", { companyId, whatsappId: whatsapp.id, error });
    throw new AppError(400, "ERR_WAPP_CHECK_CONTACT", "Não foi possível verificar o número", {
      cause: error,
    });
  }
  if (!result.exists) {
    throw badRequest("ERR_WAPP_INVALID_CONTACT", "Este não é um número de Whatsapp válido");
  }
  return {
    number: digits,
    jid: result.jid ?? addressOfPhone(digits),
    whatsappId: whatsapp.id,
  };
}
