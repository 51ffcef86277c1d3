import type { ExpressionBuilder } from "kysely";
import type { Database } from "../../db/client.ts";
import { crossCompany } from "../../db/tenancy.ts";
import type { Campaign, CampaignShipping, DB, FileListOption } from "../../db/schema.ts";

/**
 * SQL of the campaign dispatcher (dispatcher.ts), its answers (answers.ts) and the background
 * number check (number_check.ts). The job's scans look at every company on purpose (which
 * campaigns are due, which connections have work, which answers arrived); everything they find is
 * then read and written with its company named.
 */

// ---- start ----

/** PROGRAMADA campaigns of every company whose scheduledAt has passed (campaigns_status). */
export async function dueCampaigns(db: Database, now: string, limit: number): Promise<Campaign[]> {
  return await crossCompany(db).selectFrom("campaigns").selectAll()
    .where("status", "=", "PROGRAMADA").where("scheduledAt", "<=", now).orderBy("scheduledAt")
    .limit(limit).execute();
}

export type UncheckedItem = { id: number; number: string; contactListId: number };

/** List items not checked on WhatsApp yet, oldest first; the whole company's without a list. */
export async function uncheckedItems(
  db: Database,
  companyId: number,
  contactListId: number | null,
  limit: number,
): Promise<UncheckedItem[]> {
  let q = db.selectFrom("contact_list_items")
    .select(["id", "number", "contactListId"]).where("companyId", "=", companyId);
  if (contactListId !== null) q = q.where("contactListId", "=", contactListId);
  return await q.where("isWhatsappValid", "is", null).orderBy("id").limit(limit).execute();
}

/** Companies that have unchecked list items (the background check's pass over every company). */
export async function companiesWithUncheckedItems(db: Database): Promise<number[]> {
  const rows = await crossCompany(db).selectFrom("contact_list_items").select("companyId")
    .where("isWhatsappValid", "is", null).groupBy("companyId").execute();
  return rows.map((r) => r.companyId);
}

/** Stores check answers on items still unchecked (a second answer changes nothing). */
export async function setItemsValid(
  db: Database,
  companyId: number,
  ids: number[],
  valid: 0 | 1,
  now: string,
) {
  await db.updateTable("contact_list_items").set({
    isWhatsappValid: valid,
    checkedAt: now,
  }).where("companyId", "=", companyId).where("id", "in", ids)
    .where("isWhatsappValid", "is", null).execute();
}

/** The company's connection ids, the default connection first (only `whatsappId` if given). */
export async function connectionIds(
  db: Database,
  companyId: number,
  whatsappId?: number,
): Promise<number[]> {
  let q = db.selectFrom("whatsapps").select(["id"]).where("companyId", "=", companyId);
  if (whatsappId !== undefined) q = q.where("id", "=", whatsappId);
  const rows = await q.orderBy("isDefault", "desc").orderBy("id").execute();
  return rows.map((r) => r.id);
}

export type NewShipping = {
  companyId: number;
  campaignId: number;
  contactListItemId: number | null;
  number: string;
  name: string;
  message: string;
  confirmationMessage: string | null;
  /** The recipient's filled template (JSON), or null: `message` goes as free text. */
  template: string | null;
  createdAt: string;
  updatedAt: string;
};

/**
 * Writes shipping rows while the campaign is still PROGRAMADA; false (nothing written) once it is
 * not. (campaignId, number) is unique: a number twice in the list, or a start that resumes after
 * a crash, still gets one row.
 */
export async function insertShippingWhileDue(
  trx: Database,
  companyId: number,
  campaignId: number,
  rows: NewShipping[],
): Promise<boolean> {
  const current = await trx.selectFrom("campaigns").select("status")
    .where("id", "=", campaignId).where("companyId", "=", companyId).executeTakeFirst();
  if (current?.status !== "PROGRAMADA") return false;
  await trx.insertInto("campaign_shipping").values(rows)
    .onConflict((oc) => oc.columns(["campaignId", "number"]).doNothing()).execute();
  return true;
}

/** PROGRAMADA -> EM_ANDAMENTO (or FINALIZADA without recipients); false if it was not due. */
export async function markStarted(
  db: Database,
  companyId: number,
  campaignId: number,
  hasRecipients: boolean,
  now: string,
): Promise<boolean> {
  const started = await db.updateTable("campaigns").set(
    hasRecipients
      ? { status: "EM_ANDAMENTO", startedAt: now, updatedAt: now }
      : { status: "FINALIZADA", startedAt: now, completedAt: now, updatedAt: now },
  ).where("id", "=", campaignId).where("companyId", "=", companyId)
    .where("status", "=", "PROGRAMADA").executeTakeFirst();
  return Number(started.numUpdatedRows) > 0;
}

// ---- send ----

/** The connections (of every company) with a running campaign. */
export async function sendingConnections(db: Database) {
  return await crossCompany(db).selectFrom("campaigns").select(["whatsappId", "companyId"])
    .where("status", "=", "EM_ANDAMENTO").where("whatsappId", "is not", null).distinct().execute();
}

export async function findPacing(db: Database, companyId: number, whatsappId: number) {
  return await db.selectFrom("campaign_pacing").selectAll()
    .where("whatsappId", "=", whatsappId).where("companyId", "=", companyId).executeTakeFirst();
}

/** Campaign messages of the connection still waiting in the outbox (outbox_due). */
export async function campaignMessagesInFlight(
  db: Database,
  companyId: number,
  whatsappId: number,
): Promise<number> {
  const inFlight = await db.selectFrom("outbox").where("whatsappId", "=", whatsappId)
    .where("status", "in", ["pending", "sending"]).where("ticketId", "is", null)
    .where("companyId", "=", companyId)
    .select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(inFlight.n);
}

export async function runningCampaignsOn(
  db: Database,
  companyId: number,
  whatsappId: number,
): Promise<Campaign[]> {
  return await db.selectFrom("campaigns").selectAll()
    .where("companyId", "=", companyId).where("whatsappId", "=", whatsappId)
    .where("status", "=", "EM_ANDAMENTO").orderBy("id").execute();
}

/** The next pending rows of these campaigns, campaign by campaign (campaign_shipping_status). */
export async function pendingShipping(
  db: Database,
  companyId: number,
  campaignIds: number[],
  limit: number,
): Promise<CampaignShipping[]> {
  return await db.selectFrom("campaign_shipping").selectAll()
    .where("campaignId", "in", campaignIds).where("status", "=", "pending")
    .where("companyId", "=", companyId)
    .orderBy("campaignId").orderBy("id").limit(limit).execute();
}

/** The file list's message and option files, in order. */
export async function fileListOf(
  db: Database,
  companyId: number,
  fileListId: number,
): Promise<{ message: string; options: FileListOption[] } | undefined> {
  const list = await db.selectFrom("file_lists").select(["message"])
    .where("companyId", "=", companyId).where("id", "=", fileListId)
    .executeTakeFirst();
  if (!list) return undefined;
  const options = await db.selectFrom("file_list_options").selectAll()
    .where("companyId", "=", companyId).where("fileListId", "=", fileListId)
    .orderBy("id").execute();
  return { message: list.message, options };
}

/** Which of these numbers opted out of campaigns. */
export async function optedOut(
  db: Database,
  companyId: number,
  numbers: string[],
): Promise<Set<string>> {
  const rows = await db.selectFrom("campaign_opt_outs").select("number")
    .where("companyId", "=", companyId).where("number", "in", numbers).execute();
  return new Set(rows.map((o) => o.number));
}

/** Which of these campaigns are still EM_ANDAMENTO. */
export async function stillRunning(
  db: Database,
  companyId: number,
  campaignIds: number[],
): Promise<Set<number>> {
  const rows = await db.selectFrom("campaigns").select("id").where("id", "in", campaignIds)
    .where("companyId", "=", companyId).where("status", "=", "EM_ANDAMENTO").execute();
  return new Set(rows.map((c) => c.id));
}

/** Where the connection's pacing stands after a chunk (one row per connection). */
export async function savePacing(
  db: Database,
  companyId: number,
  whatsappId: number,
  nextSendAt: string,
  sentSinceLong: number,
) {
  await db.insertInto("campaign_pacing").values({
    whatsappId,
    companyId,
    nextSendAt,
    sentSinceLong,
  }).onConflict((oc) =>
    oc.column("whatsappId").doUpdateSet({
      nextSendAt,
      sentSinceLong,
    })
  ).execute();
}

/** pending -> skipped (the number opted out). */
export async function skipShipping(db: Database, companyId: number, id: number, now: string) {
  await db.updateTable("campaign_shipping").set({ status: "skipped", updatedAt: now })
    .where("id", "=", id).where("companyId", "=", companyId).where("status", "=", "pending")
    .execute();
}

/**
 * The claim: pending -> awaiting (its confirmation request goes now) or queued (its message goes
 * now), guarded by the state the tick read (pending, and which of the two sends is due). False
 * when another tick already moved the row.
 */
export async function claimShipping(
  db: Database,
  companyId: number,
  row: Pick<CampaignShipping, "id" | "confirmationRequestedAt">,
  asksFirst: boolean,
  now: string,
): Promise<boolean> {
  const claim = await db.updateTable("campaign_shipping").set({
    status: asksFirst ? "awaiting" : "queued",
    ...(asksFirst ? { confirmationRequestedAt: now } : {}),
    updatedAt: now,
  }).where("id", "=", row.id).where("companyId", "=", companyId)
    .where("status", "=", "pending").where(
      "confirmationRequestedAt",
      row.confirmationRequestedAt === null ? "is" : "is not",
      null,
    ).executeTakeFirst();
  return Number(claim.numUpdatedRows) > 0;
}

export type CampaignOutboxRow = {
  companyId: number;
  whatsappId: number;
  wid: string;
  toJid: string;
  body: string;
  mediaPath: string | null;
  mediaMimetype: string | null;
  mediaName: string | null;
  /** A template send (JSON {name, language, parameters}); `body` is then its filled text. */
  template?: string | null;
  campaignShippingId: number;
  now: string;
};

/** A campaign message in the outbox (no ticket, no message row); returns its id. */
export async function insertCampaignOutbox(db: Database, row: CampaignOutboxRow) {
  const inserted = await db.insertInto("outbox").values({
    companyId: row.companyId,
    whatsappId: row.whatsappId,
    ticketId: null,
    messageId: null,
    wid: row.wid,
    toJid: row.toJid,
    body: row.body,
    mediaPath: row.mediaPath,
    mediaMimetype: row.mediaMimetype,
    mediaName: row.mediaName,
    quotedWid: null,
    template: row.template ?? null,
    campaignShippingId: row.campaignShippingId,
    nextAttemptAt: row.now,
    createdAt: row.now,
    updatedAt: row.now,
  }).returning("id").executeTakeFirstOrThrow();
  return inserted.id;
}

/** The row's outbox row: its confirmation request's or its message's. */
export async function setShippingOutbox(
  db: Database,
  companyId: number,
  id: number,
  outbox: { confirmationOutboxId: number } | { outboxId: number },
) {
  await db.updateTable("campaign_shipping").set(outbox).where("id", "=", id)
    .where("companyId", "=", companyId).execute();
}

// ---- reconcile ----

/**
 * The row's own outbox row has this status: a lookup by the outbox's primary key (an `IN` over
 * every sent outbox row would read the whole, ever-growing table each tick).
 */
export function outboxIs(
  eb: ExpressionBuilder<DB, "campaign_shipping">,
  status: "pending" | "sent" | "failed",
  column: "outboxId" | "confirmationOutboxId" = "outboxId",
) {
  return eb.exists(
    eb.selectFrom("outbox").select("outbox.id")
      .whereRef("outbox.id", "=", `campaign_shipping.${column}`)
      .where("outbox.status", "=", status),
  );
}

/** Running campaigns (of every company), and cancelled ones whose last messages are queued. */
export async function campaignsToReconcile(db: Database) {
  return await crossCompany(db).selectFrom("campaigns").select(["id", "companyId"])
    .where((eb) =>
      eb.or([
        eb("status", "=", "EM_ANDAMENTO"),
        eb.and([
          eb("status", "=", "CANCELADA"),
          eb.exists(
            eb.selectFrom("campaign_shipping").select("campaign_shipping.id")
              .whereRef("campaign_shipping.campaignId", "=", "campaigns.id")
              .where("campaign_shipping.status", "=", "queued"),
          ),
        ]),
      ])
    ).execute();
}

/**
 * Moves a campaign's rows on from what the outbox did: queued and sent -> delivered (deliveredAt
 * = the outbox's sentAt); queued and given up -> failed; a confirmation request given up ->
 * failed (it will never be answered). Returns how many rows each changed.
 */
export async function settleShipping(
  db: Database,
  companyId: number,
  campaignId: number,
  now: string,
): Promise<{ delivered: number; failed: number; unasked: number }> {
  const done = await db.updateTable("campaign_shipping").set((eb) => ({
    status: "delivered",
    deliveredAt: eb.selectFrom("outbox").select("sentAt")
      .whereRef("outbox.id", "=", "campaign_shipping.outboxId"),
    updatedAt: now,
  })).where("campaignId", "=", campaignId).where("companyId", "=", companyId)
    .where("status", "=", "queued")
    .where((eb) => outboxIs(eb, "sent")).executeTakeFirst();
  const failed = await db.updateTable("campaign_shipping").set({
    status: "failed",
    updatedAt: now,
  }).where("campaignId", "=", campaignId).where("companyId", "=", companyId)
    .where("status", "=", "queued")
    .where((eb) => outboxIs(eb, "failed")).executeTakeFirst();
  const unasked = await db.updateTable("campaign_shipping").set({
    status: "failed",
    updatedAt: now,
  }).where("campaignId", "=", campaignId).where("companyId", "=", companyId)
    .where("status", "=", "awaiting")
    .where((eb) => outboxIs(eb, "failed", "confirmationOutboxId")).executeTakeFirst();
  return {
    delivered: Number(done.numUpdatedRows),
    failed: Number(failed.numUpdatedRows),
    unasked: Number(unasked.numUpdatedRows),
  };
}

/** Has the campaign a row still pending, awaiting or queued? */
export async function hasOpenShipping(
  db: Database,
  companyId: number,
  campaignId: number,
): Promise<boolean> {
  const open = await db.selectFrom("campaign_shipping").select("id")
    .where("campaignId", "=", campaignId).where("companyId", "=", companyId)
    .where("status", "in", ["pending", "awaiting", "queued"])
    .limit(1).executeTakeFirst();
  return open !== undefined;
}

/** EM_ANDAMENTO -> FINALIZADA; false if it was not running any more. */
export async function markFinished(
  db: Database,
  companyId: number,
  campaignId: number,
  now: string,
): Promise<boolean> {
  const result = await db.updateTable("campaigns").set({
    status: "FINALIZADA",
    completedAt: now,
    updatedAt: now,
  }).where("id", "=", campaignId).where("companyId", "=", companyId)
    .where("status", "=", "EM_ANDAMENTO").executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

// ---- answers ----

/** The answers cursor (campaign_job_state): the last inbound message id read. */
export async function answersCursor(db: Database, key: string): Promise<number | undefined> {
  const state = await db.selectFrom("campaign_job_state").select("value")
    .where("key", "=", key).executeTakeFirst();
  return state ? Number(state.value) : undefined;
}

/**
 * First run: the cursor starts after the newest message of any company (history before
 * campaigns existed is not read).
 */
export async function startAnswersCursor(db: Database, key: string) {
  const newest = await crossCompany(db).selectFrom("messages")
    .select((eb) => eb.fn.max("id").as("id")).executeTakeFirst();
  await db.insertInto("campaign_job_state").values({
    key,
    value: String(newest?.id ?? 0),
  }).onConflict((oc) => oc.column("key").doNothing()).execute();
}

/** Moves the cursor, only from where this tick read it. */
export async function moveAnswersCursor(db: Database, key: string, from: number, to: number) {
  await db.updateTable("campaign_job_state").set({ value: String(to) })
    .where("key", "=", key).where("value", "=", String(from)).execute();
}

/** Inbound messages of contacts (not groups) of every company after the cursor, in id order. */
export async function inboundAfter(db: Database, after: number, limit: number) {
  return await crossCompany(db).selectFrom("messages")
    .innerJoin("contacts", "contacts.id", "messages.contactId")
    .select([
      "messages.id",
      "messages.companyId",
      "messages.whatsappId",
      "messages.body",
      "contacts.number",
    ])
    .where("messages.id", ">", after).where("messages.fromMe", "=", 0)
    .where("contacts.isGroup", "=", 0).orderBy("messages.id").limit(limit).execute();
}

const LIVE_STATUSES = ["EM_ANDAMENTO", "CANCELADA", "PROGRAMADA"] as const;

/**
 * An opt-out: the number is recorded (campaign_opt_outs, unique (companyId, number)) and its rows
 * still pending or awaiting in live campaigns are skipped. Returns the campaigns touched.
 */
export async function optOut(
  db: Database,
  companyId: number,
  o: { number: string; word: string; messageId: number; now: string },
): Promise<number[]> {
  await db.insertInto("campaign_opt_outs").values({
    companyId,
    number: o.number,
    word: o.word,
    messageId: o.messageId,
    createdAt: o.now,
  }).onConflict((oc) => oc.columns(["companyId", "number"]).doNothing()).execute();
  const running = db.selectFrom("campaigns").select("id").where("companyId", "=", companyId)
    .where("status", "in", LIVE_STATUSES);
  const skipped = await db.updateTable("campaign_shipping").set({
    status: "skipped",
    updatedAt: o.now,
  }).where("companyId", "=", companyId).where("number", "=", o.number)
    .where("status", "in", ["pending", "awaiting"]).where("campaignId", "in", running)
    .returning("campaignId").execute();
  return skipped.map((s) => s.campaignId);
}

/**
 * An answer to a confirmation request on that connection: the row goes back to pending with
 * confirmation = 1 (the campaign message follows). Returns the campaigns touched.
 */
export async function confirmShipping(
  db: Database,
  companyId: number,
  a: { number: string; whatsappId: number; now: string },
): Promise<number[]> {
  const running = db.selectFrom("campaigns").select("id").where("companyId", "=", companyId)
    .where("status", "in", LIVE_STATUSES);
  const confirmed = await db.updateTable("campaign_shipping").set({
    status: "pending",
    confirmation: 1,
    confirmedAt: a.now,
    updatedAt: a.now,
  }).where("companyId", "=", companyId).where("number", "=", a.number)
    .where("status", "=", "awaiting")
    .where("campaignId", "in", running.where("whatsappId", "=", a.whatsappId))
    .returning("campaignId").execute();
  return confirmed.map((s) => s.campaignId);
}
