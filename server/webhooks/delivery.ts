import type { WebhookDelivery } from "../../db/schema.ts";
import type { AppDeps } from "../context.ts";
import { signatureHeaders } from "../crypto/signature.ts";
import { log } from "../log.ts";
import { webhookCapture } from "./capture.ts";
import * as repo from "./delivery_repository.ts";
import { findWebhook, webhookView } from "./repository.ts";
import { unsealOrEmpty } from "../crypto/sealed.ts";

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

const UNREADABLE_SECRET: Outcome = {
  ok: false,
  status: null,
  error: "O segredo de assinatura não abre com a DATA_ENCRYPTION_KEY atual: gere um novo",
};

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

/**
 * One tick of the `webhooks` job: batches of due deliveries until one finds nothing (a full batch
 * may leave more due rows), or the job stops. Returns how many were attempted.
 */
export async function deliverAllDue(deps: AppDeps, signal?: AbortSignal): Promise<number> {
  let attempted = 0;
  while (!signal?.aborted) {
    const sent = await deliverDue(deps);
    if (sent === 0) break;
    attempted += sent;
  }
  return attempted;
}

/** Claims, sends and records the due deliveries; returns how many were attempted. */
export async function deliverDue(deps: AppDeps): Promise<number> {
  const now = deps.clock.now();
  const stamp = now.toISOString();
  // A claim left by a process that died mid-send: the row is due again.
  await repo.releaseStaleClaims(deps.db, stamp);
  const due = await repo.dueDeliveries(deps.db, stamp, BATCH);
  // Rows are independent (each claimed on its own): one slow receiver does not hold the others.
  const sent = await Promise.all(due.map(({ id, companyId }) => deliverOne(deps, companyId, id)));
  return sent.filter(Boolean).length;
}

async function deliverOne(deps: AppDeps, companyId: number, id: number): Promise<boolean> {
  const now = deps.clock.now();
  const claimId = crypto.randomUUID();
  const claimedUntil = new Date(now.getTime() + deps.config.webhookTimeoutMs * 2 + 60_000);
  if (!await repo.claimDelivery(deps.db, companyId, id, claimId, claimedUntil.toISOString())) {
    return false; // another tick took it
  }
  const d = await repo.findDelivery(deps.db, companyId, id);
  const hook = await findWebhook(deps.db, companyId, d.webhookId);
  if (!hook) return false; // deleted meanwhile: its deliveries went with it
  // Sealed at rest; one that no longer opens (DATA_ENCRYPTION_KEY changed) cannot sign.
  const secret = await unsealOrEmpty(deps.secrets.data, hook.secret);
  const outcome = secret ? await post(deps, hook.url, secret, d) : UNREADABLE_SECRET;
  const done = deps.clock.now().toISOString();
  const attempts = d.attempts + 1;
  const final = outcome.ok || attempts >= MAX_ATTEMPTS;
  const delay = RETRY_DELAYS_MS[Math.min(attempts, RETRY_DELAYS_MS.length) - 1] ?? 0;
  const next = new Date(
    deps.clock.now().getTime() + delay + Math.floor(Math.random() * delay / 10),
  );
  await repo.finishDelivery(deps.db, companyId, id, claimId, {
    status: outcome.ok ? "delivered" : final ? "failed" : "pending",
    attempts,
    nextAttemptAt: final ? d.nextAttemptAt : next.toISOString(),
    claimId: null,
    claimedUntil: null,
    lastStatus: outcome.status,
    lastError: outcome.error,
    deliveredAt: outcome.ok ? done : null,
    updatedAt: done,
  });
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
  const row = await repo.recordAttempt(deps.db, companyId, webhookId, outcome, now);
  if (!row) return;
  let current = row;
  if (row.active === 1 && row.failureCount >= deps.config.webhookDisableAfter) {
    const reason = `${row.failureCount} falhas seguidas; última: ${outcome.error ?? "?"}`;
    current = await repo.disableWebhook(deps.db, companyId, webhookId, reason, now);
    webhookCapture(deps.events)?.invalidate(companyId);
    log.warn("webhook disabled after repeated failures", { companyId, webhookId, reason });
  }
  deps.events.emit("list.changed", {
    companyId,
    resource: "webhook",
    change: { action: "update", record: await webhookView(deps.secrets.data, current) },
  });
}
