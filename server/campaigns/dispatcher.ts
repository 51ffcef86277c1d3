import type { ExpressionBuilder } from "kysely";
import { getMimeType } from "hono/utils/mime";
import type { Database } from "../../db/client.ts";
import type { Campaign, CampaignShipping, DB } from "../../db/schema.ts";
import type { AppDeps } from "../context.ts";
import { log } from "../log.ts";
import { newMessageId } from "../whatsapp/jid.ts";
import { processAnswers } from "./answers.ts";
import { checkBatchOf, checkItems, connectedProviderOf } from "./number_check.ts";
import { filledTexts, recipientsOf, renderCampaignText } from "./recipients.ts";
import { campaignView } from "./repository.ts";
import { readCampaignSettings } from "./settings.ts";

/**
 * The campaign dispatcher (issue 13 deliverable 5). jobs/campaigns.ts calls `dispatchTick` every
 * second; all state is in the database, so a tick that runs twice or a restart in the middle
 * neither sends twice nor skips anyone:
 *
 * 1. start: a PROGRAMADA campaign whose scheduledAt has passed gets one shipping row per valid
 *    recipient (unique (campaignId, number): a resumed start adds only the missing ones), written
 *    400 at a time, then becomes EM_ANDAMENTO with startedAt;
 * 2. send: per connection, when its pacing row allows, the next pending rows are written to the
 *    outbox IN THE SAME TRANSACTION that moves each row on (pending -> awaiting | queued, guarded
 *    by the expected status) and advances the pacing; the outbox then delivers each exactly once;
 * 3. reconcile: rows whose outbox row was sent become delivered (deliveredAt = the outbox's sentAt);
 *    a campaign with nothing pending, awaiting or queued becomes FINALIZADA with completedAt.
 *
 * Pacing (seeds/002 section 9) is per connection (campaign_pacing), so two campaigns on one number
 * share it: `messageInterval` seconds between messages and `greaterInterval` after every
 * `longerIntervalAfter` messages. With both at 0 the dispatcher writes up to SEND_BATCH rows a
 * tick, and stops writing while MAX_IN_FLIGHT messages still wait in the outbox (the outbox sends
 * in order per connection: an agent's reply on that number waits behind at most those).
 */
export const SEND_BATCH = 500;
export const MAX_IN_FLIGHT = 500;
/** Rows moved per transaction. */
const CHUNK = 25;

export type TickReport = { started: number; queued: number; delivered: number; finished: number };

export async function dispatchTick(deps: AppDeps): Promise<TickReport> {
  const report: TickReport = { started: 0, queued: 0, delivered: 0, finished: 0 };
  await processAnswers(deps);
  report.started = await startDue(deps);
  report.queued = await sendDue(deps);
  const reconciled = await reconcile(deps);
  report.delivered = reconciled.delivered;
  report.finished = reconciled.finished;
  return report;
}

async function publishCampaign(deps: AppDeps, companyId: number, id: number) {
  const view = await campaignView(deps.db, companyId, id);
  if (view) {
    deps.events.emit("list.changed", {
      companyId,
      resource: "campaign",
      change: { action: "update", record: view },
    });
  }
}

// ---- 1. start ----

async function startDue(deps: AppDeps): Promise<number> {
  const now = deps.clock.now();
  const due = await deps.db.selectFrom("campaigns").selectAll().where("status", "=", "PROGRAMADA")
    .where("scheduledAt", "<=", now.toISOString()).orderBy("scheduledAt").limit(20).execute();
  let started = 0;
  for (const campaign of due) {
    try {
      if (await startOne(deps, campaign, now)) started++;
    } catch (error) {
      log.error("campaign start failed", { campaignId: campaign.id, error });
    }
  }
  return started;
}

async function startOne(deps: AppDeps, campaign: Campaign, now: Date): Promise<boolean> {
  const { companyId } = campaign;
  if (campaign.contactListId !== null) {
    // Numbers not checked yet are checked through the campaign's own connection first.
    const provider = campaign.whatsappId === null
      ? undefined
      : await connectedProviderOf(deps, companyId, campaign.whatsappId);
    const batch = provider ? checkBatchOf(provider) : 1;
    const unchecked = await deps.db.selectFrom("contact_list_items")
      .select(["id", "number", "contactListId"]).where("companyId", "=", companyId)
      .where("contactListId", "=", campaign.contactListId).where("isWhatsappValid", "is", null)
      .orderBy("id").limit(batch).execute();
    if (unchecked.length > 0) {
      if (!provider) return false; // waits for the connection
      await checkItems(deps, companyId, provider, unchecked);
      if (unchecked.length === batch) return false; // more to check next tick
    }
  }
  const settings = await readCampaignSettings(deps.db, companyId);
  const { messages, confirmations } = filledTexts(campaign);
  const stamp = now.toISOString();
  const recipients = await recipientsOf(deps.db, companyId, campaign);
  const rows = recipients.map((r, i) => ({
    companyId,
    campaignId: campaign.id,
    contactListItemId: r.itemId,
    number: r.number,
    name: r.name,
    message: renderCampaignText(messages[i % messages.length] ?? "", r, settings.variables, now),
    confirmationMessage: campaign.confirmation === 1 && confirmations.length > 0
      ? renderCampaignText(confirmations[i % confirmations.length], r, settings.variables, now)
      : null,
    createdAt: stamp,
    updatedAt: stamp,
  }));
  // Rows in short transactions (the app keeps answering), each only while the campaign is still
  // PROGRAMADA; (campaignId, number) unique: a number twice in the list, or a start that resumes
  // after a crash, still gets one row.
  for (let i = 0; i < rows.length; i += 400) {
    const stillDue = await deps.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom("campaigns").select("status")
        .where("id", "=", campaign.id).executeTakeFirst();
      if (current?.status !== "PROGRAMADA") return false;
      await trx.insertInto("campaign_shipping").values(rows.slice(i, i + 400))
        .onConflict((oc) => oc.columns(["campaignId", "number"]).doNothing()).execute();
      return true;
    });
    if (!stillDue) return false; // cancelled or edited meanwhile
  }
  const started = await deps.db.updateTable("campaigns").set(
    rows.length > 0
      ? { status: "EM_ANDAMENTO", startedAt: stamp, updatedAt: stamp }
      : { status: "FINALIZADA", startedAt: stamp, completedAt: stamp, updatedAt: stamp },
  ).where("id", "=", campaign.id).where("status", "=", "PROGRAMADA").executeTakeFirst();
  const startedNow = Number(started.numUpdatedRows) > 0;
  if (startedNow && rows.length === 0) {
    log.warn("campaign had no valid recipient", { campaignId: campaign.id });
  }
  if (startedNow) await publishCampaign(deps, companyId, campaign.id);
  return startedNow;
}

// ---- 2. send ----

type OutgoingFile = { path: string; name: string; mimetype: string; caption: string };

async function filesOf(db: Database, campaign: Campaign): Promise<OutgoingFile[]> {
  if (campaign.fileListId === null) return [];
  const list = await db.selectFrom("file_lists").select(["message"])
    .where("companyId", "=", campaign.companyId).where("id", "=", campaign.fileListId)
    .executeTakeFirst();
  if (!list) return [];
  const options = await db.selectFrom("file_list_options").selectAll()
    .where("companyId", "=", campaign.companyId).where("fileListId", "=", campaign.fileListId)
    .orderBy("id").execute();
  return options.map((o, i) => ({
    path: o.path,
    name: o.name,
    mimetype: o.mediaType,
    caption: i === 0 ? list.message : "",
  }));
}

async function sendDue(deps: AppDeps): Promise<number> {
  const connections = await deps.db.selectFrom("campaigns").select(["whatsappId", "companyId"])
    .where("status", "=", "EM_ANDAMENTO").where("whatsappId", "is not", null).distinct().execute();
  let queued = 0;
  for (const { whatsappId, companyId } of connections) {
    if (whatsappId === null || !deps.sessions.connectedProvider(whatsappId)) continue;
    try {
      queued += await sendOnConnection(deps, companyId, whatsappId);
    } catch (error) {
      log.error("campaign send failed", { whatsappId, error });
    }
  }
  return queued;
}

async function sendOnConnection(
  deps: AppDeps,
  companyId: number,
  whatsappId: number,
): Promise<number> {
  const now = deps.clock.now();
  const stamp = now.toISOString();
  const pacing = await deps.db.selectFrom("campaign_pacing").selectAll()
    .where("whatsappId", "=", whatsappId).executeTakeFirst();
  if (pacing && pacing.nextSendAt > stamp) return 0;
  const inFlight = await deps.db.selectFrom("outbox").where("whatsappId", "=", whatsappId)
    .where("status", "in", ["pending", "sending"]).where("ticketId", "is", null)
    .select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  if (Number(inFlight.n) >= MAX_IN_FLIGHT) return 0;

  const s = await readCampaignSettings(deps.db, companyId);
  const sinceLong = pacing?.sentSinceLong ?? 0;
  const paced = s.messageInterval > 0;
  const longPauses = s.longerIntervalAfter > 0 && s.greaterInterval > 0;
  let budget = paced ? 1 : SEND_BATCH;
  if (longPauses) budget = Math.min(budget, Math.max(1, s.longerIntervalAfter - sinceLong));

  const campaigns = await deps.db.selectFrom("campaigns").selectAll()
    .where("companyId", "=", companyId).where("whatsappId", "=", whatsappId)
    .where("status", "=", "EM_ANDAMENTO").orderBy("id").execute();
  const byId = new Map(campaigns.map((c) => [c.id, c]));
  const rows = await deps.db.selectFrom("campaign_shipping").selectAll()
    .where("campaignId", "in", [...byId.keys()]).where("status", "=", "pending")
    .orderBy("campaignId").orderBy("id").limit(budget).execute();
  if (rows.length === 0) return 0;
  const files = new Map<number, OutgoingFile[]>();
  for (const c of campaigns) files.set(c.id, await filesOf(deps.db, c));
  const optOuts = new Set(
    (await deps.db.selectFrom("campaign_opt_outs").select("number")
      .where("companyId", "=", companyId).where("number", "in", rows.map((r) => r.number))
      .execute()).map((o) => o.number),
  );

  // Short transactions of CHUNK rows: each row and its outbox rows are still written together,
  // and the database thread serves the rest of the app between two chunks.
  let sent = 0;
  let sinceLongNow = sinceLong;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    sent += await deps.db.transaction().execute(async (trx) => {
      // Read again inside the transaction: a campaign cancelled since sends nothing more.
      const live = new Set(
        (await trx.selectFrom("campaigns").select("id").where("id", "in", [...byId.keys()])
          .where("status", "=", "EM_ANDAMENTO").execute()).map((c) => c.id),
      );
      let count = 0;
      for (const row of chunk) {
        if (!live.has(row.campaignId)) continue;
        const campaign = byId.get(row.campaignId)!;
        const moved = await moveRow(trx, campaign, row, files.get(campaign.id) ?? [], {
          optedOut: optOuts.has(row.number),
          stamp,
        });
        if (moved) count++;
      }
      let next = sinceLongNow + count;
      let nextSendAt = new Date(now.getTime() + s.messageInterval * 1000);
      if (longPauses && next >= s.longerIntervalAfter) {
        next = 0;
        nextSendAt = new Date(now.getTime() + s.greaterInterval * 1000);
      }
      await trx.insertInto("campaign_pacing").values({
        whatsappId,
        companyId,
        nextSendAt: nextSendAt.toISOString(),
        sentSinceLong: next,
      }).onConflict((oc) =>
        oc.column("whatsappId").doUpdateSet({
          nextSendAt: nextSendAt.toISOString(),
          sentSinceLong: next,
        })
      ).execute();
      sinceLongNow = next;
      return count;
    });
    if (sent > 0) deps.sessions.kickOutbox(whatsappId);
  }
  return sent;
}

/** Moves one pending row on, writing its outbox rows in the caller's transaction. */
async function moveRow(
  trx: Database,
  campaign: Campaign,
  row: CampaignShipping,
  files: OutgoingFile[],
  o: { optedOut: boolean; stamp: string },
): Promise<boolean> {
  if (o.optedOut) {
    await trx.updateTable("campaign_shipping").set({ status: "skipped", updatedAt: o.stamp })
      .where("id", "=", row.id).where("status", "=", "pending").execute();
    return false;
  }
  const asksFirst = campaign.confirmation === 1 && row.confirmationMessage !== null &&
    row.confirmationRequestedAt === null;
  // The claim comes first, guarded by the state this tick read (pending, and which of the two
  // sends is due): a row another tick already moved is left alone and nothing is queued for it.
  const claim = await trx.updateTable("campaign_shipping").set({
    status: asksFirst ? "awaiting" : "queued",
    ...(asksFirst ? { confirmationRequestedAt: o.stamp } : {}),
    updatedAt: o.stamp,
  }).where("id", "=", row.id).where("status", "=", "pending").where(
    "confirmationRequestedAt",
    row.confirmationRequestedAt === null ? "is" : "is not",
    null,
  ).executeTakeFirst();
  if (Number(claim.numUpdatedRows) === 0) return false;
  const toJid = `${row.number}@s.whatsapp.net`;
  const enqueue = async (body: string, file?: OutgoingFile) => {
    const inserted = await trx.insertInto("outbox").values({
      companyId: campaign.companyId,
      whatsappId: campaign.whatsappId!,
      ticketId: null,
      messageId: null,
      wid: newMessageId(),
      toJid,
      body,
      mediaPath: file?.path ?? null,
      mediaMimetype: file?.mimetype ?? null,
      mediaName: file?.name ?? null,
      quotedWid: null,
      campaignShippingId: row.id,
      nextAttemptAt: o.stamp,
      createdAt: o.stamp,
      updatedAt: o.stamp,
    }).returning("id").executeTakeFirstOrThrow();
    return inserted.id;
  };
  if (asksFirst) {
    const outboxId = await enqueue(row.confirmationMessage!);
    await trx.updateTable("campaign_shipping").set({ confirmationOutboxId: outboxId })
      .where("id", "=", row.id).execute();
    return true;
  }
  const media: OutgoingFile | undefined = campaign.mediaPath
    ? {
      path: campaign.mediaPath,
      name: campaign.mediaName ?? "arquivo",
      mimetype: getMimeType(campaign.mediaName ?? "") ?? "application/octet-stream",
      caption: "",
    }
    : undefined;
  const outboxId = await enqueue(row.message, media);
  for (const file of files) await enqueue(file.caption, file);
  await trx.updateTable("campaign_shipping").set({ outboxId }).where("id", "=", row.id).execute();
  return true;
}

// ---- 3. reconcile ----

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

async function reconcile(deps: AppDeps): Promise<{ delivered: number; finished: number }> {
  // Running campaigns, and cancelled ones whose last messages are still in the outbox.
  const running = await deps.db.selectFrom("campaigns").select(["id", "companyId"])
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
  let delivered = 0;
  let finished = 0;
  const stamp = deps.clock.now().toISOString();
  for (const { id, companyId } of running) {
    const done = await deps.db.updateTable("campaign_shipping").set((eb) => ({
      status: "delivered",
      deliveredAt: eb.selectFrom("outbox").select("sentAt")
        .whereRef("outbox.id", "=", "campaign_shipping.outboxId"),
      updatedAt: stamp,
    })).where("campaignId", "=", id).where("status", "=", "queued")
      .where((eb) => outboxIs(eb, "sent")).executeTakeFirst();
    const failed = await deps.db.updateTable("campaign_shipping").set({
      status: "failed",
      updatedAt: stamp,
    }).where("campaignId", "=", id).where("status", "=", "queued")
      .where((eb) => outboxIs(eb, "failed")).executeTakeFirst();
    // A confirmation request the outbox gave up on will never be answered.
    const unasked = await deps.db.updateTable("campaign_shipping").set({
      status: "failed",
      updatedAt: stamp,
    }).where("campaignId", "=", id).where("status", "=", "awaiting")
      .where((eb) => outboxIs(eb, "failed", "confirmationOutboxId")).executeTakeFirst();
    const changed = Number(done.numUpdatedRows) + Number(failed.numUpdatedRows) +
      Number(unasked.numUpdatedRows);
    delivered += Number(done.numUpdatedRows);
    const open = await deps.db.selectFrom("campaign_shipping").select("id")
      .where("campaignId", "=", id).where("status", "in", ["pending", "awaiting", "queued"])
      .limit(1).executeTakeFirst();
    let ended = false;
    if (!open) {
      const result = await deps.db.updateTable("campaigns").set({
        status: "FINALIZADA",
        completedAt: stamp,
        updatedAt: stamp,
      }).where("id", "=", id).where("status", "=", "EM_ANDAMENTO").executeTakeFirst();
      ended = Number(result.numUpdatedRows) > 0;
      if (ended) finished++;
    }
    if (changed > 0 || ended) await publishCampaign(deps, companyId, id);
  }
  return { delivered, finished };
}
