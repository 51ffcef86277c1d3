import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import type { Tag } from "../../db/schema.ts";
import type { TagView } from "../../contract/tag_types.ts";
import { likePattern, pageAnswer, pageWindow } from "../paging.ts";

export type { TagView };

export function tagView(tag: Tag, ticketsCount?: number): TagView {
  const view: TagView = {
    id: tag.id,
    name: tag.name,
    color: tag.color,
    kanban: tag.kanban === 1,
    companyId: tag.companyId,
    createdAt: tag.createdAt,
    updatedAt: tag.updatedAt,
  };
  if (ticketsCount !== undefined) view.ticketsCount = ticketsCount;
  return view;
}

export const TAGS_PAGE_SIZE = 20;

/** GET /api/tags: a page by name, with how many tickets carry each tag. */
export async function pageTags(
  db: Database,
  companyId: number,
  searchParam: string | undefined,
  pageNumber: number,
): Promise<{ tags: TagView[]; count: number; hasMore: boolean }> {
  let q = db.selectFrom("tags").where("companyId", "=", companyId);
  const text = searchParam?.trim();
  if (text) q = q.where(sql<boolean>`name LIKE ${likePattern(text)} ESCAPE '\\'`);
  const window = pageWindow(pageNumber, TAGS_PAGE_SIZE);
  const rows = await q.selectAll("tags")
    .select((eb) =>
      eb.selectFrom("ticket_tags").select((e) => e.fn.countAll<number>().as("n"))
        .whereRef("ticket_tags.tagId", "=", "tags.id").as("ticketsCount")
    )
    .orderBy("name").orderBy("id").limit(window.limit).offset(window.offset).execute();
  const total = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const count = Number(total.n);
  const tags = rows.map(({ ticketsCount, ...tag }) => tagView(tag, Number(ticketsCount ?? 0)));
  return pageAnswer("tags", tags, count, window);
}

export async function listTags(
  db: Database,
  companyId: number,
  options: { kanbanOnly?: boolean } = {},
): Promise<TagView[]> {
  let q = db.selectFrom("tags").selectAll().where("companyId", "=", companyId);
  if (options.kanbanOnly) q = q.where("kanban", "=", 1);
  return (await q.orderBy("name").orderBy("id").execute()).map((t) => tagView(t));
}

export async function findTag(
  db: Database,
  companyId: number,
  id: number,
): Promise<Tag | undefined> {
  return await db.selectFrom("tags").selectAll().where("id", "=", id)
    .where("companyId", "=", companyId).executeTakeFirst();
}

export async function findTagByName(
  db: Database,
  companyId: number,
  name: string,
  exceptId?: number,
): Promise<Tag | undefined> {
  let q = db.selectFrom("tags").selectAll().where("companyId", "=", companyId)
    .where(sql<boolean>`name = ${name} COLLATE NOCASE`);
  if (exceptId !== undefined) q = q.where("id", "<>", exceptId);
  return await q.executeTakeFirst();
}

export async function insertTag(
  db: Database,
  row: Omit<Tag, "id">,
): Promise<Tag> {
  return await db.insertInto("tags").values(row).returningAll().executeTakeFirstOrThrow();
}

export async function updateTag(
  db: Database,
  companyId: number,
  id: number,
  patch: Partial<Pick<Tag, "name" | "color" | "kanban" | "updatedAt">>,
): Promise<Tag | undefined> {
  return await db.updateTable("tags").set(patch).where("id", "=", id)
    .where("companyId", "=", companyId).returningAll().executeTakeFirst();
}

export async function deleteTag(db: Database, companyId: number, id: number) {
  await db.deleteFrom("tags").where("id", "=", id).where("companyId", "=", companyId).execute();
}

/** How many of `ids` are tags of the company. */
export async function countCompanyTags(
  db: Database,
  companyId: number,
  ids: readonly number[],
): Promise<number> {
  if (ids.length === 0) return 0;
  const row = await db.selectFrom("tags").select((eb) => eb.fn.countAll<number>().as("n"))
    .where("companyId", "=", companyId).where("id", "in", ids).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Replaces a ticket's tags. */
export async function replaceTicketTags(
  db: Database,
  companyId: number,
  ticketId: number,
  tagIds: readonly number[],
) {
  await db.deleteFrom("ticket_tags").where("ticketId", "=", ticketId)
    .where("companyId", "=", companyId).execute();
  if (tagIds.length === 0) return;
  await db.insertInto("ticket_tags")
    .values(tagIds.map((tagId) => ({ companyId, ticketId, tagId }))).execute();
}

/** Ticket count per tag (the tags page's chips), for the given tags of the company. */
export async function countTicketsOfTags(
  db: Database,
  companyId: number,
  tagIds: readonly number[],
): Promise<Map<number, number>> {
  if (tagIds.length === 0) return new Map();
  const rows = await db.selectFrom("ticket_tags").select(["tagId"])
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("companyId", "=", companyId).where("tagId", "in", tagIds).groupBy("tagId").execute();
  return new Map(rows.map((r) => [r.tagId, Number(r.n)]));
}

/** The ids of the tags a ticket carries. */
export async function ticketTagIds(
  db: Database,
  companyId: number,
  ticketId: number,
): Promise<number[]> {
  const rows = await db.selectFrom("ticket_tags").select("tagId")
    .where("companyId", "=", companyId).where("ticketId", "=", ticketId).execute();
  return rows.map((r) => r.tagId);
}
