import type { AppDeps } from "../context.ts";
import { log } from "../log.ts";
import * as queue from "./delivery_repository.ts";
import { vapidKeys } from "./keys.ts";
import { dropSubscription, markSent } from "./repository.ts";
import { donePushThread, type PushEncrypter, usePushThread } from "./encrypter.ts";

/**
 * The `push` job's work: sends the queue (push_deliveries) to the browsers' push services. Each
 * row is claimed by a guarded UPDATE (pending -> sending) before it is sent, so two ticks (here or
 * in another process) never send one row twice. The payload is encrypted for the device (RFC 8291
 * aes128gcm) and the request signed with the VAPID key (RFC 8292) by the `web-push` library, on the
 * app's push thread (encrypter.ts: ~15 ms of CPU a push, which on the main thread held up inbound
 * messages); the request itself goes through the app's outbound fetch (an endpoint is a
 * URL a browser gave us).
 *
 * 201/202/200: sent. 404/410: the browser dropped the subscription, and so do we (its row and its
 * queued pushes). 429, 5xx or no answer: tried again after RETRY_DELAYS_MS, then failed. Anything
 * else is failed at once (a push service refuses the same request again).
 */
export const RETRY_DELAYS_MS = [15_000, 120_000];
const BATCH = 20;
/** How long a push service keeps a push for an offline device (seconds). */
const TTL_SECONDS = 4 * 3600;
/** Sent and failed rows are kept this long (what the job did, for a look), then deleted. */
const KEEP_MS = 24 * 3600_000;

/** One tick: batches of due pushes until a batch finds nothing, or the job stops. */
export async function sendDuePushes(deps: AppDeps, signal?: AbortSignal): Promise<number> {
  const now = deps.clock.now();
  await queue.releaseStalePushes(deps.db, now.toISOString());
  await queue.pruneOldPushes(deps.db, new Date(now.getTime() - KEEP_MS).toISOString());
  let attempted = 0;
  let encrypter: PushEncrypter | undefined;
  try {
    while (!signal?.aborted) {
      const due = await queue.duePushes(deps.db, deps.clock.now().toISOString(), BATCH);
      if (due.length === 0) break;
      const thread = encrypter ??= await usePushThread(deps);
      const sent = await Promise.all(
        due.map((row) => sendOne(deps, thread, row.companyId, row.id)),
      );
      attempted += sent.filter(Boolean).length;
      if (!sent.some(Boolean)) break; // every row was taken by another tick
    }
  } finally {
    if (encrypter) donePushThread(deps, encrypter);
  }
  return attempted;
}

async function sendOne(
  deps: AppDeps,
  encrypter: PushEncrypter,
  companyId: number,
  id: number,
): Promise<boolean> {
  const claimId = crypto.randomUUID();
  const claimedUntil = new Date(
    deps.clock.now().getTime() + deps.config.push.timeoutMs * 2 + 60_000,
  );
  const row = await queue.claimPush(deps.db, companyId, id, claimId, claimedUntil.toISOString());
  if (!row) return false;
  const keys = await vapidKeys(deps.db, deps.config);
  const payload = JSON.parse(row.payload) as { tag?: string };
  let status: number | null = null;
  try {
    const request = await encrypter.encrypt({
      subscription: { endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } },
      payload: row.payload,
      options: {
        vapidDetails: keys,
        TTL: TTL_SECONDS,
        urgency: "high",
        // A newer push of the same ticket replaces one still waiting at the push service.
        topic: payload.tag?.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 32),
        contentEncoding: "aes128gcm",
      },
    });
    const res = await deps.outbound.fetch(request.endpoint, {
      method: "POST",
      maxRedirects: 0,
      signal: AbortSignal.timeout(deps.config.push.timeoutMs),
      headers: request.headers,
      body: request.body,
    });
    await res.body?.cancel();
    status = res.status;
  } catch (error) {
    log.warn("push not sent", { companyId, id, error });
  }
  const now = deps.clock.now();
  const stamp = now.toISOString();
  if (status === 404 || status === 410) {
    await dropSubscription(deps.db, companyId, row.subscriptionId);
    return true;
  }
  const ok = status !== null && status >= 200 && status < 300;
  const attempts = row.attempts + 1;
  const retry = !ok && (status === null || status === 429 || status >= 500) &&
    attempts <= RETRY_DELAYS_MS.length;
  await queue.finishPush(deps.db, companyId, id, claimId, {
    status: ok ? "sent" : retry ? "pending" : "failed",
    attempts,
    nextAttemptAt: retry
      ? new Date(now.getTime() + RETRY_DELAYS_MS[attempts - 1]).toISOString()
      : undefined,
    lastStatus: status,
    updatedAt: stamp,
  });
  if (ok) await markSent(deps.db, companyId, row.subscriptionId, stamp);
  return true;
}
