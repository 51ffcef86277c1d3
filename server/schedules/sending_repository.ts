import type { Database } from "../../db/client.ts";
import { crossCompany } from "../../db/tenancy.ts";
import type { Schedule } from "../../db/schema.ts";

/**
 * SQL of the schedule sender (sending.ts). Its two scans look at every company on purpose (the
 * due rows, the provider's later refusals); each schedule found is then read and written with its
 * company named.
 */

/** PENDENTE rows of every company whose sendAt has passed (schedules_due: only due rows). */
export async function dueSchedules(db: Database, now: string, limit: number) {
  return await crossCompany(db).selectFrom("schedules").select(["id", "companyId"])
    .where("status", "=", "PENDENTE").where("sendAt", "<=", now).orderBy("sendAt")
    .limit(limit).execute();
}

/** The schedule while still PENDENTE (not taken by another tick, edited or deleted meanwhile). */
export async function findPendingSchedule(
  db: Database,
  companyId: number,
  id: number,
): Promise<Schedule | undefined> {
  return await db.selectFrom("schedules").selectAll().where("id", "=", id)
    .where("companyId", "=", companyId).where("status", "=", "PENDENTE").executeTakeFirst();
}

/** PENDENTE -> ERRO with why; nothing when it was not pending any more. */
export async function failPendingSchedule(
  db: Database,
  companyId: number,
  id: number,
  errorCode: string,
  now: string,
) {
  await db.updateTable("schedules")
    .set({ status: "ERRO", errorCode, updatedAt: now })
    .where("id", "=", id).where("companyId", "=", companyId).where("status", "=", "PENDENTE")
    .execute();
}

/** What a schedule's message needs of its contact. */
export async function scheduleContact(db: Database, companyId: number, contactId: number) {
  return await db.selectFrom("contacts").select(["id", "name", "number", "lid", "isGroup"])
    .where("id", "=", contactId).where("companyId", "=", companyId).executeTakeFirst();
}

/** The company's default connection (the lowest id when several are marked). */
export async function defaultConnection(db: Database, companyId: number) {
  return await db.selectFrom("whatsapps").select("id").where("companyId", "=", companyId)
    .where("isDefault", "=", 1).orderBy("id").executeTakeFirst();
}

/**
 * Sent schedules of every company (of the last `since`) whose queued message the provider
 * refused after the job handed it over (messages.sendError) become ERRO with that code. The
 * state is the status itself: a second run finds nothing more to change.
 */
export async function markRefused(db: Database, since: string, now: string) {
  return await crossCompany(db).updateTable("schedules")
    .set((eb) => ({
      status: "ERRO",
      errorCode: eb.selectFrom("messages").select("sendError")
        .whereRef("messages.id", "=", "schedules.messageId"),
      updatedAt: now,
    }))
    // schedules_due (status, sendAt): only the last day's sends are looked at (the outbox gives a
    // message up within minutes), each message by its id.
    .where("status", "=", "ENVIADA")
    .where("sendAt", ">=", since)
    .where((eb) =>
      eb.exists(
        eb.selectFrom("messages").select("messages.id")
          .whereRef("messages.id", "=", "schedules.messageId")
          .where("messages.sendError", "is not", null),
      )
    )
    .returning(["id", "companyId", "userId"]).execute();
}
