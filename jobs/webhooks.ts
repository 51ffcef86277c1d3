import { Cron } from "croner";
import type { AppDeps } from "../server/context.ts";
import { log } from "../server/log.ts";
import { countedJob } from "../server/metrics/registry.ts";
import { webhookCapture } from "../server/webhooks/capture.ts";
import { deliverDue } from "../server/webhooks/delivery.ts";

/**
 * Sends webhook deliveries (server/webhooks/delivery.ts). The queue is the webhook_deliveries
 * table, so a restart resumes it; croner ticks every 5 s for retries that fall due, and a new
 * event wakes the job at once. Two runs never overlap here, and a row is claimed before it is
 * sent, so a tick that runs twice (or a second process) does not send a row twice; the unique
 * (webhookId, eventId) key stops a duplicate delivery row.
 */
export function startWebhookJob(deps: AppDeps): () => Promise<void> {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        // A full batch may leave more due rows: keep going until a batch is short.
        while (!stopped && await countedJob("webhooks", () => deliverDue(deps)) > 0) {
          /* next batch */
        }
      } while (again && !stopped);
    })().catch((error) => log.error("webhook tick failed", { error }))
      .finally(() => running = null);
  };
  webhookCapture(deps.events)?.onQueued(run);
  const job = new Cron("*/5 * * * * *", { protect: true, catch: true }, run);
  run();
  return async () => {
    stopped = true;
    job.stop();
    await webhookCapture(deps.events)?.idle();
    await running;
  };
}
