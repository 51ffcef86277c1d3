import type { Database } from "../../../../db/client.ts";
import type { WhatsappCloud } from "../../../../db/schema.ts";
import { crossCompany } from "../../../../db/tenancy.ts";

/** The only SQL of the Cloud API channel (issue 45): its settings, webhook inbox, sends, templates. */

export async function findCloud(
  db: Database,
  companyId: number,
  whatsappId: number,
): Promise<WhatsappCloud | undefined> {
  return await db.selectFrom("whatsapp_cloud").selectAll().where("companyId", "=", companyId)
    .where("whatsappId", "=", whatsappId).executeTakeFirst();
}

/**
 * The connection a webhook URL names. The URL's random key is the only thing Meta sends that
 * names us, so this lookup crosses companies (tests/architecture/tenancy_test.ts).
 */
export async function findCloudByWebhookKey(
  db: Database,
  key: string,
): Promise<WhatsappCloud | undefined> {
  return await crossCompany(db).selectFrom("whatsapp_cloud").selectAll()
    .where("webhookKey", "=", key).executeTakeFirst();
}

/** The company's connection of a phone number id (a post's `metadata.phone_number_id`). */
export async function findCloudByPhoneNumberId(
  db: Database,
  companyId: number,
  phoneNumberId: string,
): Promise<WhatsappCloud | undefined> {
  return await db.selectFrom("whatsapp_cloud").selectAll().where("companyId", "=", companyId)
    .where("phoneNumberId", "=", phoneNumberId).orderBy("id").executeTakeFirst();
}

export async function insertCloud(
  db: Database,
  row: Omit<
    WhatsappCloud,
    | "id"
    | "displayNumber"
    | "verifiedName"
    | "qualityRating"
    | "lastError"
    | "templatesSyncedAt"
    | "backoffUntil"
    | "backoffLevel"
  >,
) {
  await db.insertInto("whatsapp_cloud").values(row).execute();
}

export async function updateCloud(
  db: Database,
  companyId: number,
  whatsappId: number,
  patch: Partial<Omit<WhatsappCloud, "id" | "companyId" | "whatsappId">>,
) {
  await db.updateTable("whatsapp_cloud").set(patch).where("companyId", "=", companyId)
    .where("whatsappId", "=", whatsappId).execute();
}

/** A verified post, kept before Meta gets its 200. */
export async function storeInbox(
  db: Database,
  row: { companyId: number; whatsappId: number; body: string; receivedAt: string },
): Promise<number> {
  const inserted = await db.insertInto("whatsapp_cloud_inbox").values(row).returning("id")
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export async function pendingInbox(
  db: Database,
  companyId: number,
  whatsappId: number,
  limit = 50,
) {
  return await db.selectFrom("whatsapp_cloud_inbox").selectAll().where("companyId", "=", companyId)
    .where("whatsappId", "=", whatsappId).where("processedAt", "is", null).orderBy("id")
    .limit(limit).execute();
}

export async function markInbox(
  db: Database,
  companyId: number,
  id: number,
  outcome: { processedAt: string | null; lastError: string | null },
) {
  await db.updateTable("whatsapp_cloud_inbox").set((eb) => ({
    ...outcome,
    attempts: eb("attempts", "+", 1),
  })).where("companyId", "=", companyId).where("id", "=", id).execute();
}

/**
 * Claims the send of an outbox wid: true the first time. A second claim means an earlier attempt
 * got as far as Meta, or may have (see sentWamid).
 */
export async function claimSend(
  db: Database,
  row: { companyId: number; whatsappId: number; wid: string; createdAt: string },
): Promise<boolean> {
  const inserted = await db.insertInto("whatsapp_cloud_sends").values(row)
    .onConflict((oc) => oc.columns(["companyId", "whatsappId", "wid"]).doNothing())
    .returning("id").executeTakeFirst();
  return inserted !== undefined;
}

export async function sentWamid(
  db: Database,
  companyId: number,
  whatsappId: number,
  wid: string,
): Promise<string | null | undefined> {
  const row = await db.selectFrom("whatsapp_cloud_sends").select("wamid")
    .where("companyId", "=", companyId).where("whatsappId", "=", whatsappId).where("wid", "=", wid)
    .executeTakeFirst();
  return row === undefined ? undefined : row.wamid;
}

export async function recordWamid(
  db: Database,
  companyId: number,
  whatsappId: number,
  wid: string,
  wamid: string,
) {
  await db.updateTable("whatsapp_cloud_sends").set({ wamid }).where("companyId", "=", companyId)
    .where("whatsappId", "=", whatsappId).where("wid", "=", wid).execute();
}

/**
 * Meta's id for a send whose answer we never read (a crash or a timeout after the request left):
 * a status webhook brings it back with our wid (biz_opaque_callback_data). The claim, the
 * message and its outbox row take it, in one transaction, and the message's "may have been sent"
 * error goes: the status that follows sets its ack. Whether it adopted anything (only a claim
 * still without Meta's id does).
 */
export async function adoptWamid(
  db: Database,
  companyId: number,
  whatsappId: number,
  wid: string,
  wamid: string,
  now: string,
): Promise<boolean> {
  return await db.transaction().execute(async (trx) => {
    const claim = await trx.updateTable("whatsapp_cloud_sends").set({ wamid })
      .where("companyId", "=", companyId).where("whatsappId", "=", whatsappId)
      .where("wid", "=", wid).where("wamid", "is", null).executeTakeFirst();
    if (Number(claim.numUpdatedRows) === 0) return false;
    await trx.updateTable("messages").set({ wid: wamid, sendError: null, updatedAt: now })
      .where("companyId", "=", companyId).where("whatsappId", "=", whatsappId)
      .where("wid", "=", wid).execute();
    await trx.updateTable("outbox").set({
      status: "sent",
      lastError: null,
      sentAt: now,
      updatedAt: now,
    })
      .where("companyId", "=", companyId).where("whatsappId", "=", whatsappId)
      .where("wid", "=", wid).where("status", "in", ["failed", "pending", "sending"]).execute();
    return true;
  });
}

/** A claim whose Graph call failed before Meta accepted it: the next attempt may send. */
export async function releaseSend(
  db: Database,
  companyId: number,
  whatsappId: number,
  wid: string,
) {
  await db.deleteFrom("whatsapp_cloud_sends").where("companyId", "=", companyId)
    .where("whatsappId", "=", whatsappId).where("wid", "=", wid).where("wamid", "is", null)
    .execute();
}

export type TemplateRow = {
  name: string;
  language: string;
  status: string;
  category: string;
  parameters: number;
  body: string;
};

/** Replaces the connection's templates with what Meta lists now (one transaction). */
export async function replaceTemplates(
  db: Database,
  companyId: number,
  whatsappId: number,
  templates: TemplateRow[],
  now: string,
) {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("whatsapp_cloud_templates").where("companyId", "=", companyId)
      .where("whatsappId", "=", whatsappId).execute();
    for (const t of templates) {
      await trx.insertInto("whatsapp_cloud_templates")
        .values({ companyId, whatsappId, ...t, syncedAt: now })
        .onConflict((oc) => oc.columns(["companyId", "whatsappId", "name", "language"]).doNothing())
        .execute();
    }
    await trx.updateTable("whatsapp_cloud").set({ templatesSyncedAt: now })
      .where("companyId", "=", companyId).where("whatsappId", "=", whatsappId).execute();
  });
}

export async function listTemplates(db: Database, companyId: number, whatsappId: number) {
  return await db.selectFrom("whatsapp_cloud_templates")
    .select(["name", "language", "status", "category", "parameters", "body"])
    .where("companyId", "=", companyId).where("whatsappId", "=", whatsappId)
    .orderBy("name").orderBy("language").execute();
}

export async function findTemplate(
  db: Database,
  companyId: number,
  whatsappId: number,
  name: string,
  language: string,
) {
  return await db.selectFrom("whatsapp_cloud_templates").selectAll()
    .where("companyId", "=", companyId).where("whatsappId", "=", whatsappId)
    .where("name", "=", name).where("language", "=", language).executeTakeFirst();
}

/**
 * Connections with stored posts not yet processed (a restart between the 200 and the work, or a
 * failure): the cloud_webhooks job scans every company, then processes each with its company.
 */
export async function connectionsWithPendingPosts(db: Database) {
  return await crossCompany(db).selectFrom("whatsapp_cloud_inbox")
    .select(["companyId", "whatsappId"]).where("processedAt", "is", null)
    .groupBy(["companyId", "whatsappId"]).limit(500).execute();
}

/**
 * Connections whose templates were never synced or not since `before` (the cloud_templates job
 * scans every company, then syncs each with its company). A failed sync leaves templatesSyncedAt
 * as it was, so the next tick tries again; a sync that runs twice replaces the list twice.
 */
export async function connectionsDueForTemplates(db: Database, before: string, limit = 100) {
  return await crossCompany(db).selectFrom("whatsapp_cloud").select(["companyId", "whatsappId"])
    .where((eb) =>
      eb.or([eb("templatesSyncedAt", "is", null), eb("templatesSyncedAt", "<", before)])
    )
    .orderBy("templatesSyncedAt").orderBy("id").limit(limit).execute();
}
