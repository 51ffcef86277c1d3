import type { WebhookDelivery } from "../../db/schema.ts";
import type { AppDeps } from "../context.ts";
import { signatureHeaders } from "../crypto/signature.ts";
import { log } from "../log.ts";
import { webhookCapture } from "./capture.ts";
import { webhookView } from "./repository.ts";

/**
 * Sends the durable queue (webhook_deliveries). Each delivery is a POST of its stored JSON with
 *
 *   X-Balcao-Event: message.created          X-Balcao-Event-Id: <uuid, the same on every retry>
 *   X-Balcao-Delivery: <delivery id>         X-Balcao-Timestamp: <unix seconds of this attempt>
 *   X-Balcao-Signature: sha256=<hex HMAC-SHA256(secret, "<timestamp>.<body>")>
 *
 * A 2xx answer delivers it; anything else (or no answer within WEBHOOK_TIMEOUT_MS, a redirect,
 * a URL that now resolves to an internal address) is a failed attempt, retried after
 * RETRY_DELAYS_MS[attempt - 1] (+ up to 10% jitter) until MAX_ATTEMPTS, then `failed`. Every
 * failed attempt counts against the webhook; WEBHOOK_DISABLE_AFTER failed attempts in a row
 * disable it (`disabledReason`, a `company-<id>-webhook` event for the page); a success resets
 * the count. Receivers must accept a repeat of an event id (at-least-once: a crash between the
 * POST and the row's update sends it again).
 */
export const RETRY_DELAYS_MS = [
  10_000,
  30_000,
  120_000,
  600_000,
  1_800_000,
  3_600_000,
  10_800_000,
  21_600_000,
];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const BATCH = 20;

type Outcome = { ok: boolean; status: number | null; error: string | null };

async function post(deps: AppDeps, url: string, secret: string, d: WebhookDelivery) {
  try {
    // The address is checked where it is connected to (server/http/outbound_fetch.ts); a
    // redirect is not followed: it is a failed attempt.
    const res = await deps.outbound.fetch(url, {
      method: "POST",
      maxRedirects: 0,
      signal: AbortSignal.timeout(deps.config.webhookTimeoutMs),
      headers: {
        "content-type": "application/json",
        "user-agent": "Balcao-Webhooks/1",
        "x-balcao-event": d.event,
        "x-balcao-event-id": d.eventId,
        "x-balcao-delivery": String(d.id),
        ...await signatureHeaders(secret, deps.clock.now(), d.payload),
      },
      body: d.payload,
    });
    await res.body?.cancel();
    const ok = res.status >= 200 && res.status < 300;
    return { ok, status: res.status, error: ok ? null : `HTTP ${res.status}` } as Outcome;
  } catch (error) {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { ok: false, status: null, error: text.slice(0, 500) } as Outcome;
  }
}

/** Claims, sends and records the due deliveries; returns how many were attempted. */
export async function deliverDue(deps: AppDeps): Promise<number> {
  const now = deps.clock.now();
  const stamp = now.toISOString();
  // A claim left by a process that died mid-send: the row is due again.
  await deps.db.updateTable("webhook_deliveries")
    .set({ status: "pending", claimId: null, claimedUntil: null, updatedAt: stamp })
    .where("status", "=", "sending").where("claimedUntil", "<", stamp).execute();
  const due = await deps.db.selectFrom("webhook_deliveries as d")
    .innerJoin("webhooks as w", "w.id", "d.webhookId")
    .select(["d.id"])
    .where("d.status", "=", "pending").where("d.nextAttemptAt", "<=", stamp)
    .where("w.active", "=", 1).orderBy("d.nextAttemptAt").orderBy("d.id").limit(BATCH).execute();
  // Rows are independent (each claimed on its own): one slow receiver does not hold the others.
  const sent = await Promise.all(due.map(({ id }) => deliverOne(deps, id)));
  return sent.filter(Boolean).length;
}

async function deliverOne(deps: AppDeps, id: number): Promise<boolean> {
  const now = deps.clock.now();
  const claimId = crypto.randomUUID();
  const claimedUntil = new Date(now.getTime() + deps.config.webhookTimeoutMs * 2 + 60_000);
  const claimed = await deps.db.updateTable("webhook_deliveries")
    .set({ status: "sending", claimId, claimedUntil: claimedUntil.toISOString() })
    .where("id", "=", id).where("status", "=", "pending").executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return false; // another tick took it
  const d = await deps.db.selectFrom("webhook_deliveries").selectAll().where("id", "=", id)
    .executeTakeFirstOrThrow();
  const hook = await deps.db.selectFrom("webhooks").selectAll()
    .where("id", "=", d.webhookId).where("companyId", "=", d.companyId).executeTakeFirst();
  if (!hook) return false; // deleted meanwhile: its deliveries went with it
  const outcome = await post(deps, hook.url, hook.secret, d);
  const done = deps.clock.now().toISOString();
  const attempts = d.attempts + 1;
  const final = outcome.ok || attempts >= MAX_ATTEMPTS;
  const delay = RETRY_DELAYS_MS[Math.min(attempts, RETRY_DELAYS_MS.length) - 1] ?? 0;
  const next = new Date(
    deps.clock.now().getTime() + delay + Math.floor(Math.random() * delay / 10),
  );
  await deps.db.updateTable("webhook_deliveries").set({
    status: outcome.ok ? "delivered" : final ? "failed" : "pending",
    attempts,
    nextAttemptAt: final ? d.nextAttemptAt : next.toISOString(),
    claimId: null,
    claimedUntil: null,
    lastStatus: outcome.status,
    lastError: outcome.error,
    deliveredAt: outcome.ok ? done : null,
    updatedAt: done,
  }).where("id", "=", id).where("claimId", "=", claimId).execute();
  await recordOnWebhook(deps, d.companyId, hook.id, outcome, done);
  return true;
}

/** The webhook's last status and failure streak; disables it at WEBHOOK_DISABLE_AFTER. */
async function recordOnWebhook(
  deps: AppDeps,
  companyId: number,
  webhookId: number,
  outcome: Outcome,
  now: string,
) {
  const row = await deps.db.updateTable("webhooks").set((eb) => ({
    lastStatus: outcome.status,
    lastError: outcome.error,
    lastDeliveryAt: now,
    failureCount: outcome.ok ? 0 : eb("failureCount", "+", 1),
    updatedAt: now,
  })).where("id", "=", webhookId).where("companyId", "=", companyId).returningAll()
    .executeTakeFirst();
  if (!row) return;
  let current = row;
  if (row.active === 1 && row.failureCount >= deps.config.webhookDisableAfter) {
    const reason = `${row.failureCount} falhas seguidas; última: ${outcome.error ?? "?"}`;
    current = await deps.db.updateTable("webhooks")
      .set({ active: 0, disabledAt: now, disabledReason: reason, updatedAt: now })
      .where("id", "=", webhookId).where("companyId", "=", companyId).returningAll()
      .executeTakeFirstOrThrow();
    webhookCapture(deps.events)?.invalidate(companyId);
    log.warn("webhook disabled after repeated failures", { companyId, webhookId, reason });
  }
  deps.events.emit("list.changed", {
    companyId,
    resource: "webhook",
    change: { action: "update", record: webhookView(current) },
  });
}
