import type { Database } from "../../db/client.ts";
import type { Prompt } from "../../db/schema.ts";

/**
 * SQL the bots read while deciding a turn (menu.ts, prompt.ts), each of the ticket's company.
 * The rest they read through their owners' repositories (queue options, integrations, ids).
 */

/** What the menu bot needs of a connection: its texts, menu limit and own bot. */
export async function menuConnection(db: Database, companyId: number, whatsappId: number) {
  return await db.selectFrom("whatsapps").select([
    "greetingMessage",
    "outOfHoursMessage",
    "maxUseBotQueues",
    "integrationId",
    "promptId",
  ]).where("companyId", "=", companyId).where("id", "=", whatsappId).executeTakeFirst();
}

/**
 * A connection's queues in menu order (orderQueue, then name), each with its bot: its own
 * prompt, else the first prompt that names the queue.
 */
export async function routingQueues(db: Database, companyId: number, whatsappId: number) {
  return await db.selectFrom("whatsapp_queues as wq")
    .innerJoin("queues as q", "q.id", "wq.queueId")
    .select([
      "q.id",
      "q.name",
      "q.greetingMessage",
      "q.outOfHoursMessage",
      "q.schedules",
      "q.mediaPath",
      "q.mediaName",
      "q.integrationId",
      (eb) =>
        eb.fn.coalesce(
          "q.promptId",
          eb.selectFrom("prompts as p").select("p.id").where("p.companyId", "=", companyId)
            .whereRef("p.queueId", "=", "q.id").orderBy("p.id").limit(1),
        ).as("promptId"),
    ])
    .where("wq.companyId", "=", companyId).where("wq.whatsappId", "=", whatsappId)
    .where("q.companyId", "=", companyId)
    .orderBy((eb) => eb.fn.coalesce("q.orderQueue", eb.lit(2147483647))).orderBy("q.name")
    .execute();
}

/** The company's working hours (JSON), for scheduleType 'company'. */
export async function companySchedules(db: Database, companyId: number) {
  return (await db.selectFrom("companies").select(["schedules"]).where("id", "=", companyId)
    .executeTakeFirst())?.schedules;
}

export async function findPrompt(
  db: Database,
  companyId: number,
  id: number,
): Promise<Prompt | undefined> {
  return await db.selectFrom("prompts").selectAll().where("companyId", "=", companyId)
    .where("id", "=", id).executeTakeFirst();
}

/** A ticket's last `limit` messages not deleted, newest first. */
export async function recentMessages(
  db: Database,
  companyId: number,
  ticketId: number,
  limit: number,
): Promise<{ body: string; fromMe: number }[]> {
  return await db.selectFrom("messages").select(["body", "fromMe"])
    .where("companyId", "=", companyId).where("ticketId", "=", ticketId)
    .where("isDeleted", "=", 0).orderBy("id", "desc").limit(limit).execute();
}
