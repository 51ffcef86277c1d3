import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import { likePattern, pageWindow } from "../paging.ts";
import type { Plan } from "../../db/schema.ts";
import { PLAN_SWITCHES, type PlanView } from "../../contract/platform_types.ts";
import { flagSwitches } from "./features.ts";
import { centsOf, reaisOf } from "../../contract/money.ts";

/** Plans are platform-wide (no companyId): only super users write them. */
export function planView(p: Plan): PlanView {
  return {
    id: p.id,
    name: p.name,
    value: reaisOf(p.valueCents),
    users: p.users,
    connections: p.connections,
    queues: p.queues,
    ...flagSwitches(p, PLAN_SWITCHES),
  };
}

export async function listPlans(db: Database): Promise<Plan[]> {
  return await db.selectFrom("plans").selectAll().orderBy("name").orderBy("id").execute();
}

export async function pagePlans(
  db: Database,
  searchParam: string | undefined,
  pageNumber: number,
) {
  const window = pageWindow(pageNumber);
  const text = searchParam?.trim();
  let rows = db.selectFrom("plans").selectAll();
  let counted = db.selectFrom("plans").select((eb) => eb.fn.countAll<number>().as("n"));
  if (text) {
    rows = rows.where(sql<boolean>`name LIKE ${likePattern(text)} ESCAPE '\\'`);
    counted = counted.where(sql<boolean>`name LIKE ${likePattern(text)} ESCAPE '\\'`);
  }
  const [list, total] = await Promise.all([
    rows.orderBy("name").orderBy("id").limit(window.limit).offset(window.offset).execute(),
    counted.executeTakeFirstOrThrow(),
  ]);
  return { rows: list, count: Number(total.n), window };
}

export async function findPlan(db: Database, id: number): Promise<Plan | undefined> {
  return await db.selectFrom("plans").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Names compare case-insensitively: "Básico" and "básico" are the same plan to a person. */
export async function planNameTaken(db: Database, name: string, exceptId?: number) {
  let q = db.selectFrom("plans").select("id").where(
    (eb) => eb(eb.fn("lower", ["name"]), "=", name.toLowerCase()),
  );
  if (exceptId !== undefined) q = q.where("id", "!=", exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export type PlanFields = Omit<PlanView, "id">;

function columns(fields: Partial<PlanFields>) {
  const flag = (v: boolean | undefined) => v === undefined ? undefined : v ? 1 : 0;
  return {
    name: fields.name,
    valueCents: fields.value === undefined ? undefined : centsOf(fields.value),
    users: fields.users,
    connections: fields.connections,
    queues: fields.queues,
    useCampaigns: flag(fields.useCampaigns),
    useSchedules: flag(fields.useSchedules),
    useInternalChat: flag(fields.useInternalChat),
    useExternalApi: flag(fields.useExternalApi),
    useKanban: flag(fields.useKanban),
    useOpenAi: flag(fields.useOpenAi),
    useIntegrations: flag(fields.useIntegrations),
    useAssist: flag(fields.useAssist),
  };
}

export async function insertPlan(db: Database, fields: PlanFields, now: string): Promise<Plan> {
  return await db.insertInto("plans").values({
    ...columns(fields),
    name: fields.name,
    createdAt: now,
    updatedAt: now,
  }).returningAll().executeTakeFirstOrThrow();
}

export async function updatePlan(
  db: Database,
  id: number,
  fields: Partial<PlanFields>,
  now: string,
): Promise<Plan | undefined> {
  return await db.updateTable("plans").set({ ...columns(fields), updatedAt: now })
    .where("id", "=", id).returningAll().executeTakeFirst();
}

export async function deletePlan(db: Database, id: number) {
  await db.deleteFrom("plans").where("id", "=", id).execute();
}

/** Ids of the companies on a plan (a plan in use cannot be deleted; its edits reach them). */
export async function companiesOnPlan(db: Database, planId: number): Promise<number[]> {
  const rows = await db.selectFrom("companies").select("id").where("planId", "=", planId)
    .execute();
  return rows.map((r) => r.id);
}
