import type { Insertable, Updateable } from "kysely";
import type { Database } from "../../db/client.ts";
import type { Prompt, PromptsTable } from "../../db/schema.ts";

/** SQL of AI prompts. Every function is company-scoped. */

export async function queueName(db: Database, companyId: number, queueId: number | null) {
  const queue = await db.selectFrom("queues").select("name")
    .where("companyId", "=", companyId).where("id", "=", queueId).executeTakeFirst();
  return queue?.name ?? null;
}

export async function listPromptRows(db: Database, companyId: number, limit: number) {
  return await db.selectFrom("prompts").selectAll().where("companyId", "=", companyId)
    .orderBy("name").orderBy("id").limit(limit).execute();
}

export async function findPrompt(
  db: Database,
  companyId: number,
  id: number,
): Promise<Prompt | undefined> {
  return await db.selectFrom("prompts").selectAll().where("companyId", "=", companyId)
    .where("id", "=", id).executeTakeFirst();
}

export async function insertPrompt(
  db: Database,
  values: Insertable<PromptsTable> & { companyId: number },
): Promise<Prompt> {
  return await db.insertInto("prompts").values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updatePrompt(
  db: Database,
  companyId: number,
  id: number,
  values: Updateable<PromptsTable>,
): Promise<Prompt | undefined> {
  return await db.updateTable("prompts").set(values).where("companyId", "=", companyId)
    .where("id", "=", id).returningAll().executeTakeFirst();
}

/** Deletes a prompt; queues, connections and tickets that used it forget it. */
export async function deletePrompt(db: Database, companyId: number, id: number) {
  await db.updateTable("queues").set({ promptId: null }).where("companyId", "=", companyId)
    .where("promptId", "=", id).execute();
  await db.updateTable("whatsapps").set({ promptId: null })
    .where("companyId", "=", companyId).where("promptId", "=", id).execute();
  await db.updateTable("tickets").set({ promptId: null }).where("companyId", "=", companyId)
    .where("promptId", "=", id).execute();
  await db.deleteFrom("prompts").where("companyId", "=", companyId).where("id", "=", id)
    .execute();
}
