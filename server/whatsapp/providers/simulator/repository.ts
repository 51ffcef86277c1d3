import type { Database } from "../../../../db/client.ts";
import type { SimulatorSent } from "../../../../db/schema.ts";

/**
 * SQL of the simulator's phone side: the linked device of a connection (simulator_sessions) and
 * what the connection sent (simulator_sent), each of the connection's company.
 */

/** The number a linked simulator connection got when it was scanned. */
export async function linkedNumber(
  db: Database,
  companyId: number,
  whatsappId: number,
): Promise<string | undefined> {
  const row = await db.selectFrom("simulator_sessions").select(["number"])
    .where("companyId", "=", companyId).where("whatsappId", "=", whatsappId).executeTakeFirst();
  return row?.number;
}

export async function linkDevice(
  db: Database,
  companyId: number,
  whatsappId: number,
  number: string,
  now: string,
) {
  await db.insertInto("simulator_sessions").values({
    whatsappId,
    companyId,
    number,
    linkedAt: now,
  }).onConflict((oc) => oc.column("whatsappId").doUpdateSet({ number })).execute();
}

export async function unlinkDevice(db: Database, companyId: number, whatsappId: number) {
  await db.deleteFrom("simulator_sessions").where("companyId", "=", companyId)
    .where("whatsappId", "=", whatsappId).execute();
}

/** Records a send; false when its (connection, WhatsApp id) is already recorded (a resend). */
export async function recordSent(
  db: Database,
  values: Omit<SimulatorSent, "id" | "deleted">,
): Promise<boolean> {
  const inserted = await db.insertInto("simulator_sent").values(values)
    .onConflict((oc) => oc.doNothing()).returning("id").executeTakeFirst();
  return inserted !== undefined;
}

export async function markSentDeleted(
  db: Database,
  companyId: number,
  whatsappId: number,
  chatJid: string,
  wid: string,
  now: string,
) {
  await db.updateTable("simulator_sent").set({ deleted: 1, updatedAt: now })
    .where("companyId", "=", companyId).where("whatsappId", "=", whatsappId)
    .where("wid", "=", wid).where("toJid", "=", chatJid).execute();
}

/** A sent text takes its edit (the phone shows it edited); whether there was such a text. */
export async function editSent(
  db: Database,
  companyId: number,
  whatsappId: number,
  chatJid: string,
  wid: string,
  body: string,
  now: string,
): Promise<boolean> {
  const updated = await db.updateTable("simulator_sent").set({ body, edited: 1, updatedAt: now })
    .where("companyId", "=", companyId).where("whatsappId", "=", whatsappId)
    .where("wid", "=", wid).where("toJid", "=", chatJid).where("deleted", "=", 0)
    .where("mediaMimetype", "is", null).executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** Sends to `chatJid` not read yet (all, or those of `ids`). */
export async function unreadSent(
  db: Database,
  companyId: number,
  whatsappId: number,
  chatJid: string,
  ids?: string[],
): Promise<{ wid: string; toJid: string }[]> {
  let query = db.selectFrom("simulator_sent").select(["wid", "toJid"])
    .where("companyId", "=", companyId).where("whatsappId", "=", whatsappId)
    .where("toJid", "=", chatJid).where("ack", "<", 3);
  if (ids && ids.length > 0) query = query.where("wid", "in", ids);
  return await query.execute();
}

/** Sends whose acks had not all arrived when the connection stopped. */
export async function sentAwaitingAcks(
  db: Database,
  companyId: number,
  whatsappId: number,
): Promise<{ wid: string; toJid: string; ack: number }[]> {
  return await db.selectFrom("simulator_sent").select(["wid", "toJid", "ack"])
    .where("companyId", "=", companyId).where("whatsappId", "=", whatsappId)
    .where("ack", "<", 3).execute();
}

/** Raises a send's ack (never lowers it); whether it changed. */
export async function raiseAck(
  db: Database,
  companyId: number,
  whatsappId: number,
  wid: string,
  ack: number,
  now: string,
): Promise<boolean> {
  const updated = await db.updateTable("simulator_sent").set({ ack, updatedAt: now })
    .where("companyId", "=", companyId).where("whatsappId", "=", whatsappId)
    .where("wid", "=", wid).where("ack", "<", ack).executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** A page of what a connection sent, oldest first (`after`: the last seq already read). */
export async function sentPage(
  db: Database,
  companyId: number,
  whatsappId: number,
  filter: { toJid?: string; after?: number; limit: number },
): Promise<SimulatorSent[]> {
  let query = db.selectFrom("simulator_sent").selectAll().where("companyId", "=", companyId)
    .where("whatsappId", "=", whatsappId);
  if (filter.toJid) query = query.where("toJid", "=", filter.toJid);
  if (filter.after) query = query.where("id", ">", filter.after);
  return await query.orderBy("id").limit(filter.limit).execute();
}
