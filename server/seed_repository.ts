import type { Database } from "../db/client.ts";

/** SQL of the first start (server/seed.ts). */

/** True once: the marker row app_secrets.first_start is written by the first start only. */
export async function claimFirstStart(db: Database, now: string): Promise<boolean> {
  const marker = await db.insertInto("app_secrets").values({
    name: "first_start",
    value: now,
    createdAt: now,
  })
    .onConflict((oc) => oc.column("name").doNothing()).executeTakeFirst();
  return Number(marker.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** The first plan: every feature on, room for ten of everything, free. */
export async function insertFirstPlan(db: Database, now: string): Promise<number> {
  const plan = await db.insertInto("plans").values({
    name: "Plano Completo",
    users: 10,
    connections: 10,
    queues: 10,
    campaigns: 10,
    schedules: 10,
    valueCents: 0,
    createdAt: now,
    updatedAt: now,
  }).returning("id").executeTakeFirstOrThrow();
  return plan.id;
}
