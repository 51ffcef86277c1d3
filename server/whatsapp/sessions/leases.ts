import type { Database } from "../../../db/client.ts";
import type { Clock } from "../../clock.ts";
import {
  countActiveConnections,
  countInstances,
  deleteInstance,
  deleteLease,
  deleteLeasesOf,
  deleteStaleInstances,
  leaseHolder,
  liveLeaseHolder,
  markInstanceSeen,
  orphanConnections,
  renewLeases,
  takeLease,
} from "./leases_repository.ts";

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
    const before = await leaseHolder(this.db, companyId, whatsappId);
    await takeLease(
      this.db,
      companyId,
      whatsappId,
      this.holder,
      this.#expiry(now),
      now.toISOString(),
    );
    const held = await leaseHolder(this.db, companyId, whatsappId) === this.holder;
    return { held, takenOver: held && before !== undefined && before !== this.holder };
  }

  /** Renews the leases we hold among `whatsappIds`; answers those we still hold. */
  async renew(whatsappIds: number[]): Promise<Set<number>> {
    if (whatsappIds.length === 0) return new Set();
    const now = this.clock.now();
    return new Set(
      await renewLeases(this.db, this.holder, whatsappIds, this.#expiry(now), now.toISOString()),
    );
  }

  /** The process whose lease on the connection has not expired, if any. */
  async liveHolder(companyId: number, whatsappId: number): Promise<string | undefined> {
    return await liveLeaseHolder(this.db, companyId, whatsappId, this.clock.now().toISOString());
  }

  async release(companyId: number, whatsappId: number) {
    await deleteLease(this.db, companyId, whatsappId, this.holder);
  }

  async releaseAll() {
    await deleteLeasesOf(this.db, this.holder);
    await this.leave();
  }

  /**
   * Says this process is alive, and answers how many connections each live process should hold:
   * the connections that should run divided by the live processes, rounded up. Rows of processes
   * not seen for a lease period are deleted.
   */
  async fairShare(): Promise<number> {
    const now = this.clock.now();
    const stale = new Date(now.getTime() - this.seconds * 1000).toISOString();
    await markInstanceSeen(this.db, this.holder, now.toISOString());
    await deleteStaleInstances(this.db, stale);
    const live = await countInstances(this.db);
    const total = await countActiveConnections(this.db);
    return Math.ceil(total / Math.max(1, live));
  }

  async leave() {
    await deleteInstance(this.db, this.holder);
  }

  /** Connections that should run (CONNECTED or OPENING) and that nobody holds a live lease on. */
  async orphans(): Promise<{ id: number; companyId: number }[]> {
    return await orphanConnections(this.db, this.clock.now().toISOString());
  }
}
