import { type Insertable, sql, type Updateable } from "kysely";
import type { Database } from "../../db/client.ts";
import type { Queue, QueuesTable } from "../../db/schema.ts";

/** A company's queues in menu order: orderQueue (unset last), then name. */
export async function listQueues(db: Database, companyId: number): Promise<Queue[]> {
  return await db.selectFrom("queues").selectAll().where("companyId", "=", companyId)
    .orderBy(sql`orderQueue IS NULL`).orderBy("orderQueue").orderBy(sql`name COLLATE NOCASE`)
    .orderBy("id").execute();
}

export async function findQueue(
  db: Database,
  companyId: number,
  id: number,
): Promise<Queue | undefined> {
  return await db.selectFrom("queues").selectAll().where("companyId", "=", companyId)
    .where("id", "=", id).executeTakeFirst();
}

export async function countQueues(db: Database, companyId: number): Promise<number> {
  const row = await db.selectFrom("queues").select((eb) => eb.fn.countAll<number>().as("count"))
    .where("companyId", "=", companyId).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Another queue of the company with this name (case-insensitive) or colour. */
export async function findConflict(
  db: Database,
  companyId: number,
  values: { name?: string; color?: string },
  exceptId?: number,
) {
  let query = db.selectFrom("queues").select(["id", "name", "color"])
    .where("companyId", "=", companyId);
  if (exceptId !== undefined) query = query.where("id", "<>", exceptId);
  const [byName, byColor] = await Promise.all([
    values.name === undefined
      ? undefined
      : query.where(sql`name COLLATE NOCASE`, "=", values.name).executeTakeFirst(),
    values.color === undefined
      ? undefined
      : query.where(sql`color COLLATE NOCASE`, "=", values.color).executeTakeFirst(),
  ]);
  return { name: byName !== undefined, color: byColor !== undefined };
}

export async function insertQueue(db: Database, values: Insertable<QueuesTable>): Promise<Queue> {
  return await db.insertInto("queues").values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateQueue(
  db: Database,
  companyId: number,
  id: number,
  values: Updateable<QueuesTable>,
): Promise<Queue | undefined> {
  return await db.updateTable("queues").set(values).where("companyId", "=", companyId)
    .where("id", "=", id).returningAll().executeTakeFirst();
}

/** Media files of the queue and of its options, to remove from disk after the rows go. */
export async function mediaOfQueue(db: Database, companyId: number, id: number) {
  const rows = await db.selectFrom("queue_options").select("mediaPath")
    .where("companyId", "=", companyId).where("queueId", "=", id)
    .where("mediaPath", "is not", null).execute();
  return rows.map((r) => r.mediaPath).filter((p): p is string => p !== null);
}

/** Pending and open tickets in the queue, with their placement, before it is deleted. */
export async function liveTicketsOfQueue(db: Database, companyId: number, id: number) {
  return await db.selectFrom("tickets").select(["id", "status", "queueId", "userId"])
    .where("companyId", "=", companyId).where("queueId", "=", id)
    .where("status", "in", ["pending", "open"]).execute();
}

export async function deleteQueue(db: Database, companyId: number, id: number) {
  await db.deleteFrom("queues").where("companyId", "=", companyId).where("id", "=", id).execute();
}
