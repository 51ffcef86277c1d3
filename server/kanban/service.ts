import type { AppDeps, AuthInfo } from "../context.ts";
import { notFound } from "../errors.ts";
import { ticketChange } from "../events/domain.ts";
import { noteOutgoing } from "../events/outgoing_repository.ts";
import { publishTags } from "../tags/service.ts";
import { findTag } from "../tags/repository.ts";
import { assertCanAct, type Viewer, viewerOf } from "../tickets/access.ts";
import { placementOf, readableTicket } from "../tickets/service.ts";
import type { TicketView } from "../tickets/view.ts";
import { loadTicketView } from "../tickets/view_repository.ts";
import type { Database } from "../../db/client.ts";
import {
  addTicketTag,
  kanbanTagIdsOf,
  type Lane,
  pageLane,
  removeTicketTags,
} from "./repository.ts";

/**
 * GET /api/ticket/kanban: a page of one lane ("open" or a kanban tag's id; none: every lane) of
 * the tickets the caller sees, in these queues.
 */
export async function boardLane(
  deps: AppDeps,
  auth: AuthInfo,
  lane: Lane | undefined,
  queueIds: number[] | undefined,
  pageNumber: number,
) {
  return await pageLane(deps.db, await viewerOf(deps.db, auth), lane, queueIds, pageNumber);
}

/**
 * A change of a ticket's lanes, in ONE transaction (issue 10): the ticket is read and checked
 * (another company's: 404; another attendant's: 403), then `change` runs against the same
 * transaction; the ticket update (which moves the card on every board that shows it) and the
 * touched tags' counts are published after the commit.
 */
async function changeLanes(
  deps: AppDeps,
  viewer: Viewer,
  ticketId: number,
  change: (trx: Database, ticketId: number) => Promise<number[]>,
): Promise<TicketView> {
  const result = await deps.db.transaction().execute(async (trx) => {
    const ticket = await readableTicket(trx, viewer, { id: ticketId });
    assertCanAct(viewer, ticket);
    const touched = await change(trx, ticket.id);
    const view = (await loadTicketView(trx, viewer.companyId, ticket.id))!;
    const before = placementOf(ticket);
    // Noted with the change (server/events/outgoing.ts): its webhooks survive a crash.
    const outgoing = await noteOutgoing(trx, viewer.companyId, ticketChange(view, before), {
      ticketId: ticket.id,
      before,
    }, deps.clock.now().toISOString());
    return { before, view, touched, outgoing };
  });
  const { before, outgoing } = result;
  deps.events.emit(ticketChange(result.view, before), { ticket: result.view, before, outgoing });
  await publishTags(deps, viewer.companyId, result.touched);
  return result.view;
}

async function requireTag(trx: Database, viewer: Viewer, tagId: number) {
  if (!await findTag(trx, viewer.companyId, tagId)) {
    throw notFound("ERR_NO_TAG_FOUND", "Tag not found");
  }
}

/** DELETE /api/ticket-tags/:ticketId: the ticket leaves its kanban lanes ('Em aberto' again). */
export async function removeFromLanes(deps: AppDeps, auth: AuthInfo, ticketId: number) {
  const viewer = await viewerOf(deps.db, auth);
  return await changeLanes(deps, viewer, ticketId, async (trx, id) => {
    const current = await kanbanTagIdsOf(trx, viewer.companyId, id);
    await removeTicketTags(trx, viewer.companyId, id, current);
    return current;
  });
}

/** PUT /api/ticket-tags/:ticketId/:tagId: the ticket gets the tag (its other tags stay). */
export async function addToLane(
  deps: AppDeps,
  auth: AuthInfo,
  ticketId: number,
  tagId: number,
) {
  const viewer = await viewerOf(deps.db, auth);
  return await changeLanes(deps, viewer, ticketId, async (trx, id) => {
    await requireTag(trx, viewer, tagId);
    await addTicketTag(trx, viewer.companyId, id, tagId);
    return [tagId];
  });
}

/**
 * POST /api/ticket-tags/:ticketId/move {tagId}: the board's drag and drop as one change: the
 * kanban tags go and the new lane's tag comes (tagId null: back to 'Em aberto'), or nothing
 * changes at all: never a ticket left without its lane because a second call failed.
 */
export async function moveToLane(
  deps: AppDeps,
  auth: AuthInfo,
  ticketId: number,
  tagId: number | null,
) {
  const viewer = await viewerOf(deps.db, auth);
  return await changeLanes(deps, viewer, ticketId, async (trx, id) => {
    if (tagId !== null) await requireTag(trx, viewer, tagId);
    const current = await kanbanTagIdsOf(trx, viewer.companyId, id);
    await removeTicketTags(trx, viewer.companyId, id, current);
    if (tagId !== null) await addTicketTag(trx, viewer.companyId, id, tagId);
    return tagId === null ? current : [...new Set([...current, tagId])];
  });
}
