import type { Database } from "../../db/client.ts";
import { crossCompany } from "../../db/tenancy.ts";

/**
 * SQL of the push queue (push_deliveries; send.ts). The job's scans look at every company's queue
 * on purpose (stale claims, due rows, old rows); each row found is then claimed, read and written
 * with its company named.
 */

export type QueuedPush = { subscriptionId: number; eventKey: string; payload: string };

/**
 * Queues pushes. The unique push_deliveries_once (subscriptionId, eventKey) makes a repeated
 * insert of one fact for one device a no-op: the event heard twice, or told by two processes.
 */
export async function queuePushes(
  db: Database,
  companyId: number,
  rows: QueuedPush[],
  now: string,
) {
  if (rows.length === 0) return;
  await db.insertInto("push_deliveries").values(rows.map((row) => ({
    companyId,
    ...row,
    nextAttemptAt: now,
    claimId: null,
    claimedUntil: null,
    lastStatus: null,
    createdAt: now,
    updatedAt: now,
  }))).onConflict((oc) => oc.columns(["subscriptionId", "eventKey"]).doNothing()).execute();
}

/** Claims left by a process that died mid-send: their rows are due again. */
export async function releaseStalePushes(db: Database, now: string) {
  await crossCompany(db).updateTable("push_deliveries")
    .set({ status: "pending", claimId: null, claimedUntil: null, updatedAt: now })
    .where("status", "=", "sending").where("claimedUntil", "<", now).execute();
}

/** Due pending rows, oldest first (push_deliveries_due). */
export async function duePushes(db: Database, now: string, limit: number) {
  return await crossCompany(db).selectFrom("push_deliveries").select(["id", "companyId"])
    .where("status", "=", "pending").where("nextAttemptAt", "<=", now)
    .orderBy("nextAttemptAt").orderBy("id").limit(limit).execute();
}

/**
 * pending -> sending under `claimId`, read with its device in the same step; undefined when
 * another tick (of this process or another) took it first: that guarded UPDATE is what stops a
 * second send of one row.
 */
export async function claimPush(
  db: Database,
  companyId: number,
  id: number,
  claimId: string,
  claimedUntil: string,
) {
  const claimed = await db.updateTable("push_deliveries")
    .set({ status: "sending", claimId, claimedUntil })
    .where("id", "=", id).where("companyId", "=", companyId).where("status", "=", "pending")
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return undefined;
  return await db.selectFrom("push_deliveries as d")
    .innerJoin("push_subscriptions as s", "s.id", "d.subscriptionId")
    .select([
      "d.id",
      "d.companyId",
      "d.subscriptionId",
      "d.payload",
      "d.attempts",
      "s.endpoint",
      "s.p256dh",
      "s.auth",
    ])
    .where("d.id", "=", id).where("d.companyId", "=", companyId).executeTakeFirst();
}

/** The attempt's outcome, written only by the claim that made it. */
export async function finishPush(
  db: Database,
  companyId: number,
  id: number,
  claimId: string,
  values: {
    status: "pending" | "sent" | "failed";
    attempts: number;
    nextAttemptAt?: string;
    lastStatus: number | null;
    updatedAt: string;
  },
) {
  await db.updateTable("push_deliveries")
    .set({ ...values, claimId: null, claimedUntil: null })
    .where("id", "=", id).where("companyId", "=", companyId).where("claimId", "=", claimId)
    .execute();
}

/** Sent or failed rows older than `before`: a push is worth nothing a day later. */
export async function pruneOldPushes(db: Database, before: string) {
  await crossCompany(db).deleteFrom("push_deliveries").where("status", "in", ["sent", "failed"])
    .where("updatedAt", "<", before).execute();
}
