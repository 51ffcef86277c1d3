import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import { crossCompany } from "../../db/tenancy.ts";
import type { TicketStatus, TicketUpdate } from "../../db/schema.ts";

/**
 * SQL of the bot phase's time limits (inactive.ts). The two scans look at every company's
 * tickets on purpose (each against its own connection's limits); each ticket found is then
 * changed with its company named.
 */

/** `stamp` minus the connection's column of minutes, as an ISO text comparable to updatedAt. */
const cutoff = (stamp: string, minutes: string) =>
  sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', ${stamp}, '-' || ${sql.ref(minutes)} || ' minutes')`;

/** Pending tickets still with a bot (menu, integration or prompt) past timeUseBotQueues. */
export async function ticketsDueForPeople(db: Database, now: string, limit: number) {
  return await crossCompany(db).selectFrom("tickets as t")
    .innerJoin("whatsapps as w", "w.id", "t.whatsappId")
    .select(["t.id", "t.companyId", "t.updatedAt", "t.status", "t.queueId", "t.userId"])
    .where("w.timeUseBotQueues", ">", 0).where("t.status", "=", "pending")
    .where("t.userId", "is", null)
    .where((eb) =>
      eb.or([
        eb("t.chatbot", "=", 1),
        eb("t.useIntegration", "=", 1),
        eb("t.promptId", "is not", null),
      ])
    )
    .where("t.updatedAt", "<", cutoff(now, "w.timeUseBotQueues"))
    .limit(limit).execute();
}

/** Pending or open tickets inactive past their connection's expiresTicket. */
export async function ticketsDueToClose(db: Database, now: string, limit: number) {
  return await crossCompany(db).selectFrom("tickets as t")
    .innerJoin("whatsapps as w", "w.id", "t.whatsappId")
    .innerJoin("contacts as c", "c.id", "t.contactId")
    .select([
      "t.id",
      "t.companyId",
      "t.updatedAt",
      "t.status",
      "t.queueId",
      "t.userId",
      "t.whatsappId",
      "t.contactId",
      "w.expiresInactiveMessage",
      "c.number",
      "c.name",
      "c.lid",
      "c.isGroup",
    ])
    .where("w.expiresTicket", ">", 0).where("t.status", "in", ["pending", "open"])
    .where("t.updatedAt", "<", cutoff(now, "w.expiresTicket"))
    .limit(limit).execute();
}

/**
 * Changes the ticket only if it is still as read (its status and updatedAt): a tick that runs
 * twice, or two processes, find the row changed and do nothing. Returns whether it changed.
 */
export async function changeIfUntouched(
  db: Database,
  companyId: number,
  ticket: { id: number; status: TicketStatus; updatedAt: string },
  patch: TicketUpdate,
): Promise<boolean> {
  const result = await db.updateTable("tickets").set(patch).where("id", "=", ticket.id)
    .where("companyId", "=", companyId).where("status", "=", ticket.status)
    .where("updatedAt", "=", ticket.updatedAt).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
