import type { Database } from "../../db/client.ts";
import type { Company, Plan } from "../../db/schema.ts";

export async function findCompany(db: Database, id: number): Promise<Company | undefined> {
  return await db.selectFrom("companies").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function findPlan(db: Database, id: number): Promise<Plan | undefined> {
  return await db.selectFrom("plans").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function setCompanySchedules(
  db: Database,
  id: number,
  schedules: string,
  now: string,
): Promise<Company | undefined> {
  return await db.updateTable("companies").set({ schedules, updatedAt: now }).where("id", "=", id)
    .returningAll().executeTakeFirst();
}
