import type { AppDeps } from "../context.ts";
import { log } from "../log.ts";
import { readCampaignSettings } from "./settings.ts";
import * as repo from "./shipping_repository.ts";

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
  const after = await repo.answersCursor(db, CURSOR);
  if (after === undefined) {
    // First run: start after the newest message; history before campaigns existed is not read.
    await repo.startAnswersCursor(db, CURSOR);
    return 0;
  }
  const messages = await repo.inboundAfter(db, after, BATCH);
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
      if (words.get(m.companyId)?.has(word)) {
        const skipped = await repo.optOut(trx, m.companyId, {
          number: m.number,
          word,
          messageId: m.id,
          now: stamp,
        });
        for (const id of skipped) addTouched(touched, m.companyId, id);
        continue;
      }
      if (m.whatsappId === null) continue;
      const confirmed = await repo.confirmShipping(trx, m.companyId, {
        number: m.number,
        whatsappId: m.whatsappId,
        now: stamp,
      });
      for (const id of confirmed) addTouched(touched, m.companyId, id);
    }
    await repo.moveAnswersCursor(trx, CURSOR, after, last);
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
