import type { Database } from "../../db/client.ts";
import { crossCompany } from "../../db/tenancy.ts";
import type { Webhook, WebhookDeliveriesTable, WebhookDelivery } from "../../db/schema.ts";
import type { Updateable } from "kysely";

/**
 * SQL of the delivery queue (webhook_deliveries; delivery.ts). The job's scans look at every
 * company's queue on purpose (stale claims, due rows); each row found is then claimed, read and
 * written with its company named.
 */

/**
 * Queues one event for each of the company's webhooks that want it. The unique
 * webhook_deliveries_event (webhookId, eventId) makes a repeated insert (an event heard twice) a
 * no-op.
 */
export async function queueDeliveries(
  db: Database,
  companyId: number,
  webhookIds: number[],
  item: { eventId: string; event: string; payload: string; now: string },
) {
  const { eventId, event, payload, now } = item;
  await db.insertInto("webhook_deliveries").values(webhookIds.map((webhookId) => ({
    companyId,
    webhookId,
    eventId,
    event,
    payload,
    nextAttemptAt: now,
    claimId: null,
    claimedUntil: null,
    lastStatus: null,
    lastError: null,
    deliveredAt: null,
    createdAt: now,
    updatedAt: now,
  }))).onConflict((oc) => oc.columns(["webhookId", "eventId"]).doNothing()).execute();
}

/** Claims left by a process that died mid-send: their rows are due again. */
export async function releaseStaleClaims(db: Database, now: string) {
  await crossCompany(db).updateTable("webhook_deliveries")
    .set({ status: "pending", claimId: null, claimedUntil: null, updatedAt: now })
    .where("status", "=", "sending").where("claimedUntil", "<", now).execute();
}

/** Due pending rows of active webhooks, oldest first (webhook_deliveries_due). */
export async function dueDeliveries(db: Database, now: string, limit: number) {
  return await crossCompany(db).selectFrom("webhook_deliveries as d")
    .innerJoin("webhooks as w", "w.id", "d.webhookId")
    .select(["d.id", "d.companyId"])
    .where("d.status", "=", "pending").where("d.nextAttemptAt", "<=", now)
    .where("w.active", "=", 1).orderBy("d.nextAttemptAt").orderBy("d.id").limit(limit).execute();
}

/** pending -> sending under `claimId`; false when another tick took it. */
export async function claimDelivery(
  db: Database,
  companyId: number,
  id: number,
  claimId: string,
  claimedUntil: string,
): Promise<boolean> {
  const claimed = await db.updateTable("webhook_deliveries")
    .set({ status: "sending", claimId, claimedUntil })
    .where("id", "=", id).where("companyId", "=", companyId).where("status", "=", "pending")
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) > 0;
}

export async function findDelivery(
  db: Database,
  companyId: number,
  id: number,
): Promise<WebhookDelivery> {
  return await db.selectFrom("webhook_deliveries").selectAll().where("id", "=", id)
    .where("companyId", "=", companyId).executeTakeFirstOrThrow();
}

/** The attempt's outcome, written only by the claim that made it. */
export async function finishDelivery(
  db: Database,
  companyId: number,
  id: number,
  claimId: string,
  values: Updateable<WebhookDeliveriesTable>,
) {
  await db.updateTable("webhook_deliveries").set(values).where("id", "=", id)
    .where("companyId", "=", companyId).where("claimId", "=", claimId).execute();
}

/** The webhook's last status, and its failure streak (reset by a success). */
export async function recordAttempt(
  db: Database,
  companyId: number,
  webhookId: number,
  outcome: { ok: boolean; status: number | null; error: string | null },
  now: string,
): Promise<Webhook | undefined> {
  return await db.updateTable("webhooks").set((eb) => ({
    lastStatus: outcome.status,
    lastError: outcome.error,
    lastDeliveryAt: now,
    failureCount: outcome.ok ? 0 : eb("failureCount", "+", 1),
    updatedAt: now,
  })).where("id", "=", webhookId).where("companyId", "=", companyId).returningAll()
    .executeTakeFirst();
}

export async function disableWebhook(
  db: Database,
  companyId: number,
  webhookId: number,
  reason: string,
  now: string,
): Promise<Webhook> {
  return await db.updateTable("webhooks")
    .set({ active: 0, disabledAt: now, disabledReason: reason, updatedAt: now })
    .where("id", "=", webhookId).where("companyId", "=", companyId).returningAll()
    .executeTakeFirstOrThrow();
}
