import type { Database } from "../../db/client.ts";
import type { QueueIntegration } from "../../db/schema.ts";
import { pageWindow } from "../paging.ts";
import { nameHolds, pageByName } from "../paging_repository.ts";

/** Queue integrations (db/migrations/0110); every query names the company. */
export type IntegrationRow = QueueIntegration;

export async function pageIntegrations(
  db: Database,
  companyId: number,
  searchParam: string | undefined,
  pageNumber: number,
) {
  const q = db.selectFrom("queue_integrations").where("companyId", "=", companyId);
  const window = pageWindow(pageNumber);
  return { ...await pageByName(nameHolds(q, searchParam), window), window };
}

export async function findIntegration(
  db: Database,
  companyId: number,
  id: number,
): Promise<IntegrationRow | undefined> {
  return await db.selectFrom("queue_integrations").selectAll().where("companyId", "=", companyId)
    .where("id", "=", id).executeTakeFirst();
}

export async function insertIntegration(
  db: Database,
  row: Omit<IntegrationRow, "id">,
): Promise<IntegrationRow> {
  return await db.insertInto("queue_integrations").values(row).returningAll()
    .executeTakeFirstOrThrow();
}

export async function updateIntegration(
  db: Database,
  companyId: number,
  id: number,
  patch: Partial<Omit<IntegrationRow, "id" | "companyId">>,
): Promise<IntegrationRow | undefined> {
  return await db.updateTable("queue_integrations").set(patch).where("companyId", "=", companyId)
    .where("id", "=", id).returningAll().executeTakeFirst();
}

/**
 * Deletes an integration and unbinds it everywhere in the same transaction: queues and
 * connections forget it, and tickets that were with it go to people (pending in their queue).
 */
export async function deleteIntegration(db: Database, companyId: number, id: number) {
  await db.updateTable("queues").set({ integrationId: null }).where("companyId", "=", companyId)
    .where("integrationId", "=", id).execute();
  await db.updateTable("whatsapps").set({ integrationId: null })
    .where("companyId", "=", companyId).where("integrationId", "=", id).execute();
  await db.updateTable("tickets").set({
    useIntegration: 0,
    integrationId: null,
    botSession: null,
    botSessionAt: null,
  }).where("companyId", "=", companyId).where("integrationId", "=", id).execute();
  await db.deleteFrom("queue_integrations").where("companyId", "=", companyId)
    .where("id", "=", id).execute();
}
