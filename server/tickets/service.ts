import { noteOutgoing } from "../events/outgoing_repository.ts";
import { ticketChange } from "../events/domain.ts";
import { isUniqueViolation } from "../../db/constraints.ts";
import { HAND_OVER } from "../bots/registry.ts";
import type { Database } from "../../db/client.ts";
import type { Ticket, TicketUpdate } from "../../db/schema.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError, badRequest, notFound } from "../errors.ts";
import { assertAllowed, assertRecord, isAllowed } from "../auth/policy.ts";
import { ticketAssignNeeds, ticketQueueNeeds } from "../../contract/record_policy.ts";
import { renderVariables } from "../messages/variables.ts";
import type { TicketPlacement } from "../events/domain.ts";
import { companyTimeZone, isEnabled, settingValues } from "../settings/values.ts";
import { dayRange } from "../../contract/time_zone.ts";
import { assertCanAct, assertCanRead, type Viewer, viewerOf } from "./access.ts";
import { acceptGreeting } from "./greeting.ts";
import { applyTicketChange, type AutomaticText, type TicketChange } from "./effects.ts";
import { listTicketIds, type TicketListFilters } from "./list_repository.ts";
import { withPins } from "./pins.ts";
import {
  anyActiveTicket,
  closingTexts,
  companyHas,
  contactName,
  contactToOpen,
  defaultWhatsappId,
  deleteTicketRow,
  findActiveTicket,
  findTicket,
  findTicketByUuid,
  insertTicket,
  queueName,
  updateTicketRow,
  userName,
} from "./repository.ts";
import { listItemOf, type TicketView } from "./view.ts";
import { loadTicketView, loadTicketViews } from "./view_repository.ts";
import { invalid, planOf, type UpdateTicketInput } from "./transitions.ts";

export type { TicketAction, UpdateTicketInput } from "./transitions.ts";

/**
 * Ticket rules (seeds/000 section 4), one call per /api/tickets route. Every change runs in one
 * transaction; after it commits the automatic messages are queued and the change published
 * (effects.ts).
 */

/** Texts chosen here, in Portuguese as the product's other automatic texts; never translated. */
export { GREETING_ACCEPTED } from "./greeting.ts";
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
  return isUniqueViolation(error, "tickets.contactId");
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

/** GET /api/tickets: a page of the caller's list (list_conditions_repository.ts: who sees what). */
export async function listTickets(deps: AppDeps, auth: AuthInfo, filters: TicketListFilters) {
  const viewer = await viewerOf(deps.db, auth);
  // The days of the date filters are the company's (its zone's midnight to midnight).
  const zone = filters.date || filters.updatedAt
    ? await companyTimeZone(deps.db, viewer.companyId)
    : "";
  const page = await listTicketIds(deps.db, viewer, {
    ...filters,
    createdIn: filters.date ? dayRange(filters.date, zone) : undefined,
    updatedIn: filters.updatedAt ? dayRange(filters.updatedAt, zone) : undefined,
  });
  const views = (await loadTicketViews(deps.db, viewer.companyId, page.ids)).map(listItemOf);
  const tickets = page.pinned
    ? views.map((v) => ({ ...v, pinned: page.pinned!.has(v.id) }))
    : await withPins(deps, viewer, views);
  return { tickets, count: page.count, hasMore: page.hasMore };
}

/** GET /api/tickets/:id and /u/:uuid: a ticket the caller may read. */
export async function showTicket(
  deps: AppDeps,
  auth: AuthInfo,
  ref: { id: number } | { uuid: string },
): Promise<TicketView | undefined> {
  const viewer = await viewerOf(deps.db, auth);
  const ticket = await readableTicket(deps.db, viewer, ref);
  const view = await loadTicketView(deps.db, viewer.companyId, ticket.id);
  return view ? (await withPins(deps, viewer, [view]))[0] : undefined;
}

/**
 * POST /api/tickets (seeds/000 sections 4, 5, 8): queue required for users ('Selecione uma fila');
 * the user's or the company's default connection when none is given; an existing pending/open
 * ticket of the contact on that connection is a 409 ERR_OTHER_OPEN_TICKET. Published once made.
 */
export async function createTicket(
  deps: AppDeps,
  auth: AuthInfo,
  input: CreateTicketInput,
): Promise<TicketView> {
  const viewer = await viewerOf(deps.db, auth);
  const { ticket, outgoing } = await openTicket(deps, viewer, auth.user.whatsappId, input);
  deps.events.emit("ticket.created", { ticket, outgoing });
  return ticket;
}

async function openTicket(
  deps: AppDeps,
  viewer: Viewer,
  userWhatsappId: number | null,
  input: CreateTicketInput,
): Promise<{ ticket: TicketView; outgoing: string }> {
  const queueId = input.queueId ?? null;
  if (queueId === null && !isAllowed(viewer, "ticket:skip-queue")) {
    throw badRequest("ERR_VALIDATION", "Selecione uma fila", { queueId: ["Selecione uma fila"] });
  }
  const status = input.status ?? "open";
  const now = deps.clock.now().toISOString();
  try {
    return await deps.db.transaction().execute(async (trx) => {
      const contact = await contactToOpen(trx, viewer.companyId, input.contactId);
      if (!contact) throw notFound("ERR_NO_CONTACT_FOUND", "Contact not found");
      if (queueId !== null) {
        await requireQueue(trx, viewer, queueId);
        assertRecord(viewer, ticketQueueNeeds(viewer, queueId));
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
      const assigning = ticketAssignNeeds(viewer, userId);
      assertRecord(viewer, assigning);
      if (userId !== null && assigning.length > 0) await requireUser(trx, viewer, userId);
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
      const outgoing = await noteOutgoing(trx, viewer.companyId, "ticket.created", {
        ticketId: id,
      }, now);
      return { ticket: (await loadTicketView(trx, viewer.companyId, id))!, outgoing };
    });
  } catch (error) {
    if (!isOpenTicketConflict(error)) throw error;
    // Another writer won the race for the contact's one open ticket (tickets_one_open).
    const existing = await anyActiveTicket(deps.db, viewer.companyId, input.contactId);
    if (!existing) throw error;
    throw await otherOpenTicket(deps.db, viewer.companyId, existing);
  }
}

/**
 * PUT /api/tickets/:id: applies one transition in one transaction; then its automatic texts are
 * queued and the ticket published as it is after them.
 */
export async function updateTicket(
  deps: AppDeps,
  auth: AuthInfo,
  ticketId: number,
  input: UpdateTicketInput,
): Promise<TicketView> {
  const viewer = await viewerOf(deps.db, auth);
  const change = await transition(deps, viewer, ticketId, input);
  return await applyTicketChange(deps, change, auth.userId);
}

async function transition(
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
      "userRating",
      "sendMsgTransfTicket",
    ]);
    const contact = await contactName(trx, viewer.companyId, ticket.contactId);
    const nameOf = async (userId: number) => await userName(trx, viewer.companyId, userId) ?? "";
    // {{user}}: the attendant who acts (accepts, resolves) on the ticket.
    const user = { name: await nameOf(viewer.userId) };
    const timeZone = await companyTimeZone(trx, viewer.companyId);
    const render = (text: string) =>
      renderVariables(text, { contact, user, ticketId: ticket.id, now, timeZone });
    const automatic: AutomaticText[] = [];
    const group = ticket.isGroup === 1;
    let patch: TicketUpdate = {};

    switch (plan.kind) {
      case "none":
        break;
      case "accept": {
        // The attendant takes the ticket from any bot (issue 15): it does not come back to it.
        patch = { status: "open", userId: viewer.userId, acceptedAt: stamp, ...HAND_OVER };
        const greeting = await acceptGreeting(trx, viewer.companyId, ticket, viewer.userId, now);
        if (greeting) automatic.push({ kind: "greeting", body: greeting });
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
        const whatsapp = ticket.whatsappId === null
          ? undefined
          : await closingTexts(trx, viewer.companyId, ticket.whatsappId);
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
          const queue = plan.queueId === null
            ? ""
            : await queueName(trx, viewer.companyId, plan.queueId) ?? "";
          const body = plan.userId === null
            ? TRANSFER_TO_QUEUE.replace("{queue}", queue)
            : TRANSFER_TO_USER.replace("{user}", await nameOf(plan.userId))
              .replace("{inQueue}", queue ? ` no departamento *${queue}*` : "");
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
    const actor = { id: viewer.userId, name: user.name };
    const outgoing = await noteOutgoing(trx, viewer.companyId, ticketChange(view, before), {
      ticketId: ticket.id,
      before,
      actor,
    }, stamp);
    return { ticket: view, before, automatic, outgoing, actor };
  });
}

/**
 * DELETE /api/tickets/:id (admins: ticket-options:deleteTicket). Messages and notes go with it;
 * whoever saw it is told once it is gone.
 */
export async function deleteTicket(deps: AppDeps, auth: AuthInfo, ticketId: number) {
  const viewer = await viewerOf(deps.db, auth);
  const before = await deps.db.transaction().execute(async (trx) => {
    const ticket = await findTicket(trx, viewer.companyId, ticketId);
    if (!ticket) throw notFound("ERR_NO_TICKET_FOUND", "Ticket not found");
    assertAllowed(viewer, "ticket:delete");
    await deleteTicketRow(trx, viewer.companyId, ticket.id);
    return ticket;
  });
  deps.events.emit("ticket.deleted", {
    companyId: viewer.companyId,
    ticketId,
    before: placementOf(before),
    isGroup: before.isGroup === 1,
  });
}
