import type { Database } from "../db/client.ts";

/**
 * Whether ids sent in a body are the caller's company's (DESIGN 'Tenancy and access': an id of
 * another company answers like a missing one). One query per check, by primary key and company.
 */
export type OwnedTable =
  | "contact_lists"
  | "file_lists"
  | "prompts"
  | "queues"
  | "tags"
  | "whatsapps";

export async function owns(
  db: Database,
  companyId: number,
  table: OwnedTable,
  id: number,
): Promise<boolean> {
  return !!await db.selectFrom(table).select("id").where("companyId", "=", companyId)
    .where("id", "=", id).executeTakeFirst();
}

/** How many of these (distinct) ids the company owns. */
export async function ownedCount(
  db: Database,
  companyId: number,
  table: OwnedTable,
  ids: readonly number[],
): Promise<number> {
  const found = await db.selectFrom(table).select("id").where("companyId", "=", companyId)
    .where("id", "in", ids).execute();
  return found.length;
}
