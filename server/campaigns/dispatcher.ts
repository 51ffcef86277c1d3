import { getMimeType } from "hono/utils/mime";
import type { Database } from "../../db/client.ts";
import type { Campaign, CampaignShipping } from "../../db/schema.ts";
import type { AppDeps } from "../context.ts";
import { log } from "../log.ts";
import { addressOfPhone, newMessageId } from "../whatsapp/providers/address.ts";
import { processAnswers } from "./answers.ts";
import { checkBatchOf, checkItems, connectedProviderOf } from "./number_check.ts";
import { filledTexts, recipientsOf, renderCampaignText } from "./recipients.ts";
import { campaignView } from "./repository.ts";
import { readCampaignSettings } from "./settings.ts";
import { companyTimeZone } from "../settings/values.ts";
import * as repo from "./shipping_repository.ts";
import { parseSendTemplate } from "../../contract/channels.ts";
import { filledTemplateText, templateText } from "../messages/template_rule.ts";

/**
 * The campaign dispatcher (issue 13 deliverable 5). The `campaigns` job calls `dispatchTick` every
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
  const due = await repo.dueCampaigns(deps.db, now.toISOString(), 20);
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
    const unchecked = await repo.uncheckedItems(deps.db, companyId, campaign.contactListId, batch);
    if (unchecked.length > 0) {
      if (!provider) return false; // waits for the connection
      await checkItems(deps, companyId, provider, unchecked);
      if (unchecked.length === batch) return false; // more to check next tick
    }
  }
  const settings = await readCampaignSettings(deps.db, companyId);
  const zone = await companyTimeZone(deps.db, companyId);
  const { messages, confirmations } = filledTexts(campaign);
  const stamp = now.toISOString();
  const recipients = await recipientsOf(deps.db, companyId, campaign);
  // A template campaign (a connection with the 24-hour window): each recipient's parameters
  // filled with the same variables as the messages; its body filled is our copy of the text.
  const template = parseSendTemplate(campaign.template);
  const templateBody = template && campaign.whatsappId !== null
    ? (await templateText(deps.db, companyId, campaign.whatsappId, {
      ...template,
      parameters: template.parameters.map((_, i) => `{{${i + 1}}}`),
    }))
    : "";
  const fill = (text: string, r: (typeof recipients)[number]) =>
    renderCampaignText(text, r, settings.variables, now, zone);
  const templateOf = (r: (typeof recipients)[number]) => {
    if (!template) return null;
    const parameters = template.parameters.map((p) => fill(p, r));
    return {
      json: JSON.stringify({ ...template, parameters }),
      text: filledTemplateText(templateBody, parameters, template.name),
    };
  };
  const rows = recipients.map((r, i): repo.NewShipping => ({
    companyId,
    campaignId: campaign.id,
    contactListItemId: r.itemId,
    number: r.number,
    name: r.name,
    message: templateOf(r)?.text ?? fill(messages[i % messages.length] ?? "", r),
    template: templateOf(r)?.json ?? null,
    confirmationMessage: campaign.confirmation === 1 && confirmations.length > 0
      ? renderCampaignText(
        confirmations[i % confirmations.length],
        r,
        settings.variables,
        now,
        zone,
      )
      : null,
    createdAt: stamp,
    updatedAt: stamp,
  }));
  // Rows in short transactions (the app keeps answering), each only while the campaign is still
  // PROGRAMADA; (campaignId, number) unique: a number twice in the list, or a start that resumes
  // after a crash, still gets one row.
  for (let i = 0; i < rows.length; i += 400) {
    const stillDue = await deps.db.transaction().execute((trx) =>
      repo.insertShippingWhileDue(trx, companyId, campaign.id, rows.slice(i, i + 400))
    );
    if (!stillDue) return false; // cancelled or edited meanwhile
  }
  const startedNow = await repo.markStarted(
    deps.db,
    companyId,
    campaign.id,
    rows.length > 0,
    stamp,
  );
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
  const list = await repo.fileListOf(db, campaign.companyId, campaign.fileListId);
  if (!list) return [];
  return list.options.map((o, i) => ({
    path: o.path,
    name: o.name,
    mimetype: o.mediaType,
    caption: i === 0 ? list.message : "",
  }));
}

async function sendDue(deps: AppDeps): Promise<number> {
  const connections = await repo.sendingConnections(deps.db);
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
  const pacing = await repo.findPacing(deps.db, companyId, whatsappId);
  if (pacing && pacing.nextSendAt > stamp) return 0;
  if (await repo.campaignMessagesInFlight(deps.db, companyId, whatsappId) >= MAX_IN_FLIGHT) {
    return 0;
  }

  const s = await readCampaignSettings(deps.db, companyId);
  const sinceLong = pacing?.sentSinceLong ?? 0;
  const paced = s.messageInterval > 0;
  const longPauses = s.longerIntervalAfter > 0 && s.greaterInterval > 0;
  let budget = paced ? 1 : SEND_BATCH;
  if (longPauses) budget = Math.min(budget, Math.max(1, s.longerIntervalAfter - sinceLong));

  const campaigns = await repo.runningCampaignsOn(deps.db, companyId, whatsappId);
  const byId = new Map(campaigns.map((c) => [c.id, c]));
  const rows = await repo.pendingShipping(deps.db, companyId, [...byId.keys()], budget);
  if (rows.length === 0) return 0;
  const files = new Map<number, OutgoingFile[]>();
  for (const c of campaigns) files.set(c.id, await filesOf(deps.db, c));
  const optOuts = await repo.optedOut(deps.db, companyId, rows.map((r) => r.number));

  // Short transactions of CHUNK rows: each row and its outbox rows are still written together,
  // and the database thread serves the rest of the app between two chunks.
  let sent = 0;
  let sinceLongNow = sinceLong;
  for (let i = 0; i < rows.length; i += CHUNK) {
    const chunk = rows.slice(i, i + CHUNK);
    sent += await deps.db.transaction().execute(async (trx) => {
      // Read again inside the transaction: a campaign cancelled since sends nothing more.
      const live = await repo.stillRunning(trx, companyId, [...byId.keys()]);
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
      await repo.savePacing(trx, companyId, whatsappId, nextSendAt.toISOString(), next);
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
  const { companyId } = campaign;
  if (o.optedOut) {
    await repo.skipShipping(trx, companyId, row.id, o.stamp);
    return false;
  }
  const asksFirst = campaign.confirmation === 1 && row.confirmationMessage !== null &&
    row.confirmationRequestedAt === null;
  // The claim comes first, guarded by the state this tick read (pending, and which of the two
  // sends is due): a row another tick already moved is left alone and nothing is queued for it.
  if (!await repo.claimShipping(trx, companyId, row, asksFirst, o.stamp)) return false;
  const toJid = addressOfPhone(row.number);
  const enqueue = (body: string, file?: OutgoingFile, template?: string | null) =>
    repo.insertCampaignOutbox(trx, {
      companyId,
      whatsappId: campaign.whatsappId!,
      wid: newMessageId(),
      toJid,
      body,
      mediaPath: file?.path ?? null,
      mediaMimetype: file?.mimetype ?? null,
      mediaName: file?.name ?? null,
      template,
      campaignShippingId: row.id,
      now: o.stamp,
    });
  if (asksFirst) {
    const confirmationOutboxId = await enqueue(row.confirmationMessage!);
    await repo.setShippingOutbox(trx, companyId, row.id, { confirmationOutboxId });
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
  if (row.template) {
    // A template goes alone: media and files are free-form, refused when the campaign is saved.
    const outboxId = await enqueue(row.message, undefined, row.template);
    await repo.setShippingOutbox(trx, companyId, row.id, { outboxId });
    return true;
  }
  const outboxId = await enqueue(row.message, media);
  for (const file of files) await enqueue(file.caption, file);
  await repo.setShippingOutbox(trx, companyId, row.id, { outboxId });
  return true;
}

// ---- 3. reconcile ----

async function reconcile(deps: AppDeps): Promise<{ delivered: number; finished: number }> {
  // Running campaigns, and cancelled ones whose last messages are still in the outbox.
  const running = await repo.campaignsToReconcile(deps.db);
  let delivered = 0;
  let finished = 0;
  const stamp = deps.clock.now().toISOString();
  for (const { id, companyId } of running) {
    const settled = await repo.settleShipping(deps.db, companyId, id, stamp);
    const changed = settled.delivered + settled.failed + settled.unasked;
    delivered += settled.delivered;
    let ended = false;
    if (!await repo.hasOpenShipping(deps.db, companyId, id)) {
      ended = await repo.markFinished(deps.db, companyId, id, stamp);
      if (ended) finished++;
    }
    if (changed > 0 || ended) await publishCampaign(deps, companyId, id);
  }
  return { delivered, finished };
}
