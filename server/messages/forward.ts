import { NoResultError } from "kysely";
import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError, badRequest, notFound } from "../errors.ts";
import { log } from "../log.ts";
import { mediaExists } from "../media/store.ts";
import { assertCanRead, type Viewer, viewerOf } from "../tickets/access.ts";
import { createTicket } from "../tickets/service.ts";
import { findActiveTicket } from "../tickets/repository.ts";
import { loadTicketView, messageViews } from "../tickets/view_repository.ts";
import { jidOfContact } from "../whatsapp/jid.ts";
import { enqueueInTransaction, lastMessageOf } from "../whatsapp/outbox/outbox.ts";
import { recipientOf, setTicketLastMessage } from "../whatsapp/outbox/outbox_repository.ts";
import { type ForwardSource, forwardSources } from "./repository.ts";
import { assertCanWrite } from "./send.ts";
import type { ForwardResult } from "../../contract/ticket_types.ts";

export type ForwardInput = { messageIds: number[]; contactIds: number[] };

/**
 * POST /api/messages/forward (issue 28): the messages, in their conversation's order, to each
 * contact, through the connection of the first message's ticket. Checked before anything is
 * written: every message and contact is the company's (another company's answers like a missing
 * one), the caller may read every message's ticket, no message is deleted or empty, every media
 * file is still stored (a forward reuses it, nothing is copied).
 *
 * Per contact: their open ticket on that connection gets them if the caller may write there
 * (another attendant's: ERR_FORWARD_OTHER_ATTENDANT; a pending one: ERR_INVALID_TRANSITION), the
 * others get a new ticket by the rules of POST /api/tickets (createTicket: queue of the first
 * message's ticket, assigned to the caller). A refused contact does not stop the others.
 *
 * Every message of every accepted contact is queued in ONE transaction (a fromMe message and its
 * outbox row each, marked forwarded): a crash before the commit queues nothing (a ticket already
 * opened for a contact is theirs on a retry), after it the outbox sends each exactly once:
 * - outbox_wid (whatsappId, wid): a send is queued once, under the WhatsApp id chosen here;
 * - the claim (status 'sending' + claimId, outbox/worker.ts): two loops never send one row;
 * - the WhatsApp id itself: a row a crash left 'sending' is recovered at boot and sent again
 *   under the same id, which the simulator (simulator_sent_wid) and WhatsApp recognise, so the
 *   phone gets it once (tests/ops/forward_kill_test.ts).
 * Not covered: a client that loses the answer and posts the same forward again sends it twice.
 */
export async function forwardMessages(
  deps: AppDeps,
  auth: AuthInfo,
  input: ForwardInput,
): Promise<{ results: ForwardResult[] }> {
  const viewer = await viewerOf(deps.db, auth);
  const companyId = viewer.companyId;
  const messageIds = [...new Set(input.messageIds)];
  const contactIds = [...new Set(input.contactIds)];
  const sources = await forwardSources(deps.db, companyId, messageIds);
  if (sources.length !== messageIds.length) {
    throw notFound("ERR_NO_MESSAGE_FOUND", "Mensagem não encontrada");
  }
  for (const source of sources) {
    assertCanRead(viewer, source);
    if (source.isDeleted === 1 || (!source.body.trim() && !source.mediaUrl)) {
      throw badRequest("ERR_VALIDATION", "Esta mensagem não pode ser encaminhada", {
        messageIds: [`Message ${source.id} cannot be forwarded`],
      });
    }
    if (source.mediaUrl && !(await mediaExists(deps.config, companyId, source.mediaUrl))) {
      throw badRequest("ERR_INVALID_MEDIA", "Arquivo não encontrado");
    }
  }
  const whatsappId = sources[0].whatsappId;
  if (whatsappId === null) {
    throw new AppError(400, "ERR_WAPP_NOT_INITIALIZED", "O ticket não tem uma conexão");
  }
  const recipients = [];
  for (const contactId of contactIds) {
    const contact = await recipientOf(deps.db, companyId, contactId).catch((error) => {
      if (error instanceof NoResultError) return undefined;
      throw error;
    });
    if (!contact) throw notFound("ERR_NO_CONTACT_FOUND", "Contato não encontrado");
    recipients.push(contact);
  }

  const results: ForwardResult[] = [];
  const targets: { ticketId: number; contact: (typeof recipients)[number] }[] = [];
  for (const contact of recipients) {
    try {
      const ticketId = await targetTicket(deps, auth, viewer, contact.id, whatsappId, sources[0]);
      targets.push({ ticketId, contact });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      results.push({ contactId: contact.id, error: error.code, message: error.message });
    }
  }

  const now = deps.clock.now().toISOString();
  const queued = await deps.db.transaction().execute(async (trx) => {
    const rows = [];
    for (const { ticketId, contact } of targets) {
      for (const source of sources) {
        rows.push(
          await enqueueInTransaction(trx, {
            companyId,
            whatsappId,
            ticketId,
            contactId: contact.id,
            toJid: jidOfContact(contact),
            body: source.body,
            media: source.mediaUrl
              ? {
                path: source.mediaUrl,
                mimetype: source.mediaMimetype ?? "application/octet-stream",
                filename: source.mediaName ?? "file",
              }
              : undefined,
            now,
            forwarded: true,
          }),
        );
      }
      const last = sources[sources.length - 1];
      await setTicketLastMessage(
        trx,
        companyId,
        ticketId,
        lastMessageOf(last.body, last.mediaName, last.mediaType),
        now,
      );
    }
    return rows;
  });
  const views = await messageViews(deps.db, companyId, queued);
  for (const { ticketId, contact } of targets) {
    const ticket = await loadTicketView(deps.db, companyId, ticketId);
    const mine = views.filter((view) => view.ticketId === ticketId);
    if (ticket) {
      for (const message of mine) deps.events.emit("message.created", { message, ticket });
    }
    results.push({ contactId: contact.id, ticketId, messages: mine.map((m) => m.id) });
  }
  if (queued.length > 0) deps.sessions.kickOutbox(whatsappId);
  log.debug("messages forwarded", {
    companyId,
    userId: viewer.userId,
    messages: sources.length,
    contacts: targets.length,
  });
  return { results: contactIds.map((id) => results.find((r) => r.contactId === id)!) };
}

/** The ticket a contact's forward goes to: their open one if the caller may write there, or new. */
async function targetTicket(
  deps: AppDeps,
  auth: AuthInfo,
  viewer: Viewer,
  contactId: number,
  whatsappId: number,
  first: ForwardSource,
): Promise<number> {
  const open = await findActiveTicket(deps.db, viewer.companyId, contactId, whatsappId);
  if (!open) {
    const created = await createTicket(deps, auth, {
      contactId,
      whatsappId,
      queueId: first.queueId,
      status: "open",
    });
    return created.id;
  }
  try {
    assertCanWrite(viewer, open);
  } catch (error) {
    if (error instanceof AppError && error.code === "ERR_NO_PERMISSION") {
      throw new AppError(
        403,
        "ERR_FORWARD_OTHER_ATTENDANT",
        "Este contato está em atendimento com outro atendente",
      );
    }
    throw error;
  }
  return open.id;
}
