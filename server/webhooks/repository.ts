import type { Database } from "../../db/client.ts";
import { crossCompany } from "../../db/tenancy.ts";
import type { Webhook, WebhookDelivery, WebhooksTable } from "../../db/schema.ts";
import type { Updateable } from "kysely";
import {
  WEBHOOK_EVENTS,
  type WebhookDeliveryView,
  type WebhookEvent,
  type WebhookView,
} from "../../contract/webhook_types.ts";
import { pageAnswer, pageWindow } from "../paging.ts";
import { pageByName } from "../paging_repository.ts";
import { seal, unsealOrEmpty } from "../crypto/sealed.ts";

/** Webhook rows; every function takes the company (DESIGN: tenancy). */

export function eventsOf(row: Pick<Webhook, "events">): WebhookEvent[] {
  try {
    const parsed = JSON.parse(row.events);
    return Array.isArray(parsed) ? WEBHOOK_EVENTS.filter((e) => parsed.includes(e)) : [];
  } catch {
    return [];
  }
}

/**
 * The webhook as admins read it, its signing secret opened (sealed at rest, issue 35; "" when
 * DATA_ENCRYPTION_KEY changed since: the admin makes a new one).
 */
export async function webhookView(key: CryptoKey, row: Webhook): Promise<WebhookView> {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    events: eventsOf(row),
    secret: await unsealOrEmpty(key, row.secret),
    active: row.active === 1,
    failureCount: row.failureCount,
    disabledAt: row.disabledAt,
    disabledReason: row.disabledReason,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    lastDeliveryAt: row.lastDeliveryAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function deliveryView(row: WebhookDelivery): WebhookDeliveryView {
  return {
    id: row.id,
    eventId: row.eventId,
    event: row.event,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.nextAttemptAt,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    deliveredAt: row.deliveredAt,
    createdAt: row.createdAt,
  };
}

export async function pageWebhooks(
  db: Database,
  key: CryptoKey,
  companyId: number,
  pageNumber: number,
) {
  const window = pageWindow(pageNumber);
  const q = db.selectFrom("webhooks").where("companyId", "=", companyId);
  const { rows, count } = await pageByName(q, window);
  const views = await Promise.all(rows.map((row) => webhookView(key, row)));
  return pageAnswer("webhooks", views, count, window);
}

/**
 * Seals the signing secrets still stored in the clear (written before issue 35), once, at start:
 * a sealed value starts with `v1:`, which no generated secret (`whsec_...`) does, so a second run
 * finds nothing to do. Returns how many it sealed.
 */
export async function sealPlainSecrets(db: Database, key: CryptoKey): Promise<number> {
  // Every company's rows, once, at start; each update below names its row's company.
  const plain = await crossCompany(db).selectFrom("webhooks").select(["id", "companyId", "secret"])
    .where("secret", "not like", "v1:%").where("secret", "<>", "").execute();
  for (const row of plain) {
    await db.updateTable("webhooks").set({ secret: await seal(key, row.secret) })
      .where("companyId", "=", row.companyId).where("id", "=", row.id)
      .where("secret", "=", row.secret).execute();
  }
  return plain.length;
}

export async function findWebhook(
  db: Database,
  companyId: number,
  id: number,
): Promise<Webhook | undefined> {
  return await db.selectFrom("webhooks").selectAll().where("companyId", "=", companyId)
    .where("id", "=", id).executeTakeFirst();
}

export async function activeWebhooks(db: Database, companyId: number): Promise<Webhook[]> {
  return await db.selectFrom("webhooks").selectAll().where("companyId", "=", companyId)
    .where("active", "=", 1).execute();
}

export async function insertWebhook(
  db: Database,
  companyId: number,
  values: { name: string; url: string; events: string; secret: string },
  now: string,
): Promise<Webhook> {
  return await db.insertInto("webhooks").values({
    ...values,
    companyId,
    disabledAt: null,
    disabledReason: null,
    lastStatus: null,
    lastError: null,
    lastDeliveryAt: null,
    createdAt: now,
    updatedAt: now,
  }).returningAll().executeTakeFirstOrThrow();
}

export async function updateWebhook(
  db: Database,
  companyId: number,
  id: number,
  patch: Updateable<WebhooksTable>,
): Promise<Webhook | undefined> {
  return await db.updateTable("webhooks").set(patch).where("companyId", "=", companyId)
    .where("id", "=", id).returningAll().executeTakeFirst();
}

export async function deleteWebhook(db: Database, companyId: number, id: number) {
  const result = await db.deleteFrom("webhooks").where("companyId", "=", companyId)
    .where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The newest deliveries of a webhook, for its status on the page. */
export async function recentDeliveries(
  db: Database,
  companyId: number,
  webhookId: number,
  limit = 20,
): Promise<WebhookDeliveryView[]> {
  const rows = await db.selectFrom("webhook_deliveries").selectAll()
    .where("companyId", "=", companyId).where("webhookId", "=", webhookId)
    .orderBy("id", "desc").limit(limit).execute();
  return rows.map(deliveryView);
}
