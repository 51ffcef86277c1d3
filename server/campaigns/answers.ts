import type { AppDeps } from "../context.ts";
import { log } from "../log.ts";
import { readCampaignSettings } from "./settings.ts";

/**
 * What contacts answer to campaigns (issue 13): an answer to a confirmation request lets the
 * campaign message follow (the row goes back to pending with confirmation = 1), and an answer that
 * is an opt-out word (settings optOutWords; default SAIR, PARAR, STOP) records the number in
 * campaign_opt_outs, after which no campaign messages it again.
 *
 * The dispatcher reads inbound messages in id order after a cursor kept in campaign_job_state, and
 * moves the cursor in the same transaction as the effects: each answer is acted on exactly once,
 * across ticks and restarts. The inbound pipeline is not touched.
 */
const CURSOR = "answers.lastMessageId";
const BATCH = 1000;

export async function processAnswers(deps: AppDeps): Promise<number> {
  const { db } = deps;
  const state = await db.selectFrom("campaign_job_state").select("value")
    .where("key", "=", CURSOR).executeTakeFirst();
  if (!state) {
    // First run: start after the newest message; history before campaigns existed is not read.
    const newest = await db.selectFrom("messages").select((eb) => eb.fn.max("id").as("id"))
      .executeTakeFirst();
    await db.insertInto("campaign_job_state").values({
      key: CURSOR,
      value: String(newest?.id ?? 0),
    }).onConflict((oc) => oc.column("key").doNothing()).execute();
    return 0;
  }
  const after = Number(state.value);
  const messages = await db.selectFrom("messages")
    .innerJoin("contacts", "contacts.id", "messages.contactId")
    .select([
      "messages.id",
      "messages.companyId",
      "messages.whatsappId",
      "messages.body",
      "contacts.number",
    ])
    .where("messages.id", ">", after).where("messages.fromMe", "=", 0)
    .where("contacts.isGroup", "=", 0).orderBy("messages.id").limit(BATCH).execute();
  // The last id read, not the newest in the table: a message written meanwhile is read next tick.
  if (messages.length === 0) return 0;
  const last = messages[messages.length - 1].id;
  const words = new Map<number, Set<string>>();
  for (const m of messages) {
    if (!words.has(m.companyId)) {
      words.set(m.companyId, new Set((await readCampaignSettings(db, m.companyId)).optOutWords));
    }
  }
  const stamp = deps.clock.now().toISOString();
  const touched = new Map<number, Set<number>>();
  await db.transaction().execute(async (trx) => {
    for (const m of messages) {
      const word = m.body.trim().toUpperCase();
      const running = trx.selectFrom("campaigns").select("id").where("companyId", "=", m.companyId)
        .where("status", "in", ["EM_ANDAMENTO", "CANCELADA", "PROGRAMADA"]);
      if (words.get(m.companyId)?.has(word)) {
        await trx.insertInto("campaign_opt_outs").values({
          companyId: m.companyId,
          number: m.number,
          word,
          messageId: m.id,
          createdAt: stamp,
        }).onConflict((oc) => oc.columns(["companyId", "number"]).doNothing()).execute();
        const skipped = await trx.updateTable("campaign_shipping").set({
          status: "skipped",
          updatedAt: stamp,
        }).where("companyId", "=", m.companyId).where("number", "=", m.number)
          .where("status", "in", ["pending", "awaiting"]).where("campaignId", "in", running)
          .returning("campaignId").execute();
        for (const s of skipped) addTouched(touched, m.companyId, s.campaignId);
        continue;
      }
      if (m.whatsappId === null) continue;
      const confirmed = await trx.updateTable("campaign_shipping").set({
        status: "pending",
        confirmation: 1,
        confirmedAt: stamp,
        updatedAt: stamp,
      }).where("companyId", "=", m.companyId).where("number", "=", m.number)
        .where("status", "=", "awaiting")
        .where(
          "campaignId",
          "in",
          running.where("whatsappId", "=", m.whatsappId),
        ).returning("campaignId").execute();
      for (const s of confirmed) addTouched(touched, m.companyId, s.campaignId);
    }
    await trx.updateTable("campaign_job_state").set({ value: String(last) })
      .where("key", "=", CURSOR).where("value", "=", String(after)).execute();
  });
  for (const [companyId, ids] of touched) {
    deps.events.emit("list.changed", {
      companyId,
      resource: "campaign",
      change: { action: "reload" },
    });
    log.debug("campaign answers applied", { companyId, campaignIds: [...ids] });
  }
  return messages.length;
}

function addTouched(map: Map<number, Set<number>>, companyId: number, campaignId: number) {
  if (!map.has(companyId)) map.set(companyId, new Set());
  map.get(companyId)!.add(campaignId);
}
