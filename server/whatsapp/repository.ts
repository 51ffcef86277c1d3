import type { Updateable } from "kysely";
import type { Database } from "../../db/client.ts";
import { crossCompany } from "../../db/tenancy.ts";
import type { Whatsapp, WhatsappsTable } from "../../db/schema.ts";

/** SQL of connections (whatsapps) and their queues. Every function is scoped by company. */

export type WhatsappQueue = {
  id: number;
  name: string;
  color: string;
  greetingMessage: string;
  orderQueue: number | null;
};

export async function listWhatsapps(db: Database, companyId: number): Promise<Whatsapp[]> {
  return await db.selectFrom("whatsapps").selectAll().where("companyId", "=", companyId)
    .orderBy("name").orderBy("id").execute();
}

export async function findWhatsapp(
  db: Database,
  companyId: number,
  id: number,
): Promise<Whatsapp | undefined> {
  return await db.selectFrom("whatsapps").selectAll().where("companyId", "=", companyId)
    .where("id", "=", id).executeTakeFirst();
}

/** Queues of connections, in menu order (orderQueue, then name). */
export async function queuesOfWhatsapps(
  db: Database,
  companyId: number,
  whatsappIds: readonly number[],
): Promise<Map<number, WhatsappQueue[]>> {
  const byWhatsapp = new Map<number, WhatsappQueue[]>();
  if (whatsappIds.length === 0) return byWhatsapp;
  const rows = await db.selectFrom("whatsapp_queues as wq").innerJoin(
    "queues as q",
    "q.id",
    "wq.queueId",
  )
    .select(["wq.whatsappId", "q.id", "q.name", "q.color", "q.greetingMessage", "q.orderQueue"])
    .where("wq.companyId", "=", companyId).where("wq.whatsappId", "in", whatsappIds)
    .orderBy((eb) => eb.fn.coalesce("q.orderQueue", eb.lit(2147483647)))
    .orderBy("q.name").execute();
  for (const { whatsappId, ...queue } of rows) {
    const list = byWhatsapp.get(whatsappId) ?? [];
    list.push(queue);
    byWhatsapp.set(whatsappId, list);
  }
  return byWhatsapp;
}

export async function countWhatsapps(db: Database, companyId: number): Promise<number> {
  const row = await db.selectFrom("whatsapps").select((eb) => eb.fn.countAll<number>().as("n"))
    .where("companyId", "=", companyId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Which of `ids` are queues of the company. */
export async function existingQueueIds(
  db: Database,
  companyId: number,
  ids: readonly number[],
): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await db.selectFrom("queues").select("id").where("companyId", "=", companyId)
    .where("id", "in", ids).execute();
  return rows.map((r) => r.id);
}

export async function findWhatsappByName(
  db: Database,
  companyId: number,
  name: string,
): Promise<Whatsapp | undefined> {
  return await db.selectFrom("whatsapps").selectAll().where("companyId", "=", companyId)
    .where("name", "=", name).executeTakeFirst();
}

export async function insertWhatsapp(
  db: Database,
  companyId: number,
  values: Omit<Updateable<WhatsappsTable>, "id" | "companyId"> & {
    name: string;
    createdAt: string;
    updatedAt: string;
  },
): Promise<Whatsapp> {
  return await db.insertInto("whatsapps").values({ ...values, companyId }).returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateWhatsapp(
  db: Database,
  companyId: number,
  id: number,
  values: Omit<Updateable<WhatsappsTable>, "id" | "companyId">,
): Promise<Whatsapp | undefined> {
  return await db.updateTable("whatsapps").set(values).where("companyId", "=", companyId)
    .where("id", "=", id).returningAll().executeTakeFirst();
}

export async function deleteWhatsapp(
  db: Database,
  companyId: number,
  id: number,
): Promise<boolean> {
  const result = await db.deleteFrom("whatsapps").where("companyId", "=", companyId)
    .where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Makes `id` the company's only default connection. */
export async function clearOtherDefaults(db: Database, companyId: number, id: number, now: string) {
  await db.updateTable("whatsapps").set({ isDefault: 0, updatedAt: now })
    .where("companyId", "=", companyId).where("id", "<>", id).where("isDefault", "=", 1).execute();
}

export async function setWhatsappQueues(
  db: Database,
  companyId: number,
  whatsappId: number,
  queueIds: readonly number[],
) {
  await db.deleteFrom("whatsapp_queues").where("companyId", "=", companyId)
    .where("whatsappId", "=", whatsappId).execute();
  if (queueIds.length === 0) return;
  await db.insertInto("whatsapp_queues").values(
    [...new Set(queueIds)].map((queueId) => ({ companyId, whatsappId, queueId })),
  ).execute();
}

/** Connections to start again at boot: those that were up, of companies still active. */
export async function whatsappsToRestore(db: Database): Promise<Whatsapp[]> {
  return await db.selectFrom("whatsapps").selectAll().where("status", "in", [
    "CONNECTED",
    "OPENING",
  ]).where(
    "companyId",
    "in",
    db.selectFrom("companies").select("id").where("status", "=", 1),
  ).orderBy("id").execute();
}

/**
 * After a restart a shown QR or pairing code is stale: those sessions are DISCONNECTED, in every
 * company (the session manager's boot, when no other process shares the database).
 */
export async function resetStaleSessions(db: Database, now: string): Promise<Whatsapp[]> {
  return await crossCompany(db).updateTable("whatsapps").set({
    status: "DISCONNECTED",
    qrcode: "",
    updatedAt: now,
  }).where("status", "in", ["qrcode", "PAIRING"]).returningAll().execute();
}

/** A session's state as its provider reports it; `countRetry` adds one to retries (a new QR). */
export async function setSessionState(
  db: Database,
  companyId: number,
  id: number,
  patch: Omit<Updateable<WhatsappsTable>, "id" | "companyId">,
  countRetry: boolean,
  now: string,
): Promise<Whatsapp | undefined> {
  return await db.updateTable("whatsapps").set((eb) => ({
    ...patch,
    ...(countRetry ? { retries: eb("retries", "+", 1) } : {}),
    updatedAt: now,
  })).where("companyId", "=", companyId).where("id", "=", id).returningAll()
    .executeTakeFirst();
}
