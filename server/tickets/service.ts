import { HAND_OVER } from "../bots/registry.ts";
import type { Database } from "../../db/client.ts";
import type { Ticket, TicketStatus, TicketUpdate } from "../../db/schema.ts";
import type { AppDeps } from "../context.ts";
import { AppError, badRequest, forbidden, notFound } from "../errors.ts";
import { assertAllowed, isAllowed } from "../auth/policy.ts";
import { renderVariables } from "../messages/variables.ts";
import type { TicketPlacement } from "../realtime/publish.ts";
import { isEnabled, settingValues } from "../settings/values.ts";
import { assertCanAct, assertCanRead, type Viewer } from "./access.ts";
import {
  companyHas,
  defaultWhatsappId,
  deleteTicketRow,
  findActiveTicket,
  findTicket,
  findTicketByUuid,
  insertTicket,
  updateTicketRow,
} from "./repository.ts";
import { loadTicketView, type TicketView } from "./view.ts";

/**
 * Ticket rules (seeds/000 section 4). Every change runs in one transaction; the caller publishes
 * and sends the automatic messages after it commits (see routes/api/tickets.ts).
 */

/** A text to send to the contact once the change is committed, in this order. */
export type AutomaticText = {
  kind: "greeting" | "completion" | "rating" | "transfer";
  body: string;
};

export type TicketChange = {
  ticket: TicketView;
  before: TicketPlacement;
  automatic: AutomaticText[];
};

/** Texts chosen here, in Portuguese as the product's other automatic texts; never translated. */
export const GREETING_ACCEPTED =
  "{{ms}}, *{{name}}*! Meu nome é *{user}* e vou prosseguir com o seu atendimento.";
export const RATING_OPTIONS = "Digite de 1 a 3 para qualificar nosso atendimento:\n" +
  "*1* - _Insatisfeito_\n*2* - _Satisfeito_\n*3* - _Muito Satisfeito_";
export const TRANSFER_TO_QUEUE =
  "*Mensagem Automática*:\nVocê foi transferido para o departamento " +
  "*{queue}*.\nAguarde, já vamos te atender!";
export const TRANSFER_TO_USER = "*Mensagem Automática*:\nVocê foi transferido para o atendente " +
  "*{user}*{inQueue}.\nAguarde, já vamos te atender!";

export function placementOf(t: Pick<Ticket, "status" | "queueId" | "userId">): TicketPlacement {
  return { status: t.status, queueId: t.queueId, userId: t.userId };
}

/** The 409 of seeds/000 section 8: `message` is a JSON string naming the ticket's owner and queue. */
async function otherOpenTicket(
  db: Database,
  companyId: number,
  existing: Ticket,
): Promise<AppError> {
  const view = await loadTicketView(db, companyId, existing.id);
  return new AppError(
    409,
    "ERR_OTHER_OPEN_TICKET",
    JSON.stringify({
      id: existing.id,
      uuid: existing.uuid,
      status: existing.status,
      userId: existing.userId,
      user: view?.user ? { id: view.user.id, name: view.user.name } : null,
      queueId: existing.queueId,
      queue: view?.queue ? { id: view.queue.id, name: view.queue.name } : null,
    }),
  );
}

function isOpenTicketConflict(error: unknown): boolean {
  const text = String((error as { message?: unknown })?.message ?? error);
  return text.includes("UNIQUE constraint failed") && text.includes("tickets.contactId");
}

/** A ticket the viewer may read, or 404 (missing or another company's) / 403 (not their queue). */
export async function readableTicket(
  db: Database,
  viewer: Viewer,
  ref: { id: number } | { uuid: string },
): Promise<Ticket> {
  const ticket = "id" in ref
    ? await findTicket(db, viewer.companyId, ref.id)
    : await findTicketByUuid(db, viewer.companyId, ref.uuid);
  if (!ticket) throw notFound("ERR_NO_TICKET_FOUND", "Ticket not found");
  assertCanRead(viewer, ticket);
  return ticket;
}

async function requireQueue(db: Database, viewer: Viewer, queueId: number) {
  if (!await companyHas(db, "queues", viewer.companyId, queueId)) {
    throw notFound("ERR_NO_QUEUE_FOUND", "Queue not found");
  }
}

async function requireUser(db: Database, viewer: Viewer, userId: number) {
  if (!await companyHas(db, "users", viewer.companyId, userId)) {
    throw notFound("ERR_NO_USER_FOUND", "User not found");
  }
}

export type CreateTicketInput = {
  contactId: number;
  queueId?: number | null;
  whatsappId?: number | null;
  userId?: number | null;
  status?: "open" | "pending";
};

/**
 * POST /api/tickets (seeds/000 sections 4, 5, 8): queue required for users ('Selecione uma fila');
 * the user's or the company's default connection when none is given; an existing pending/open
 * ticket of the contact on that connection is a 409 ERR_OTHER_OPEN_TICKET.
 */
export async function createTicket(
  deps: AppDeps,
  viewer: Viewer,
  userWhatsappId: number | null,
  input: CreateTicketInput,
): Promise<TicketView> {
  const queueId = input.queueId ?? null;
  if (queueId === null && !isAllowed(viewer, "ticket:skip-queue")) {
    throw badRequest("ERR_VALIDATION", "Selecione uma fila", { queueId: ["Selecione uma fila"] });
  }
  const status = input.status ?? "open";
  const now = deps.clock.now().toISOString();
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const contact = await trx.selectFrom("contacts").select(["id", "isGroup"])
        .where("id", "=", input.contactId).where("companyId", "=", viewer.companyId)
        .executeTakeFirst();
      if (!contact) throw notFound("ERR_NO_CONTACT_FOUND", "Contact not found");
      if (queueId !== null) {
        await requireQueue(trx, viewer, queueId);
        if (!viewer.isAdmin && !viewer.queueIds.includes(queueId)) throw forbidden();
      }
      let whatsappId: number | undefined;
      if (input.whatsappId != null) {
        if (!await companyHas(trx, "whatsapps", viewer.companyId, input.whatsappId)) {
          throw notFound("ERR_NO_WAPP_FOUND", "Connection not found");
        }
        whatsappId = input.whatsappId;
      } else {
        whatsappId = await defaultWhatsappId(trx, viewer.companyId, userWhatsappId);
        if (whatsappId === undefined) {
          throw badRequest("ERR_NO_DEF_WAPP_FOUND", "No default connection found");
        }
      }
      let userId: number | null = input.userId ?? (status === "open" ? viewer.userId : null);
      if (userId !== null && userId !== viewer.userId) {
        assertAllowed(viewer, "ticket:assign-any");
        await requireUser(trx, viewer, userId);
      }
      if (status === "pending" && input.userId == null) userId = null;
      const existing = await findActiveTicket(trx, viewer.companyId, contact.id, whatsappId);
      if (existing) throw await otherOpenTicket(trx, viewer.companyId, existing);
      const id = await insertTicket(trx, {
        uuid: crypto.randomUUID(),
        companyId: viewer.companyId,
        contactId: contact.id,
        whatsappId,
        userId,
        queueId,
        queueOptionId: null,
        status,
        isGroup: contact.isGroup,
        integrationId: null,
        promptId: null,
        acceptedAt: status === "open" ? now : null,
        closedAt: null,
        createdAt: now,
        updatedAt: now,
      });
      return (await loadTicketView(trx, viewer.companyId, id))!;
    });
  } catch (error) {
    if (!isOpenTicketConflict(error)) throw error;
    // Another writer won the race for the contact's one open ticket (tickets_one_open).
    const existing = await deps.db.selectFrom("tickets").selectAll()
      .where("companyId", "=", viewer.companyId).where("contactId", "=", input.contactId)
      .where("status", "<>", "closed").executeTakeFirst();
    if (!existing) throw error;
    throw await otherOpenTicket(deps.db, viewer.companyId, existing);
  }
}

export type TicketAction = "accept" | "return" | "resolve" | "reopen" | "transfer";

export type UpdateTicketInput = {
  /** Names the transition explicitly; without it the body's shape decides (Whaticket's client). */
  action?: TicketAction;
  status?: TicketStatus;
  userId?: number | null;
  queueId?: number | null;
  whatsappId?: number | null;
};

type Plan =
  | { kind: "accept" }
  | { kind: "return" }
  | { kind: "resolve" }
  | { kind: "reopen" }
  | { kind: "transfer"; queueId: number | null; userId: number | null; whatsappId: number | null }
  | { kind: "none" };

function invalid(message: string): AppError {
  return badRequest("ERR_INVALID_TRANSITION", message);
}

/**
 * Reads PUT /api/tickets/:id as one of the transitions of seeds/000 section 4, from the current
 * status and the body Whaticket's client sends for each action:
 * - {status: "open"} on a pending ticket: accept (the caller becomes the user);
 * - {status: "open"} on a closed ticket: reopen for the caller;
 * - {status: "pending"} on an open ticket, no queue change: return (no user);
 * - {status: "closed"}: resolve (open or pending);
 * - {queueId, userId?} (optionally with status "pending"/"open", whatsappId): transfer; without a
 *   user the ticket becomes pending with no user.
 */
/** Which statuses each explicit action starts from (seeds/000 section 4). */
const ACTION_FROM: Record<TicketAction, readonly TicketStatus[]> = {
  accept: ["pending"],
  return: ["open"],
  resolve: ["open", "pending"],
  reopen: ["closed"],
  transfer: ["open", "pending"],
};

const ACTION_STATUS: Record<Exclude<TicketAction, "transfer">, TicketStatus> = {
  accept: "open",
  return: "pending",
  resolve: "closed",
  reopen: "open",
};

function planOf(ticket: Ticket, input: UpdateTicketInput, viewer: Viewer): Plan {
  if (input.action) {
    if (!ACTION_FROM[input.action].includes(ticket.status)) {
      throw invalid(`Não é possível ${ACTION_VERB[input.action]} um ticket ${ticket.status}`);
    }
    if (input.action !== "transfer") {
      const plan = planByShape(ticket, { ...input, status: ACTION_STATUS[input.action] }, viewer);
      if (plan.kind !== input.action) {
        throw invalid(`Não é possível ${ACTION_VERB[input.action]} este ticket`);
      }
      return plan;
    }
    if (input.queueId === undefined && input.userId === undefined && input.whatsappId == null) {
      throw badRequest("ERR_VALIDATION", "queueId: Selecione uma fila", {
        queueId: ["Selecione uma fila"],
      });
    }
    return {
      kind: "transfer",
      queueId: input.queueId !== undefined ? input.queueId : ticket.queueId,
      userId: input.userId ?? null,
      whatsappId: input.whatsappId ?? ticket.whatsappId,
    };
  }
  return planByShape(ticket, input, viewer);
}

const ACTION_VERB: Record<TicketAction, string> = {
  accept: "aceitar",
  return: "devolver",
  resolve: "finalizar",
  reopen: "reabrir",
  transfer: "transferir",
};

function planByShape(ticket: Ticket, input: UpdateTicketInput, viewer: Viewer): Plan {
  const queueChange = input.queueId !== undefined && input.queueId !== ticket.queueId;
  const userGiven = input.userId !== undefined && input.userId !== null;
  const userChange = userGiven && input.userId !== ticket.userId;
  const whatsappChange = input.whatsappId != null && input.whatsappId !== ticket.whatsappId;
  const transfer = (userId: number | null): Plan => ({
    kind: "transfer",
    queueId: input.queueId !== undefined ? input.queueId : ticket.queueId,
    userId,
    whatsappId: input.whatsappId ?? ticket.whatsappId,
  });
  switch (input.status) {
    case "closed":
      if (ticket.status === "closed") throw invalid("Ticket já está finalizado");
      return { kind: "resolve" };
    case "open":
      if (ticket.status === "closed") return { kind: "reopen" };
      if (userChange && input.userId !== viewer.userId) return transfer(input.userId!);
      if (ticket.status === "pending") return { kind: "accept" };
      if (ticket.userId !== null && ticket.userId !== viewer.userId) {
        throw invalid("Ticket já está em atendimento");
      }
      if (queueChange || whatsappChange) return transfer(ticket.userId);
      return { kind: "none" };
    case "pending":
      if (ticket.status === "closed") throw invalid("Um ticket finalizado só pode ser reaberto");
      if (queueChange || whatsappChange || userGiven) return transfer(null);
      if (ticket.status === "open") return { kind: "return" };
      return { kind: "none" };
    default:
      if (
        !queueChange && !userChange && !whatsappChange &&
        !(input.userId === null && ticket.userId !== null)
      ) {
        return { kind: "none" };
      }
      if (ticket.status === "closed") throw invalid("Um ticket finalizado só pode ser reaberto");
      // Transfer dialog: no user chosen means back to pending with no user (seeds/000 s. 4).
      return transfer(userGiven ? input.userId! : null);
  }
}

/** PUT /api/tickets/:id: applies one transition in one transaction. */
export async function updateTicket(
  deps: AppDeps,
  viewer: Viewer,
  ticketId: number,
  input: UpdateTicketInput,
): Promise<TicketChange> {
  const now = deps.clock.now();
  const stamp = now.toISOString();
  return await deps.db.transaction().execute(async (trx) => {
    const ticket = await findTicket(trx, viewer.companyId, ticketId);
    if (!ticket) throw notFound("ERR_NO_TICKET_FOUND", "Ticket not found");
    assertCanAct(viewer, ticket);
    const before = placementOf(ticket);
    const plan = planOf(ticket, input, viewer);
    const settings = await settingValues(trx, viewer.companyId, [
      "sendGreetingAccepted",
      "userRating",
      "sendMsgTransfTicket",
    ]);
    const contact = await trx.selectFrom("contacts").select(["name"])
      .where("id", "=", ticket.contactId).executeTakeFirst();
    const render = (text: string) => renderVariables(text, { contact, ticketId: ticket.id, now });
    const userName = async (userId: number) =>
      (await trx.selectFrom("users").select("name").where("id", "=", userId)
        .where("companyId", "=", viewer.companyId).executeTakeFirst())?.name ?? "";
    const automatic: AutomaticText[] = [];
    const group = ticket.isGroup === 1;
    let patch: TicketUpdate = {};

    switch (plan.kind) {
      case "none":
        break;
      case "accept": {
        // The attendant takes the ticket from any bot (issue 15): it does not come back to it.
        patch = { status: "open", userId: viewer.userId, acceptedAt: stamp, ...HAND_OVER };
        if (isEnabled(settings.sendGreetingAccepted) && !group) {
          const name = await userName(viewer.userId);
          automatic.push({
            kind: "greeting",
            body: render(GREETING_ACCEPTED).replace("{user}", name),
          });
        }
        break;
      }
      case "return":
        patch = { status: "pending", userId: null };
        break;
      case "resolve": {
        patch = {
          status: "closed",
          userId: viewer.userId,
          closedAt: stamp,
          ...HAND_OVER,
        };
        if (input.queueId !== undefined && input.queueId !== ticket.queueId) {
          if (input.queueId !== null) await requireQueue(trx, viewer, input.queueId);
          patch.queueId = input.queueId;
        }
        const whatsapp = ticket.whatsappId === null ? undefined : await trx.selectFrom("whatsapps")
          .select(["complationMessage", "ratingMessage"]).where("id", "=", ticket.whatsappId)
          .executeTakeFirst();
        if (!group) {
          if (whatsapp?.complationMessage.trim()) {
            automatic.push({ kind: "completion", body: render(whatsapp.complationMessage) });
          }
          if (isEnabled(settings.userRating)) {
            const intro = whatsapp?.ratingMessage.trim()
              ? `${render(whatsapp.ratingMessage)}\n\n`
              : "";
            automatic.push({ kind: "rating", body: `${intro}${RATING_OPTIONS}` });
            patch.awaitingRating = 1;
          }
        }
        break;
      }
      case "reopen": {
        const other = await findActiveTicket(
          trx,
          viewer.companyId,
          ticket.contactId,
          ticket.whatsappId,
          ticket.id,
        );
        if (other) throw await otherOpenTicket(trx, viewer.companyId, other);
        patch = {
          status: "open",
          userId: viewer.userId,
          acceptedAt: stamp,
          closedAt: null,
          awaitingRating: 0,
        };
        break;
      }
      case "transfer": {
        if (plan.queueId !== null && plan.queueId !== ticket.queueId) {
          await requireQueue(trx, viewer, plan.queueId);
        }
        if (plan.userId !== null) await requireUser(trx, viewer, plan.userId);
        if (plan.whatsappId !== ticket.whatsappId && plan.whatsappId !== null) {
          if (!await companyHas(trx, "whatsapps", viewer.companyId, plan.whatsappId)) {
            throw notFound("ERR_NO_WAPP_FOUND", "Connection not found");
          }
          const other = await findActiveTicket(
            trx,
            viewer.companyId,
            ticket.contactId,
            plan.whatsappId,
            ticket.id,
          );
          if (other) throw await otherOpenTicket(trx, viewer.companyId, other);
        }
        patch = {
          queueId: plan.queueId,
          userId: plan.userId,
          whatsappId: plan.whatsappId,
          // With no user the ticket waits in the queue again (seeds/000 section 4).
          status: plan.userId === null ? "pending" : ticket.status,
        };
        if (isEnabled(settings.sendMsgTransfTicket) && !group) {
          const queueName = plan.queueId === null ? "" : (await trx.selectFrom("queues")
            .select("name").where("id", "=", plan.queueId).executeTakeFirst())?.name ?? "";
          const body = plan.userId === null
            ? TRANSFER_TO_QUEUE.replace("{queue}", queueName)
            : TRANSFER_TO_USER.replace("{user}", await userName(plan.userId))
              .replace("{inQueue}", queueName ? ` no departamento *${queueName}*` : "");
          automatic.push({ kind: "transfer", body });
        }
        break;
      }
    }

    if (Object.keys(patch).length > 0) {
      patch.updatedAt = stamp;
      const done = await updateTicketRow(trx, viewer.companyId, ticket.id, patch, ticket.status);
      if (!done) throw invalid("O ticket mudou enquanto a ação era feita; tente de novo");
    }
    const view = (await loadTicketView(trx, viewer.companyId, ticket.id))!;
    return { ticket: view, before, automatic };
  });
}

/** DELETE /api/tickets/:id (admins: ticket-options:deleteTicket). Messages and notes go with it. */
export async function deleteTicket(
  deps: AppDeps,
  viewer: Viewer,
  ticketId: number,
): Promise<TicketPlacement> {
  return await deps.db.transaction().execute(async (trx) => {
    const ticket = await findTicket(trx, viewer.companyId, ticketId);
    if (!ticket) throw notFound("ERR_NO_TICKET_FOUND", "Ticket not found");
    assertAllowed(viewer, "ticket:delete");
    await deleteTicketRow(trx, viewer.companyId, ticket.id);
    return placementOf(ticket);
  });
}
