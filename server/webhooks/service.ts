import type { ResourceEvent } from "../../contract/events.ts";
import type { WebhookEvent, WebhookView } from "../../contract/webhook_types.ts";
import type { AppDeps } from "../context.ts";
import { notFound } from "../errors.ts";
import { randomToken } from "../external_api/tokens.ts";
import { webhookCapture } from "./capture.ts";
import * as repo from "./repository.ts";

/**
 * Outgoing webhooks of a company (issue 16; admins, plan flag useExternalApi, checked by the
 * route). URLs are checked against server-side request forgery when saved (and again before each
 * delivery): http(s) only, no loopback, private or link-local address unless
 * INTEGRATIONS_ALLOW_PRIVATE_URLS=true (400 ERR_INTEGRATION_URL). The secret that signs the
 * deliveries is generated here, never typed.
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
  companyId: number,
  input: Required<Omit<WebhookInput, "active">>,
): Promise<WebhookView> {
  const url = await deps.outbound.check(input.url);
  const row = await repo.insertWebhook(deps.db, companyId, {
    name: input.name,
    url: url.href,
    events: JSON.stringify(input.events),
    secret: randomToken(SECRET_PREFIX),
  }, deps.clock.now().toISOString());
  const view = repo.webhookView(row);
  changed(deps, companyId, { action: "create", record: view });
  return view;
}

/** `active: true` also clears a disable (failure streak, reason): waiting deliveries resume. */
export async function updateWebhook(
  deps: AppDeps,
  companyId: number,
  id: number,
  input: WebhookInput,
): Promise<WebhookView> {
  if (!await repo.findWebhook(deps.db, companyId, id)) throw notFoundWebhook();
  const url = input.url === undefined ? undefined : (await deps.outbound.check(input.url)).href;
  const row = await repo.updateWebhook(deps.db, companyId, id, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(url !== undefined ? { url } : {}),
    ...(input.events !== undefined ? { events: JSON.stringify(input.events) } : {}),
    ...(input.active === true
      ? { active: 1, failureCount: 0, disabledAt: null, disabledReason: null }
      : input.active === false
      ? { active: 0 }
      : {}),
    updatedAt: deps.clock.now().toISOString(),
  });
  if (!row) throw notFoundWebhook();
  const view = repo.webhookView(row);
  changed(deps, companyId, { action: "update", record: view });
  return view;
}

/** A new signing secret; deliveries signed from now on use it. */
export async function regenerateSecret(deps: AppDeps, companyId: number, id: number) {
  const row = await repo.updateWebhook(deps.db, companyId, id, {
    secret: randomToken(SECRET_PREFIX),
    updatedAt: deps.clock.now().toISOString(),
  });
  if (!row) throw notFoundWebhook();
  const view = repo.webhookView(row);
  changed(deps, companyId, { action: "update", record: view });
  return view;
}

/** Its queued deliveries go with it. */
export async function deleteWebhook(deps: AppDeps, companyId: number, id: number) {
  if (!await repo.deleteWebhook(deps.db, companyId, id)) throw notFoundWebhook();
  changed(deps, companyId, { action: "delete", id });
}

export async function webhookDeliveries(deps: AppDeps, companyId: number, id: number) {
  if (!await repo.findWebhook(deps.db, companyId, id)) throw notFoundWebhook();
  return { deliveries: await repo.recentDeliveries(deps.db, companyId, id) };
}
