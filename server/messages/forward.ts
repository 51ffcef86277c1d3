import { NoResultError } from "kysely";
import type { AppDeps, AuthInfo } from "../context.ts";
import { noteOutgoingMany } from "../events/outgoing_repository.ts";
import { AppError, badRequest, notFound } from "../errors.ts";
import { log } from "../log.ts";
import { mediaExists } from "../media/store.ts";
import { assertCanRead, canRead, type Viewer, viewerOf } from "../tickets/access.ts";
import { createTicket } from "../tickets/service.ts";
import { findActiveTicket } from "../tickets/repository.ts";
import { loadTicketView, messageViews } from "../tickets/view_repository.ts";
import { addressOfContact } from "../whatsapp/providers/address.ts";
import { enqueueInTransaction, lastMessageOf } from "../whatsapp/outbox/outbox.ts";
import { recipientOf, setTicketLastMessage } from "../whatsapp/outbox/outbox_repository.ts";
import { type ForwardSource, forwardSources } from "./repository.ts";
import { assertCanWrite } from "./send.ts";
import { isUniqueViolation } from "../../db/constraints.ts";
import { IDEMPOTENCY_TTL_MS } from "../external_api/send.ts";
import { findIdempotencyKey, storeIdempotencyKey } from "../external_api/repository.ts";
import { tokenHash } from "../external_api/tokens.ts";
import type { ForwardResult } from "../../contract/ticket_types.ts";

export type ForwardInput = {
  messageIds: number[];
  contactIds: number[];
  /** An Idempotency-Key: a retry with the same key and body gets the first answer, sends nothing. */
  idempotencyKey?: string;
};

type ForwardAnswer = { results: ForwardResult[] };

/**
 * POST /api/messages/forward (issue 28): the messages, in their conversation's order, to each
 * contact, through the connection of the first message's ticket. Checked before anything is
 * written: every message and contact is the company's (another company's answers like a missing
 * one), the caller may read every message's ticket, no message is deleted or empty, every media
 * file is still stored (a forward reuses it, nothing is copied).
 *
 * Per contact: their open ticket on that connection gets them if the caller may write there
 * (another attendant's: ERR_FORWARD_OTHER_ATTENDANT; a pending one: ERR_FORWARD_TICKET_PENDING, or
 * ERR_FORWARD_TICKET_PENDING_OTHER_QUEUE when it waits where the caller cannot see it), the
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
 * - an Idempotency-Key (api_idempotency_keys, unique per company, connection and key, stored in
 *   that same transaction): a client that lost the answer and posts again gets it, and nothing
 *   is queued twice; the same key with another body is 422 ERR_IDEMPOTENCY_KEY_REUSED.
 */
export async function forwardMessages(
  deps: AppDeps,
  auth: AuthInfo,
  input: ForwardInput,
): Promise<ForwardAnswer> {
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
  const key = input.idempotencyKey
    ? {
      companyId,
      whatsappId,
      key: input.idempotencyKey,
      requestHash: await tokenHash(JSON.stringify([messageIds, contactIds])),
    }
    : undefined;
  if (key) {
    const stored = await storedForward(deps, key);
    if (stored) return stored;
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

  const refused: ForwardResult[] = [];
  const targets: { ticketId: number; contact: (typeof recipients)[number] }[] = [];
  for (const contact of recipients) {
    try {
      const ticketId = await targetTicket(deps, auth, viewer, contact.id, whatsappId, sources[0]);
      targets.push({ ticketId, contact });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      refused.push({ contactId: contact.id, error: error.code, message: error.message });
    }
  }

  const now = deps.clock.now().toISOString();
  const answer = (rows: { id: number; ticketId: number }[]): ForwardAnswer => ({
    results: contactIds.map((contactId) => {
      const target = targets.find((t) => t.contact.id === contactId);
      if (!target) return refused.find((r) => r.contactId === contactId)!;
      const messages = rows.filter((row) => row.ticketId === target.ticketId).map((row) => row.id);
      return { contactId, ticketId: target.ticketId, messages };
    }),
  });
  let written;
  try {
    written = await deps.db.transaction().execute(async (trx) => {
      const rows = [];
      for (const { ticketId, contact } of targets) {
        for (const source of sources) {
          rows.push(
            await enqueueInTransaction(trx, {
              companyId,
              whatsappId,
              ticketId,
              contactId: contact.id,
              toJid: addressOfContact(contact),
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
      if (key) {
        const responseJson = JSON.stringify(answer(rows));
        await storeIdempotencyKey(trx, { ...key, responseJson, now }, idempotencyCutoff(deps));
      }
      // Each message's event noted with the forward (server/events/outgoing.ts).
      const notes = await noteOutgoingMany(
        trx,
        companyId,
        rows.map((row) => ({
          event: "message.created",
          subject: { ticketId: row.ticketId, messageId: row.id },
        })),
        now,
      );
      const noteOf = new Map(rows.map((row, i) => [row.id, notes[i]]));
      return { rows, noteOf };
    });
  } catch (error) {
    // A retry with the same key raced this one and committed first: its answer is this one's.
    const stored = key && isUniqueViolation(error, "api_idempotency_keys")
      ? await storedForward(deps, key)
      : undefined;
    if (stored) return stored;
    throw error;
  }
  const { rows: queued, noteOf } = written;
  const views = await messageViews(deps.db, companyId, queued);
  for (const { ticketId } of targets) {
    const ticket = await loadTicketView(deps.db, companyId, ticketId);
    const mine = views.filter((view) => view.ticketId === ticketId);
    if (ticket) {
      for (const message of mine) {
        deps.events.emit("message.created", { message, ticket, outgoing: noteOf.get(message.id) });
      }
    }
  }
  if (queued.length > 0) deps.sessions.kickOutbox(whatsappId);
  log.debug("messages forwarded", {
    companyId,
    userId: viewer.userId,
    messages: sources.length,
    contacts: targets.length,
  });
  return answer(queued);
}

/** The answer a key already has (within IDEMPOTENCY_TTL_MS); 422 when the body was another. */
async function storedForward(
  deps: AppDeps,
  key: { companyId: number; whatsappId: number; key: string; requestHash: string },
): Promise<ForwardAnswer | undefined> {
  const row = await findIdempotencyKey(
    deps.db,
    key.companyId,
    key.whatsappId,
    key.key,
    idempotencyCutoff(deps),
  );
  if (!row) return undefined;
  if (row.requestHash !== key.requestHash) {
    throw new AppError(
      422,
      "ERR_IDEMPOTENCY_KEY_REUSED",
      "Esta Idempotency-Key já foi usada com outro pedido",
    );
  }
  return JSON.parse(row.responseJson) as ForwardAnswer;
}

function idempotencyCutoff(deps: AppDeps): string {
  return new Date(deps.clock.now().getTime() - IDEMPOTENCY_TTL_MS).toISOString();
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
  if (open.status === "pending") {
    // Waiting in a queue: nobody has it yet, and writing into it would answer the contact
    // before anyone accepted. Say so, and what to do (issue 50 item 9): accept it, or, when it
    // waits in a queue the caller cannot even see, ask that queue.
    if (!canRead(viewer, open)) {
      throw new AppError(
        409,
        "ERR_FORWARD_TICKET_PENDING_OTHER_QUEUE",
        "Este contato tem um ticket aguardando numa fila que você não atende: peça a quem atende essa fila que o aceite ou o transfira para você",
      );
    }
    throw new AppError(
      409,
      "ERR_FORWARD_TICKET_PENDING",
      "Este contato tem um ticket aguardando na fila: aceite-o e encaminhe de novo",
    );
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
