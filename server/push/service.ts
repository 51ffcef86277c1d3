import type { PushDeviceView, PushKeyAnswer, PushPreferences } from "../../contract/push_types.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import { vapidKeys } from "./keys.ts";
import * as repo from "./repository.ts";
import { pushLanguage } from "./texts.ts";

/**
 * Issue 42: a user's devices for Web Push and their choices. A subscription belongs to the
 * caller's company, user and session (the token's): the session's end takes it away.
 */

/** GET /api/push/key: the VAPID public key, the browser's applicationServerKey. */
export async function pushKey(deps: AppDeps): Promise<PushKeyAnswer> {
  return { publicKey: (await vapidKeys(deps.db, deps.config)).publicKey };
}

export type SubscriptionInput = {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  language?: string;
};

/** POST /api/push/subscriptions: the browser's PushSubscription JSON, kept for this session. */
export async function subscribe(
  deps: AppDeps,
  auth: AuthInfo,
  input: SubscriptionInput,
  userAgent: string | null,
): Promise<{ id: number }> {
  const url = new URL(input.endpoint);
  // Push services are https; plain http only where outside services may be local (tests' fakes).
  const allowed = url.protocol === "https:" ||
    (url.protocol === "http:" && deps.config.integrationsAllowPrivateUrls);
  if (!allowed) {
    throw new AppError(400, "ERR_PUSH_ENDPOINT_INVALID", "Push endpoint must be https");
  }
  const id = await repo.saveSubscription(deps.db, auth.companyId, {
    userId: auth.userId,
    sessionId: auth.sessionId,
    endpoint: input.endpoint,
    p256dh: input.keys.p256dh.replace(/=+$/, ""),
    auth: input.keys.auth.replace(/=+$/, ""),
    language: pushLanguage(input.language),
    userAgent: userAgent?.slice(0, 500) ?? null,
  }, deps.clock.now().toISOString());
  return { id };
}

/** GET /api/push/subscriptions: the caller's own devices (the security dialog). */
export async function listDevices(
  deps: AppDeps,
  auth: AuthInfo,
): Promise<{ subscriptions: PushDeviceView[] }> {
  const rows = await repo.listDevices(deps.db, auth.companyId, auth.userId);
  return {
    subscriptions: rows.map((r) => ({
      id: r.id,
      userAgent: r.userAgent,
      createdAt: r.createdAt,
      lastSentAt: r.lastSentAt,
      current: r.sessionId === auth.sessionId,
    })),
  };
}

/** DELETE /api/push/subscriptions/:id: one of the caller's own devices (another's is 404). */
export async function removeDevice(deps: AppDeps, auth: AuthInfo, id: number) {
  if (!await repo.deleteDevice(deps.db, auth.companyId, auth.userId, id)) {
    throw notFound("ERR_NO_PUSH_SUBSCRIPTION_FOUND", "Push subscription not found");
  }
}

export async function getPreferences(deps: AppDeps, auth: AuthInfo): Promise<PushPreferences> {
  return await repo.findPreferences(deps.db, auth.companyId, auth.userId);
}

export async function setPreferences(
  deps: AppDeps,
  auth: AuthInfo,
  prefs: PushPreferences,
): Promise<PushPreferences> {
  const kinds = [...new Set(prefs.kinds)];
  const saved = { ...prefs, kinds };
  await repo.savePreferences(
    deps.db,
    auth.companyId,
    auth.userId,
    saved,
    deps.clock.now().toISOString(),
  );
  return saved;
}
