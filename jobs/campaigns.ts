import { Cron } from "croner";
import type { AppDeps } from "../server/context.ts";
import { log } from "../server/log.ts";
import { countedJob } from "../server/metrics/registry.ts";
import { dispatchTick } from "../server/campaigns/dispatcher.ts";
import { checkPendingNumbers } from "../server/campaigns/number_check.ts";

/**
 * Campaigns (issue 13): every second, the dispatcher (server/campaigns/dispatcher.ts: starts,
 * paced sends through the outbox, delivery and completion) and the background WhatsApp check of
 * contact-list numbers. croner only ticks; every state is in the database, and `protect` keeps
 * two ticks from overlapping (one running twice would still do no harm: see the dispatcher).
 */
export function startCampaignJob(deps: AppDeps): () => Promise<void> {
  const job = new Cron("* * * * * *", { protect: true, catch: true }, async () => {
    await countedJob("campaigns", () => dispatchTick(deps)).catch((error) =>
      log.error("campaign tick failed", { error })
    );
    await countedJob("contact_list_check", () => checkPendingNumbers(deps)).catch((error) =>
      log.error("contact list check failed", { error })
    );
  });
  return async () => {
    job.stop();
    while (job.isBusy()) await new Promise((resolve) => setTimeout(resolve, 50));
  };
}
