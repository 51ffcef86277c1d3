import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import type { ContactList, ContactListItem } from "../../db/schema.ts";
import type { ContactListItemView, ContactListView } from "../../contract/campaign_types.ts";
import { likePattern, pageAnswer, pageWindow } from "../paging.ts";
import { pageByName } from "../paging_repository.ts";

/** SQL of contact lists and their items (seeds/002 section 3). Every function is company-scoped. */

export function itemView(item: ContactListItem): ContactListItemView {
  return {
    id: item.id,
    name: item.name,
    number: item.number,
    email: item.email,
    isWhatsappValid: item.isWhatsappValid === null ? null : item.isWhatsappValid === 1,
    companyId: item.companyId,
    contactListId: item.contactListId,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

function listQuery(db: Database, companyId: number) {
  return db.selectFrom("contact_lists").where("contact_lists.companyId", "=", companyId)
    .selectAll("contact_lists")
    .select((eb) => [
      eb.selectFrom("contact_list_items").select((e) => e.fn.countAll<number>().as("n"))
        .whereRef("contact_list_items.contactListId", "=", "contact_lists.id")
        .as("contactsCount"),
      eb.selectFrom("contact_list_items").select((e) => e.fn.countAll<number>().as("n"))
        .whereRef("contact_list_items.contactListId", "=", "contact_lists.id")
        .where("contact_list_items.isWhatsappValid", "is", null).as("uncheckedCount"),
    ]);
}

type ListRow = ContactList & { contactsCount: number | null; uncheckedCount: number | null };

function listView(row: ListRow): ContactListView {
  return {
    id: row.id,
    name: row.name,
    companyId: row.companyId,
    contactsCount: Number(row.contactsCount ?? 0),
    uncheckedCount: Number(row.uncheckedCount ?? 0),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function pageContactLists(
  db: Database,
  companyId: number,
  searchParam: string | undefined,
  pageNumber: number,
) {
  const text = searchParam?.trim();
  const window = pageWindow(pageNumber);
  let q = listQuery(db, companyId);
  let total = db.selectFrom("contact_lists").where("companyId", "=", companyId);
  if (text) {
    q = q.where(sql<boolean>`contact_lists.name LIKE ${likePattern(text)} ESCAPE '\\'`);
    total = total.where(sql<boolean>`name LIKE ${likePattern(text)} ESCAPE '\\'`);
  }
  const rows = await q.orderBy("contact_lists.name").orderBy("contact_lists.id")
    .limit(window.limit).offset(window.offset).execute();
  const count = await total.select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return pageAnswer("records", rows.map(listView), Number(count.n), window);
}

export async function allContactLists(db: Database, companyId: number) {
  const rows = await listQuery(db, companyId).orderBy("contact_lists.name").execute();
  return rows.map(listView);
}

export async function findContactList(db: Database, companyId: number, id: number) {
  const row = await listQuery(db, companyId).where("contact_lists.id", "=", id).executeTakeFirst();
  return row ? listView(row) : undefined;
}

export async function insertContactList(
  db: Database,
  companyId: number,
  name: string,
  now: string,
) {
  return await db.insertInto("contact_lists").values({
    companyId,
    name,
    createdAt: now,
    updatedAt: now,
  }).returning("id").executeTakeFirstOrThrow();
}

export async function renameContactList(
  db: Database,
  companyId: number,
  id: number,
  name: string,
  now: string,
) {
  const result = await db.updateTable("contact_lists").set({ name, updatedAt: now })
    .where("companyId", "=", companyId).where("id", "=", id).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteContactList(db: Database, companyId: number, id: number) {
  const result = await db.deleteFrom("contact_lists").where("companyId", "=", companyId)
    .where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export const ITEMS_PAGE_SIZE = 20;

export async function pageItems(
  db: Database,
  companyId: number,
  contactListId: number,
  searchParam: string | undefined,
  pageNumber: number,
) {
  let q = db.selectFrom("contact_list_items").where("companyId", "=", companyId)
    .where("contactListId", "=", contactListId);
  const text = searchParam?.trim();
  if (text) {
    const pattern = likePattern(text);
    q = q.where(sql<boolean>`(name LIKE ${pattern} ESCAPE '\\' OR number LIKE ${pattern} ESCAPE '\\'
      OR email LIKE ${pattern} ESCAPE '\\')`);
  }
  const window = pageWindow(pageNumber, ITEMS_PAGE_SIZE);
  const { rows, count } = await pageByName(q, window);
  return pageAnswer("contacts", rows.map(itemView), count, window);
}

/**
 * GET /api/contact-list-items/list (the specification's client reads a plain array of a list's
 * items): by name, at most ITEMS_LIST_MAX, so a 20,000-row list does not become one 2 MB answer;
 * the paged GET /api/contact-list-items reaches every item.
 */
export const ITEMS_LIST_MAX = 1000;

export async function listItemsCapped(db: Database, companyId: number, contactListId: number) {
  const rows = await db.selectFrom("contact_list_items").selectAll().where(
    "companyId",
    "=",
    companyId,
  )
    .where("contactListId", "=", contactListId).orderBy("name").orderBy("id")
    .limit(ITEMS_LIST_MAX).execute();
  return rows.map(itemView);
}

export async function findItem(db: Database, companyId: number, id: number) {
  return await db.selectFrom("contact_list_items").selectAll().where("companyId", "=", companyId)
    .where("id", "=", id).executeTakeFirst();
}

export async function findItemByNumber(
  db: Database,
  companyId: number,
  contactListId: number,
  number: string,
) {
  return await db.selectFrom("contact_list_items").select(["id"]).where("companyId", "=", companyId)
    .where("contactListId", "=", contactListId).where("number", "=", number).executeTakeFirst();
}

const ITEM_CHUNK = 200;

export type NewItem = { name: string; number: string; email: string };

/**
 * Inserts items; a number already in the list is left as it is (the (contactListId, number)
 * key). Returns how many rows were new.
 */
export async function insertItems(
  db: Database,
  companyId: number,
  contactListId: number,
  items: NewItem[],
  now: string,
): Promise<number> {
  let created = 0;
  // Small statements, one after another: the database thread serves other requests between two
  // of them, so a 50,000-row import never holds it for long (tests/bench/campaigns_bench.ts).
  for (let i = 0; i < items.length; i += ITEM_CHUNK) {
    const chunk = items.slice(i, i + ITEM_CHUNK);
    const result = await db.insertInto("contact_list_items").values(chunk.map((item) => ({
      companyId,
      contactListId,
      name: item.name,
      number: item.number,
      email: item.email,
      isWhatsappValid: null,
      checkedAt: null,
      createdAt: now,
      updatedAt: now,
    }))).onConflict((oc) => oc.columns(["contactListId", "number"]).doNothing())
      .executeTakeFirst();
    created += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return created;
}

export async function updateItem(
  db: Database,
  companyId: number,
  id: number,
  fields: Partial<NewItem>,
  now: string,
) {
  // A new number must be checked again.
  const recheck = fields.number === undefined ? {} : { isWhatsappValid: null, checkedAt: null };
  return await db.updateTable("contact_list_items").set({ ...fields, ...recheck, updatedAt: now })
    .where("companyId", "=", companyId).where("id", "=", id).returningAll().executeTakeFirst();
}

export async function deleteItem(db: Database, companyId: number, id: number) {
  const result = await db.deleteFrom("contact_list_items").where("companyId", "=", companyId)
    .where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
