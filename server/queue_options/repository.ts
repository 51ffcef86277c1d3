import { type Insertable, sql, type Updateable } from "kysely";
import type { Database } from "../../db/client.ts";
import type { QueueOption, QueueOptionsTable } from "../../db/schema.ts";

/**
 * One level of a queue's option tree (parentId null = the roots), in menu order: numeric
 * options in number order ("2" before "10"), then by id. The inbound pipeline walks the tree
 * with this and findChildByOption.
 */
export async function listOptions(
  db: Database,
  companyId: number,
  queueId: number,
  parentId: number | null,
): Promise<QueueOption[]> {
  return await db.selectFrom("queue_options").selectAll().where("companyId", "=", companyId)
    .where("queueId", "=", queueId).where("parentId", parentId === null ? "is" : "=", parentId)
    .orderBy(sql`length(option)`).orderBy("option").orderBy("id").execute();
}

/** Every option of a queue (for building the whole tree in one query). */
export async function allOptions(
  db: Database,
  companyId: number,
  queueId: number,
): Promise<QueueOption[]> {
  return await db.selectFrom("queue_options").selectAll().where("companyId", "=", companyId)
    .where("queueId", "=", queueId).orderBy(sql`length(option)`).orderBy("option").orderBy("id")
    .execute();
}

/** The option a contact's answer picks at one level of the tree (trimmed, exact). */
export async function findChildByOption(
  db: Database,
  companyId: number,
  queueId: number,
  parentId: number | null,
  option: string,
): Promise<QueueOption | undefined> {
  return await db.selectFrom("queue_options").selectAll().where("companyId", "=", companyId)
    .where("queueId", "=", queueId).where("parentId", parentId === null ? "is" : "=", parentId)
    .where("option", "=", option.trim()).executeTakeFirst();
}

export async function findOption(
  db: Database,
  companyId: number,
  id: number,
): Promise<QueueOption | undefined> {
  return await db.selectFrom("queue_options").selectAll().where("companyId", "=", companyId)
    .where("id", "=", id).executeTakeFirst();
}

/** Number of children of each of the given options. */
export async function childCounts(db: Database, companyId: number, ids: readonly number[]) {
  if (ids.length === 0) return new Map<number, number>();
  const rows = await db.selectFrom("queue_options").select((eb) => [
    "parentId",
    eb.fn.countAll<number>().as("count"),
  ]).where("companyId", "=", companyId).where("parentId", "in", ids).groupBy("parentId")
    .execute();
  return new Map(rows.map((r) => [r.parentId!, Number(r.count)]));
}

export async function insertOption(
  db: Database,
  values: Insertable<QueueOptionsTable>,
): Promise<QueueOption> {
  return await db.insertInto("queue_options").values(values).returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateOption(
  db: Database,
  companyId: number,
  id: number,
  values: Updateable<QueueOptionsTable>,
): Promise<QueueOption | undefined> {
  return await db.updateTable("queue_options").set(values).where("companyId", "=", companyId)
    .where("id", "=", id).returningAll().executeTakeFirst();
}

/** Ids and media of an option and all its descendants (the rows a delete cascades to). */
export async function subtree(db: Database, companyId: number, id: number) {
  const rows = await sql<{ id: number; mediaPath: string | null }>`
    WITH RECURSIVE tree(id) AS (
      SELECT id FROM queue_options WHERE id = ${id} AND companyId = ${companyId}
      UNION ALL
      SELECT o.id FROM queue_options o JOIN tree ON o.parentId = tree.id
    )
    SELECT q.id, q.mediaPath FROM queue_options q JOIN tree ON q.id = tree.id ORDER BY q.id
  `.execute(db);
  return rows.rows;
}

export async function deleteOption(db: Database, companyId: number, id: number) {
  await db.deleteFrom("queue_options").where("companyId", "=", companyId).where("id", "=", id)
    .execute();
}
