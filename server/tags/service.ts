import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import { assertAllowed } from "../auth/policy.ts";
import { ticketChange } from "../events/domain.ts";
import { noteOutgoing } from "../events/outgoing_repository.ts";
import { type Viewer, viewerOf } from "../tickets/access.ts";
import { placementOf, readableTicket } from "../tickets/service.ts";
import type { TicketView } from "../tickets/view.ts";
import { loadTicketView } from "../tickets/view_repository.ts";
import {
  countCompanyTags,
  countTicketsOfTags,
  deleteTag,
  findTag,
  findTagByName,
  insertTag,
  listTags,
  pageTags,
  replaceTicketTags,
  type TagView,
  tagView,
  ticketTagIds,
  updateTag,
} from "./repository.ts";

export type TagInput = { name?: string; color?: string; kanban?: boolean };

function tagNotFound(): AppError {
  return notFound("ERR_NO_TAG_FOUND", "Tag not found");
}

/** GET /api/tags: a page by name, `searchParam` on the name, each with its ticket count. */
export async function listTagPage(
  deps: AppDeps,
  companyId: number,
  searchParam: string | undefined,
  pageNumber: number,
) {
  return await pageTags(deps.db, companyId, searchParam, pageNumber);
}

/** GET /api/tags/list (every tag) and /api/tags/kanban (the board's lanes). */
export async function tagChoices(
  deps: AppDeps,
  companyId: number,
  options?: { kanbanOnly: boolean },
) {
  return await listTags(deps.db, companyId, options);
}

/** GET /api/tags/:id. */
export async function showTag(deps: AppDeps, companyId: number, id: number): Promise<TagView> {
  const tag = await findTag(deps.db, companyId, id);
  if (!tag) throw tagNotFound();
  return tagView(tag);
}

/** The kanban switch belongs to admins (seeds/001 section 2 'Tags list'). */
function assertKanbanAllowed(viewer: Viewer, wanted: boolean | undefined, current = false) {
  if (wanted !== undefined && wanted !== current) assertAllowed(viewer, "tag:kanban");
}

function duplicated(): AppError {
  return new AppError(409, "ERR_DUPLICATED_NAME", "Já existe uma tag com este nome");
}

/**
 * The tags page's live list (company-<id>-tag): the record carries its ticket count, so a chip
 * keeps its number after a rename; `tag` / `tagId` repeat it for the seeds' client.
 */
export async function publishTags(deps: AppDeps, companyId: number, ids: readonly number[]) {
  if (ids.length === 0) return;
  const counts = await countTicketsOfTags(deps.db, companyId, ids);
  for (const id of ids) {
    const tag = await findTag(deps.db, companyId, id);
    if (!tag) continue;
    const record = tagView(tag, counts.get(id) ?? 0);
    deps.events.emit("list.changed", {
      companyId,
      resource: "tag",
      change: { action: "update", record },
    });
  }
}

export async function createTag(
  deps: AppDeps,
  auth: AuthInfo,
  input: Required<Pick<TagInput, "name">> & TagInput,
): Promise<TagView> {
  const viewer = await viewerOf(deps.db, auth);
  assertKanbanAllowed(viewer, input.kanban);
  const now = deps.clock.now().toISOString();
  const tag = await deps.db.transaction().execute(async (trx) => {
    if (await findTagByName(trx, viewer.companyId, input.name)) throw duplicated();
    return await insertTag(trx, {
      companyId: viewer.companyId,
      name: input.name,
      color: input.color ?? "#A4CCCC",
      kanban: input.kanban ? 1 : 0,
      createdAt: now,
      updatedAt: now,
    });
  });
  const view = tagView(tag, 0);
  deps.events.emit("list.changed", {
    companyId: viewer.companyId,
    resource: "tag",
    change: { action: "create", record: view },
  });
  return view;
}

export async function changeTag(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
  input: TagInput,
): Promise<TagView> {
  const viewer = await viewerOf(deps.db, auth);
  const now = deps.clock.now().toISOString();
  const tag = await deps.db.transaction().execute(async (trx) => {
    const current = await findTag(trx, viewer.companyId, id);
    if (!current) throw notFound("ERR_NO_TAG_FOUND", "Tag not found");
    assertKanbanAllowed(viewer, input.kanban, current.kanban === 1);
    if (input.name !== undefined && await findTagByName(trx, viewer.companyId, input.name, id)) {
      throw duplicated();
    }
    return (await updateTag(trx, viewer.companyId, id, {
      name: input.name,
      color: input.color,
      kanban: input.kanban === undefined ? undefined : input.kanban ? 1 : 0,
      updatedAt: now,
    }))!;
  });
  const counts = await countTicketsOfTags(deps.db, viewer.companyId, [tag.id]);
  const view = tagView(tag, counts.get(tag.id) ?? 0);
  deps.events.emit("list.changed", {
    companyId: viewer.companyId,
    resource: "tag",
    change: { action: "update", record: view },
  });
  return view;
}

export async function removeTag(deps: AppDeps, auth: AuthInfo, id: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    if (!await findTag(trx, auth.companyId, id)) {
      throw tagNotFound();
    }
    await deleteTag(trx, auth.companyId, id);
  });
  deps.events.emit("list.changed", {
    companyId: auth.companyId,
    resource: "tag",
    change: { action: "delete", id },
  });
}

/** POST /api/tags/sync: the ticket's tags become exactly `tagIds`; the ticket update is published. */
export async function syncTicketTags(
  deps: AppDeps,
  auth: AuthInfo,
  ticketId: number,
  tagIds: number[],
): Promise<TicketView> {
  const viewer = await viewerOf(deps.db, auth);
  const ids = [...new Set(tagIds)];
  const view = await deps.db.transaction().execute(async (trx) => {
    const ticket = await readableTicket(trx, viewer, { id: ticketId });
    if (await countCompanyTags(trx, viewer.companyId, ids) !== ids.length) {
      throw tagNotFound();
    }
    const before = await ticketTagIds(trx, viewer.companyId, ticket.id);
    await replaceTicketTags(trx, viewer.companyId, ticket.id, ids);
    const view = (await loadTicketView(trx, viewer.companyId, ticket.id))!;
    const placement = placementOf(ticket);
    // Noted with the change (server/events/outgoing.ts): its webhooks survive a crash.
    const outgoing = await noteOutgoing(trx, viewer.companyId, ticketChange(view, placement), {
      ticketId: ticket.id,
      before: placement,
    }, deps.clock.now().toISOString());
    return { placement, view, touched: [...new Set([...before, ...ids])], outgoing };
  });
  const before = view.placement;
  deps.events.emit(ticketChange(view.view, before), {
    ticket: view.view,
    before,
    outgoing: view.outgoing,
  });
  await publishTags(deps, viewer.companyId, view.touched);
  return view.view;
}
