import type { Database } from "../../db/client.ts";
import type { TakenBackNotice } from "../../contract/ticket_types.ts";

/** Issue 50 item 17: the notices of tickets taken back from attendants who were offline. */

/** Records a take-back (in its transaction); the unique (ticketId, at) makes a second a no-op. */
export async function insertNotice(
  db: Database,
  row: { companyId: number; userId: number; ticketId: number; at: string },
): Promise<number | null> {
  const inserted = await db.insertInto("taken_back_notices")
    .values({ ...row, toUserId: null, seenAt: null })
    .onConflict((oc) => oc.columns(["ticketId", "at"]).doNothing())
    .returning("id").executeTakeFirst();
  return inserted?.id ?? null;
}

/** Who got the ticket next. */
export async function setNoticeOwner(
  db: Database,
  companyId: number,
  id: number,
  toUserId: number,
): Promise<void> {
  await db.updateTable("taken_back_notices").set({ toUserId })
    .where("companyId", "=", companyId).where("id", "=", id).execute();
}

/** Who lost the notice's ticket and who got it next. */
export async function noticeParties(
  db: Database,
  companyId: number,
  id: number,
): Promise<{ userId: number; toUserId: number | null } | undefined> {
  return await db.selectFrom("taken_back_notices").select(["userId", "toUserId"])
    .where("companyId", "=", companyId).where("id", "=", id).executeTakeFirst();
}

/** The user's notices not yet closed (`id`: one of them), oldest first. */
export async function unseenNotices(
  db: Database,
  companyId: number,
  userId: number,
  id?: number,
): Promise<TakenBackNotice[]> {
  let q = db.selectFrom("taken_back_notices as n")
    .innerJoin("tickets as t", "t.id", "n.ticketId")
    .innerJoin("contacts as c", "c.id", "t.contactId")
    .leftJoin("users as u", "u.id", "n.toUserId")
    .select([
      "n.id",
      "n.ticketId",
      "t.uuid as ticketUuid",
      "c.name as contactName",
      "n.at",
      "u.name as toUserName",
    ])
    .where("n.companyId", "=", companyId).where("n.userId", "=", userId)
    .where("n.seenAt", "is", null);
  if (id !== undefined) q = q.where("n.id", "=", id);
  const rows = await q.orderBy("n.id").execute();
  return rows.map((r) => ({ ...r, toUserName: r.toUserName ?? null }));
}

/** How many of the user's notices are not yet closed (the session carries it: contract SessionUser). */
export async function countUnseenNotices(
  db: Database,
  companyId: number,
  userId: number,
): Promise<number> {
  const row = await db.selectFrom("taken_back_notices")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("companyId", "=", companyId).where("userId", "=", userId)
    .where("seenAt", "is", null).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Closes the user's notices (their own only). */
export async function markNoticesSeen(
  db: Database,
  companyId: number,
  userId: number,
  stamp: string,
): Promise<number> {
  const result = await db.updateTable("taken_back_notices").set({ seenAt: stamp })
    .where("companyId", "=", companyId).where("userId", "=", userId)
    .where("seenAt", "is", null).executeTakeFirst();
  return Number(result.numUpdatedRows);
}
