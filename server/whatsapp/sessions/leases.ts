import { sql } from "kysely";
import type { Database } from "../../../db/client.ts";
import type { Clock } from "../../clock.ts";

/**
 * Leases on connections (migration 0132, docs/scaling.md). With SESSION_LEASE_SECONDS set, a
 * session starts only in the process that takes its connection's lease, renews it every third of
 * the lease, and stops when it loses it; a process that dies leaves its leases to expire, and the
 * others take its connections over at their next claim. The lease is the only coordination: no
 * process needs to know the others.
 */
export class SessionLeases {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    readonly holder: string,
    readonly seconds: number,
  ) {}

  #expiry(now: Date): string {
    return new Date(now.getTime() + this.seconds * 1000).toISOString();
  }

  /**
   * Takes (or keeps) the lease: one upsert that writes only when there is no row, the row is ours,
   * or it has expired. Returns whether we hold it now, and who held it before if it changed hands.
   */
  async acquire(
    companyId: number,
    whatsappId: number,
  ): Promise<{ held: boolean; takenOver: boolean }> {
    const now = this.clock.now();
    const stamp = now.toISOString();
    const before = await this.db.selectFrom("whatsapp_leases").select(["holder", "expiresAt"])
      .where("whatsappId", "=", whatsappId).executeTakeFirst();
    await this.db.insertInto("whatsapp_leases").values({
      whatsappId,
      companyId,
      holder: this.holder,
      expiresAt: this.#expiry(now),
      acquiredAt: stamp,
    }).onConflict((oc) =>
      oc.column("whatsappId").doUpdateSet({
        holder: this.holder,
        expiresAt: this.#expiry(now),
        acquiredAt: sql`CASE WHEN holder = ${this.holder} THEN acquiredAt ELSE ${stamp} END`,
      }).where((eb) =>
        eb.or([eb("whatsapp_leases.holder", "=", this.holder), eb("expiresAt", "<=", stamp)])
      )
    ).execute();
    const after = await this.db.selectFrom("whatsapp_leases").select("holder")
      .where("whatsappId", "=", whatsappId).executeTakeFirst();
    const held = after?.holder === this.holder;
    return { held, takenOver: held && before !== undefined && before.holder !== this.holder };
  }

  /** Renews the leases we hold among `whatsappIds`; answers those we still hold. */
  async renew(whatsappIds: number[]): Promise<Set<number>> {
    if (whatsappIds.length === 0) return new Set();
    const now = this.clock.now();
    const rows = await this.db.updateTable("whatsapp_leases").set({ expiresAt: this.#expiry(now) })
      .where("holder", "=", this.holder).where("whatsappId", "in", whatsappIds)
      .where("expiresAt", ">", now.toISOString()).returning("whatsappId").execute();
    return new Set(rows.map((row) => row.whatsappId));
  }

  async release(whatsappId: number) {
    await this.db.deleteFrom("whatsapp_leases").where("whatsappId", "=", whatsappId)
      .where("holder", "=", this.holder).execute();
  }

  async releaseAll() {
    await this.db.deleteFrom("whatsapp_leases").where("holder", "=", this.holder).execute();
    await this.leave();
  }

  /**
   * Says this process is alive, and answers how many connections each live process should hold:
   * the connections that should run divided by the live processes, rounded up. Rows of processes
   * not seen for a lease period are deleted.
   */
  async fairShare(): Promise<number> {
    const now = this.clock.now();
    const stamp = now.toISOString();
    const stale = new Date(now.getTime() - this.seconds * 1000).toISOString();
    await this.db.insertInto("instances").values({
      id: this.holder,
      startedAt: stamp,
      seenAt: stamp,
    })
      .onConflict((oc) => oc.column("id").doUpdateSet({ seenAt: stamp })).execute();
    await this.db.deleteFrom("instances").where("seenAt", "<", stale).execute();
    const [{ live }] = await this.db.selectFrom("instances")
      .select(sql<number>`count(*)`.as("live")).execute();
    const [{ total }] = await this.db.selectFrom("whatsapps")
      .select(sql<number>`count(*)`.as("total")).where("status", "in", ["CONNECTED", "OPENING"])
      .execute();
    return Math.ceil(Number(total) / Math.max(1, Number(live)));
  }

  async leave() {
    await this.db.deleteFrom("instances").where("id", "=", this.holder).execute();
  }

  /** Connections that should run (CONNECTED or OPENING) and that nobody holds a live lease on. */
  async orphans(): Promise<{ id: number; companyId: number }[]> {
    const stamp = this.clock.now().toISOString();
    return await this.db.selectFrom("whatsapps").leftJoin(
      "whatsapp_leases",
      "whatsapp_leases.whatsappId",
      "whatsapps.id",
    ).select(["whatsapps.id", "whatsapps.companyId"])
      .where("whatsapps.status", "in", ["CONNECTED", "OPENING"])
      .where((eb) =>
        eb.or([
          eb("whatsapp_leases.holder", "is", null),
          eb("whatsapp_leases.expiresAt", "<=", stamp),
        ])
      ).orderBy("whatsapps.id").execute();
  }
}
