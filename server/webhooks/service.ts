import { auditBy, changedFields } from "../audit/service.ts";
import type { ResourceEvent } from "../../contract/events.ts";
import type { WebhookEvent, WebhookView } from "../../contract/webhook_types.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { notFound } from "../errors.ts";
import { randomToken } from "../external_api/tokens.ts";
import { seal } from "../crypto/sealed.ts";
import { webhookCapture } from "./capture.ts";
import * as repo from "./repository.ts";

/**
 * Outgoing webhooks of a company (issue 16; admins, plan flag useExternalApi, checked by the
 * route). URLs are checked against server-side request forgery when saved (and again before each
 * delivery): http(s) only, no loopback, private or link-local address unless
 * INTEGRATIONS_ALLOW_PRIVATE_URLS=true (400 ERR_INTEGRATION_URL). The secret that signs the
 * deliveries is generated here, never typed, and stored sealed (server/crypto/sealed.ts).
 */
export type WebhookInput = {
  name?: string;
  url?: string;
  events?: WebhookEvent[];
  active?: boolean;
};

const SECRET_PREFIX = "whsec_";

function notFoundWebhook() {
  return notFound("ERR_NO_WEBHOOK_FOUND", "Webhook não encontrado");
}

function changed(deps: AppDeps, companyId: number, change: ResourceEvent<WebhookView>) {
  const capture = webhookCapture(deps.events);
  capture?.invalidate(companyId);
  deps.events.emit("list.changed", { companyId, resource: "webhook", change });
  capture?.wake();
}

export async function createWebhook(
  deps: AppDeps,
  auth: AuthInfo,
  input: Required<Omit<WebhookInput, "active">>,
): Promise<WebhookView> {
  const companyId = auth.companyId;
  const url = await deps.outbound.check(input.url);
  const secret = await seal(deps.secrets.data, randomToken(SECRET_PREFIX));
  const now = deps.clock.now().toISOString();
  const fields = { name: input.name, url: url.href, events: JSON.stringify(input.events) };
  const row = await deps.db.transaction().execute(async (trx) => {
    const row = await repo.insertWebhook(trx, companyId, { ...fields, secret }, now);
    await auditBy(trx, auth, now, "webhook.created", { entity: "webhook", id: row.id }, {
      after: fields,
    });
    return row;
  });
  const view = await repo.webhookView(deps.secrets.data, row);
  changed(deps, companyId, { action: "create", record: view });
  return view;
}

/** `active: true` also clears a disable (failure streak, reason): waiting deliveries resume. */
export async function updateWebhook(
  deps: AppDeps,
  auth: AuthInfo,
  id: number,
  input: WebhookInput,
): Promise<WebhookView> {
  const companyId = auth.companyId;
  const was = await repo.findWebhook(deps.db, companyId, id);
  if (!was) throw notFoundWebhook();
  const url = input.url === undefined ? undefined : (await deps.outbound.check(input.url)).href;
  const now = deps.clock.now().toISOString();
  const row = await deps.db.transaction().execute(async (trx) => {
    const row = await repo.updateWebhook(trx, companyId, id, {
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(url !== undefined ? { url } : {}),
      ...(input.events !== undefined ? { events: JSON.stringify(input.events) } : {}),
      ...(input.active === true
        ? { active: 1, failureCount: 0, disabledAt: null, disabledReason: null }
        : input.active === false
        ? { active: 0 }
        : {}),
      updatedAt: now,
    });
    if (!row) throw notFoundWebhook();
    const pick = (w: typeof row) => ({
      name: w.name,
      url: w.url,
      events: w.events,
      active: w.active === 1,
    });
    const diff = changedFields(pick(was), pick(row));
    if (Object.keys(diff.after).length > 0) {
      await auditBy(trx, auth, now, "webhook.updated", { entity: "webhook", id }, diff);
    }
    return row;
  });
  const view = await repo.webhookView(deps.secrets.data, row);
  changed(deps, companyId, { action: "update", record: view });
  return view;
}

/** A new signing secret; deliveries signed from now on use it. */
export async function regenerateSecret(deps: AppDeps, auth: AuthInfo, id: number) {
  const companyId = auth.companyId;
  const secret = await seal(deps.secrets.data, randomToken(SECRET_PREFIX));
  const now = deps.clock.now().toISOString();
  const row = await deps.db.transaction().execute(async (trx) => {
    const row = await repo.updateWebhook(trx, companyId, id, { secret, updatedAt: now });
    if (!row) throw notFoundWebhook();
    await auditBy(trx, auth, now, "webhook.secretRegenerated", { entity: "webhook", id });
    return row;
  });
  const view = await repo.webhookView(deps.secrets.data, row);
  changed(deps, companyId, { action: "update", record: view });
  return view;
}

/** Its queued deliveries go with it. */
export async function deleteWebhook(deps: AppDeps, auth: AuthInfo, id: number) {
  const companyId = auth.companyId;
  const now = deps.clock.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    const was = await repo.findWebhook(trx, companyId, id);
    if (!was || !await repo.deleteWebhook(trx, companyId, id)) throw notFoundWebhook();
    await auditBy(trx, auth, now, "webhook.deleted", { entity: "webhook", id }, {
      before: { name: was.name, url: was.url },
    });
  });
  changed(deps, companyId, { action: "delete", id });
}

/** GET /api/webhooks: a page by name. */
export async function listWebhooks(deps: AppDeps, companyId: number, pageNumber: number) {
  return await repo.pageWebhooks(deps.db, deps.secrets.data, companyId, pageNumber);
}

export async function webhookDeliveries(deps: AppDeps, companyId: number, id: number) {
  if (!await repo.findWebhook(deps.db, companyId, id)) throw notFoundWebhook();
  return { deliveries: await repo.recentDeliveries(deps.db, companyId, id) };
}
