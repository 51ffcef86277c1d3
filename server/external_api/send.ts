import { isUniqueViolation } from "../../db/constraints.ts";
import type { Contact, Whatsapp } from "../../db/schema.ts";
import { contactView } from "../contacts/service.ts";
import { normalizeNumber } from "../contacts/numbers.ts";
import { findContactByNumber, insertContact } from "../contacts/repository.ts";
import type { AppDeps } from "../context.ts";
import { AppError, badRequest } from "../errors.ts";
import { deleteMedia, saveMedia, type StoredMedia } from "../media/store.ts";
import { checkAttachment } from "../messages/attachments.ts";
import { ticketChange } from "../events/domain.ts";
import { noteOutgoingMany } from "../events/outgoing_repository.ts";
import { findActiveTicket, insertClosedTicket, updateTicketRow } from "../tickets/repository.ts";
import { loadTicketView, messageViews } from "../tickets/view_repository.ts";
import { checkNumber, enqueueInTransaction, lastMessageOf } from "../whatsapp/outbox/outbox.ts";
import { findIdempotencyKey, storeIdempotencyKey } from "./repository.ts";
import { tokenHash } from "./tokens.ts";
import type { SendTemplate } from "../../contract/channels.ts";
import { assertSendable, needsTemplate, templateText } from "../messages/template_rule.ts";
import { assertWindowOpen, windowClosed } from "../messages/window.ts";

/** What POST /api/messages/send takes once the route has read JSON or multipart. */
export type ApiSendInput = {
  number: string;
  body: string;
  files: File[];
  /** Issue 45: an approved template instead of the body (a connection with the window). */
  template?: SendTemplate;
};

/** The 201 answer: the queued messages (ack 0: in the outbox), on which ticket and contact. */
export type ApiSendAnswer = {
  messageId: number;
  messageIds: number[];
  ticketId: number;
  contactId: number;
  number: string;
  status: "queued";
};

/** An Idempotency-Key's answer is kept this long; a retry after that sends again. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

function idempotencyReused(): AppError {
  return new AppError(
    422,
    "ERR_IDEMPOTENCY_KEY_REUSED",
    "Esta Idempotency-Key já foi usada com outro pedido",
  );
}

/** Same number, text and files (names, types, sizes) = the same request, for a retry. */
async function requestHashOf(number: string, input: ApiSendInput): Promise<string> {
  const files = input.files.map((f) => [f.name, f.type, f.size]);
  return await tokenHash(JSON.stringify([number, input.body, files, input.template ?? null]));
}

function idempotencyCutoff(now: Date): string {
  return new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString();
}

async function storedAnswer(
  deps: AppDeps,
  whatsapp: Whatsapp,
  key: string,
  requestHash: string,
): Promise<ApiSendAnswer | undefined> {
  const row = await findIdempotencyKey(
    deps.db,
    whatsapp.companyId,
    whatsapp.id,
    key,
    idempotencyCutoff(deps.clock.now()),
  );
  if (!row) return undefined;
  if (row.requestHash !== requestHash) throw idempotencyReused();
  return JSON.parse(row.responseJson) as ApiSendAnswer;
}

function validNumberOrThrow(raw: string): string {
  const result = normalizeNumber(raw);
  if (!result.ok) {
    throw new AppError(400, "ERR_INVALID_NUMBER", result.message, {
      fields: { number: [result.message] },
    });
  }
  if (result.isGroup) {
    const message = "Envio para grupos não é suportado pela API";
    throw new AppError(400, "ERR_INVALID_NUMBER", message, { fields: { number: [message] } });
  }
  return result.number;
}

/**
 * POST /api/messages/send (issue 16) for the token's connection. Checked before anything is
 * written: the number (normalised like contacts: ERR_INVALID_NUMBER), the text or files
 * (ERR_VALIDATION, ERR_INVALID_MEDIA, ERR_MEDIA_TOO_LARGE), the connection is connected
 * (ERR_WAPP_NOT_INITIALIZED) and the number is on WhatsApp (ERR_WAPP_INVALID_CONTACT).
 *
 * The messages go on the contact's open or pending ticket on this connection, whose status,
 * queue and user stay as they are. Without one, a new ticket is created `closed`, with no queue
 * and no user (as scheduled messages do): an automatic send does not fill the attendants'
 * lists, and the contact's reply opens a new pending ticket through the usual flow (bots,
 * queues). The contact is created (named by its number) when the company has none.
 *
 * With an Idempotency-Key, the answer is stored in the SAME transaction as the outbox rows; a
 * retry with the same key and request gets the stored answer (`replayed`) and sends nothing,
 * the same key with another request is 422 ERR_IDEMPOTENCY_KEY_REUSED.
 */
export async function sendThroughApi(
  deps: AppDeps,
  whatsapp: Whatsapp,
  input: ApiSendInput,
  idempotencyKey?: string,
): Promise<{ answer: ApiSendAnswer; replayed: boolean }> {
  const number = validNumberOrThrow(input.number);
  const requestHash = await requestHashOf(number, input);
  if (idempotencyKey) {
    const stored = await storedAnswer(deps, whatsapp, idempotencyKey, requestHash);
    if (stored) return { answer: stored, replayed: true };
  }
  if (!input.template && input.files.length === 0 && !input.body.trim()) {
    throw badRequest("ERR_VALIDATION", "Mensagem vazia", { body: ["Required"] });
  }
  const types = input.files.map((file) => checkAttachment(file, deps.config.mediaMaxBytes));
  const body = await channelChecked(deps, whatsapp, number, input);
  const target = await checkNumber(deps, whatsapp.companyId, number, whatsapp.id);

  const companyId = whatsapp.companyId;
  const saved: StoredMedia[] = [];
  try {
    for (const [i, file] of input.files.entries()) {
      saved.push(
        await saveMedia(deps.config, companyId, new Uint8Array(await file.arrayBuffer()), {
          mimetype: types[i],
          filename: file.name,
        }),
      );
    }
    const write = () =>
      writeSend(deps, whatsapp, {
        number,
        address: target.jid,
        body,
        template: input.template,
        media: saved,
        idempotency: idempotencyKey ? { key: idempotencyKey, requestHash } : undefined,
      });
    const result = await write().catch((error) => {
      // Two sends to a new number at once: SQLite's one writer lets the second look for the
      // contact after the first committed it; on PostgreSQL both look first and the second's
      // insert meets the key. Once more, it finds the contact (issue 46).
      if (!isUniqueViolation(error, "contacts")) throw error;
      return write();
    });
    await announce(deps, companyId, result);
    return { answer: result.answer, replayed: false };
  } catch (error) {
    // Nothing was queued: the files would be orphans.
    for (const file of saved) await deleteMedia(deps.config, companyId, file.path);
    if (idempotencyKey && isUniqueViolation(error, "api_idempotency_keys")) {
      // A retry raced this one and committed first: answer what it answered.
      const stored = await storedAnswer(deps, whatsapp, idempotencyKey, requestHash);
      if (stored) return { answer: stored, replayed: true };
    }
    throw error;
  }
}

/**
 * Issue 45: on a connection with the 24-hour window, free text goes only to a contact who wrote
 * within it (else 422 ERR_WHATSAPP_WINDOW_CLOSED, before anything is queued); a template is
 * checked against the synced ones and goes alone. Answers the text our copy of the message holds.
 */
async function channelChecked(
  deps: AppDeps,
  whatsapp: Whatsapp,
  number: string,
  input: ApiSendInput,
): Promise<string> {
  const companyId = whatsapp.companyId;
  if (input.template) {
    await assertSendable(deps, companyId, whatsapp.id, {
      freeForm: input.files.length > 0,
      template: input.template,
    });
    return await templateText(deps.db, companyId, whatsapp.id, input.template);
  }
  if (await needsTemplate(deps.db, companyId, whatsapp.id)) {
    const contact = await findContactByNumber(deps.db, companyId, number);
    if (!contact) throw windowClosed();
    await assertWindowOpen(deps, companyId, { whatsappId: whatsapp.id, contactId: contact.id });
  }
  return input.body;
}

type Written = {
  answer: ApiSendAnswer;
  createdContact: Contact | null;
  before: { status: string; queueId: number | null; userId: number | null } | null;
  messages: Awaited<ReturnType<typeof enqueueInTransaction>>[];
  /** The keys of the send's noted events (server/events/outgoing.ts), in this order. */
  notes: { contact?: string; messages: string[]; ticket: string };
};

async function writeSend(
  deps: AppDeps,
  whatsapp: Whatsapp,
  args: {
    number: string;
    address: string;
    body: string;
    template?: SendTemplate;
    media: StoredMedia[];
    idempotency?: { key: string; requestHash: string };
  },
): Promise<Written> {
  const companyId = whatsapp.companyId;
  const now = deps.clock.now();
  const stamp = now.toISOString();
  return await deps.db.transaction().execute(async (trx) => {
    let contact = await findContactByNumber(trx, companyId, args.number);
    let createdContact: Contact | null = null;
    if (!contact) {
      contact = createdContact = await insertContact(trx, companyId, {
        name: args.number,
        number: args.number,
        email: "",
        isGroup: 0,
      }, stamp);
    }
    const open = await findActiveTicket(trx, companyId, contact.id, whatsapp.id);
    const ticketId = open?.id ?? await insertClosedTicket(trx, companyId, {
      contactId: contact.id,
      whatsappId: whatsapp.id,
      userId: null,
      isGroup: 0,
    }, stamp);
    const outgoing = args.media.length === 0
      ? [{ body: args.body, media: undefined }]
      : args.media.map((m, i) => ({
        body: i === 0 ? args.body : "",
        media: { path: m.path, mimetype: m.mimetype, filename: m.filename },
      }));
    const messages = [];
    for (const item of outgoing) {
      messages.push(
        await enqueueInTransaction(trx, {
          companyId,
          whatsappId: whatsapp.id,
          ticketId,
          contactId: contact.id,
          toJid: args.address,
          body: item.body,
          media: item.media,
          template: args.template,
          now: stamp,
        }),
      );
    }
    const last = outgoing[outgoing.length - 1];
    await updateTicketRow(trx, companyId, ticketId, {
      lastMessage: lastMessageOf(last.body || args.body, last.media?.filename),
      updatedAt: stamp,
    });
    const answer: ApiSendAnswer = {
      messageId: messages[0].id,
      messageIds: messages.map((m) => m.id),
      ticketId,
      contactId: contact.id,
      number: args.number,
      status: "queued",
    };
    if (args.idempotency) {
      await storeIdempotencyKey(trx, {
        companyId,
        whatsappId: whatsapp.id,
        key: args.idempotency.key,
        requestHash: args.idempotency.requestHash,
        responseJson: JSON.stringify(answer),
        now: stamp,
      }, idempotencyCutoff(now));
    }
    const before = open
      ? { status: open.status, queueId: open.queueId, userId: open.userId }
      : null;
    // Noted with the send: its webhooks and pushes survive a crash right after the commit.
    const keys = await noteOutgoingMany(trx, companyId, [
      ...messages.map((m) => ({
        event: "message.created",
        subject: { ticketId, messageId: m.id },
      })),
      before
        ? { event: ticketChange(before, before), subject: { ticketId, before } }
        : { event: "ticket.created", subject: { ticketId } },
      ...(createdContact
        ? [{ event: "contact.created", subject: { contactId: createdContact.id } }]
        : []),
    ], stamp);
    const notes = {
      messages: keys.slice(0, messages.length),
      ticket: keys[messages.length],
      contact: createdContact ? keys[messages.length + 1] : undefined,
    };
    return { answer, createdContact, before, messages, notes };
  });
}

/** After the commit: the same events an attendant's send raises, then the outbox is woken. */
async function announce(deps: AppDeps, companyId: number, written: Written) {
  if (written.createdContact) {
    deps.events.emit("contact.created", {
      companyId,
      contact: contactView(written.createdContact),
      outgoing: written.notes.contact,
    });
  }
  const ticket = await loadTicketView(deps.db, companyId, written.answer.ticketId);
  if (ticket) {
    const views = await messageViews(deps.db, companyId, written.messages);
    views.forEach((view, i) => {
      deps.events.emit("message.created", {
        message: view,
        ticket,
        outgoing: written.notes.messages[i],
      });
    });
    // No ticket before: this send opened one (closed, to carry it).
    const outgoing = written.notes.ticket;
    if (!written.before) deps.events.emit("ticket.created", { ticket, outgoing });
    else {
      deps.events.emit(ticketChange(ticket, written.before), {
        ticket,
        before: written.before,
        outgoing,
      });
    }
  }
  const whatsappId = written.messages[0].whatsappId;
  if (whatsappId !== null) deps.sessions.kickOutbox(whatsappId);
}
