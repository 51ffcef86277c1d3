import type { Database } from "../../db/client.ts";

/**
 * Issue 28: tickets pinned by one user (migration 0420). Every query reads one range of
 * ticket_pins_user (companyId, userId, ...): a user has at most LIMITS.pinnedTickets rows.
 */

/** The ids among `ticketIds` (all of the user's when omitted) that the user pinned. */
export async function pinnedTicketIds(
  db: Database,
  companyId: number,
  userId: number,
  ticketIds?: readonly number[],
): Promise<Set<number>> {
  if (ticketIds?.length === 0) return new Set();
  let query = db.selectFrom("ticket_pins").select("ticketId")
    .where("companyId", "=", companyId).where("userId", "=", userId);
  if (ticketIds) query = query.where("ticketId", "in", ticketIds);
  return new Set((await query.execute()).map((r) => r.ticketId));
}

export async function countPins(db: Database, companyId: number, userId: number) {
  const row = await db.selectFrom("ticket_pins").select((eb) => eb.fn.countAll<number>().as("n"))
    .where("companyId", "=", companyId).where("userId", "=", userId).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** True when the pin is new (the unique index ticket_pins_user makes a second one a no-op). */
export async function insertPin(
  db: Database,
  pin: { companyId: number; userId: number; ticketId: number; createdAt: string },
): Promise<boolean> {
  const result = await db.insertInto("ticket_pins").values(pin)
    .onConflict((oc) => oc.doNothing()).executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** True when there was a pin to remove. */
export async function deletePin(
  db: Database,
  companyId: number,
  userId: number,
  ticketId: number,
): Promise<boolean> {
  const result = await db.deleteFrom("ticket_pins").where("companyId", "=", companyId)
    .where("userId", "=", userId).where("ticketId", "=", ticketId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
