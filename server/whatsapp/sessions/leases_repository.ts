import { sql } from "kysely";
import type { Database } from "../../../db/client.ts";
import { crossCompany } from "../../../db/tenancy.ts";

/**
 * SQL of the connection leases and of the processes sharing the database (leases.ts says what
 * they are for). A lease row is keyed by its connection; the queries of one process's own leases
 * (renew, release all, the orphans it may take) cross companies on purpose: a process holds
 * connections of every company (tests/architecture/tenancy_test.ts).
 */

export async function leaseHolder(
  db: Database,
  companyId: number,
  whatsappId: number,
): Promise<string | undefined> {
  const row = await db.selectFrom("whatsapp_leases").select("holder")
    .where("companyId", "=", companyId).where("whatsappId", "=", whatsappId).executeTakeFirst();
  return row?.holder;
}

/** The holder of a lease that has not expired at `now`. */
export async function liveLeaseHolder(
  db: Database,
  companyId: number,
  whatsappId: number,
  now: string,
): Promise<string | undefined> {
  const row = await db.selectFrom("whatsapp_leases").select("holder")
    .where("companyId", "=", companyId).where("whatsappId", "=", whatsappId)
    .where("expiresAt", ">", now).executeTakeFirst();
  return row?.holder;
}

/** One upsert that writes only when there is no row, the row is `holder`'s, or it has expired. */
export async function takeLease(
  db: Database,
  companyId: number,
  whatsappId: number,
  holder: string,
  expiresAt: string,
  now: string,
) {
  await db.insertInto("whatsapp_leases").values({
    whatsappId,
    companyId,
    holder,
    expiresAt,
    acquiredAt: now,
  }).onConflict((oc) =>
    oc.column("whatsappId").doUpdateSet({
      holder,
      expiresAt,
      // The row's own columns are named with the table: PostgreSQL would not tell them from the
      // proposed row's (excluded.*) and refuses the statement.
      acquiredAt: sql`CASE WHEN whatsapp_leases.holder = ${holder}
        THEN whatsapp_leases.acquiredAt ELSE ${now} END`,
    }).where((eb) =>
      eb.or([
        eb("whatsapp_leases.holder", "=", holder),
        eb("whatsapp_leases.expiresAt", "<=", now),
      ])
    )
  ).execute();
}

/** Extends `holder`'s live leases among `whatsappIds` (of any company); answers those renewed. */
export async function renewLeases(
  db: Database,
  holder: string,
  whatsappIds: number[],
  expiresAt: string,
  now: string,
): Promise<number[]> {
  const rows = await crossCompany(db).updateTable("whatsapp_leases").set({ expiresAt })
    .where("holder", "=", holder).where("whatsappId", "in", whatsappIds)
    .where("expiresAt", ">", now).returning("whatsappId").execute();
  return rows.map((row) => row.whatsappId);
}

export async function deleteLease(
  db: Database,
  companyId: number,
  whatsappId: number,
  holder: string,
) {
  await db.deleteFrom("whatsapp_leases").where("companyId", "=", companyId)
    .where("whatsappId", "=", whatsappId).where("holder", "=", holder).execute();
}

/** Every lease of `holder`, whatever the company (a process leaving). */
export async function deleteLeasesOf(db: Database, holder: string) {
  await crossCompany(db).deleteFrom("whatsapp_leases").where("holder", "=", holder).execute();
}

/** Says `id` is alive at `now` (its row in `instances`). */
export async function markInstanceSeen(db: Database, id: string, now: string) {
  await db.insertInto("instances").values({ id, startedAt: now, seenAt: now })
    .onConflict((oc) => oc.column("id").doUpdateSet({ seenAt: now })).execute();
}

export async function deleteStaleInstances(db: Database, seenBefore: string) {
  await db.deleteFrom("instances").where("seenAt", "<", seenBefore).execute();
}

export async function countInstances(db: Database): Promise<number> {
  const [{ live }] = await db.selectFrom("instances")
    .select(sql<number>`count(*)`.as("live")).execute();
  return Number(live);
}

export async function deleteInstance(db: Database, id: string) {
  await db.deleteFrom("instances").where("id", "=", id).execute();
}

/** Connections that should run (CONNECTED or OPENING), of every company. */
export async function countActiveConnections(db: Database): Promise<number> {
  const [{ total }] = await crossCompany(db).selectFrom("whatsapps")
    .select(sql<number>`count(*)`.as("total")).where("status", "in", ["CONNECTED", "OPENING"])
    .execute();
  return Number(total);
}

/** Connections that should run and that nobody holds a live lease on, of every company. */
export async function orphanConnections(
  db: Database,
  now: string,
): Promise<{ id: number; companyId: number }[]> {
  return await crossCompany(db).selectFrom("whatsapps").leftJoin(
    "whatsapp_leases",
    "whatsapp_leases.whatsappId",
    "whatsapps.id",
  ).select(["whatsapps.id", "whatsapps.companyId"])
    .where("whatsapps.status", "in", ["CONNECTED", "OPENING"])
    .where((eb) =>
      eb.or([
        eb("whatsapp_leases.holder", "is", null),
        eb("whatsapp_leases.expiresAt", "<=", now),
      ])
    ).orderBy("whatsapps.id").execute();
}
