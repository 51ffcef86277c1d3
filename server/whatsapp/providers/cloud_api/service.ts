import type { WhatsappCloud } from "../../../../db/schema.ts";
import type { Database } from "../../../../db/client.ts";
import type { CloudSettings } from "../../../../contract/connection.ts";
import type { AppDeps } from "../../../context.ts";
import { seal, unseal } from "../../../crypto/sealed.ts";
import { AppError, badRequest, notFound } from "../../../errors.ts";
import { log } from "../../../log.ts";
import { GraphError } from "./errors.ts";
import { GraphClient } from "./graph.ts";
import { changesOf } from "./inbound.ts";
import { CloudProvider } from "./provider.ts";
import * as repo from "./repository.ts";

/** What an admin types to add a Cloud API connection (issue 45 item 2). */
export type CloudInput = {
  phoneNumberId: string;
  businessAccountId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
};

const WEBHOOK_PATH = "/api/whatsapp-cloud";

/** Stores a new connection's Graph ids and its secrets, sealed, in the connection's transaction. */
export async function insertCloudSettings(
  trx: Database,
  dataKey: CryptoKey,
  row: { companyId: number; whatsappId: number; now: string },
  input: CloudInput,
) {
  const key = crypto.getRandomValues(new Uint8Array(24));
  await repo.insertCloud(trx, {
    companyId: row.companyId,
    whatsappId: row.whatsappId,
    phoneNumberId: input.phoneNumberId,
    businessAccountId: input.businessAccountId,
    accessToken: await seal(dataKey, input.accessToken),
    appSecret: await seal(dataKey, input.appSecret),
    verifyToken: input.verifyToken,
    webhookKey: Array.from(key, (b) => b.toString(16).padStart(2, "0")).join(""),
    createdAt: row.now,
    updatedAt: row.now,
  });
}

/** What an admin sees: the webhook URL and verify token to paste into Meta, never the secrets. */
export function cloudSettingsView(publicUrl: string, row: WhatsappCloud): CloudSettings {
  return {
    phoneNumberId: row.phoneNumberId,
    businessAccountId: row.businessAccountId,
    verifyToken: row.verifyToken,
    webhookUrl: `${publicUrl}${WEBHOOK_PATH}/${row.webhookKey}`,
    hasAccessToken: row.accessToken !== "",
    hasAppSecret: row.appSecret !== "",
    displayNumber: row.displayNumber,
    verifiedName: row.verifiedName,
    qualityRating: row.qualityRating,
    lastError: row.lastError,
  };
}

/**
 * PUT /api/whatsapp/:id of a Cloud API connection: new ids or secrets ('Reautorizar' pastes a new
 * token after Meta's 190). Secrets are sealed again; the last error goes (the session's restart,
 * by the caller after commit, reads the number with the new token). Answers whether anything
 * changed.
 */
export async function updateCloudSettings(
  trx: Database,
  dataKey: CryptoKey,
  row: { companyId: number; whatsappId: number; now: string },
  input: Partial<CloudInput>,
): Promise<boolean> {
  const patch: Partial<WhatsappCloud> = {};
  if (input.phoneNumberId) patch.phoneNumberId = input.phoneNumberId;
  if (input.businessAccountId) patch.businessAccountId = input.businessAccountId;
  if (input.verifyToken) patch.verifyToken = input.verifyToken;
  if (input.accessToken) patch.accessToken = await seal(dataKey, input.accessToken);
  if (input.appSecret) patch.appSecret = await seal(dataKey, input.appSecret);
  if (Object.keys(patch).length === 0) return false;
  await repo.updateCloud(trx, row.companyId, row.whatsappId, {
    ...patch,
    lastError: null,
    updatedAt: row.now,
  });
  return true;
}

export async function cloudSettingsOf(
  deps: AppDeps,
  companyId: number,
  whatsappId: number,
): Promise<CloudSettings | undefined> {
  const row = await repo.findCloud(deps.db, companyId, whatsappId);
  return row ? cloudSettingsView(deps.config.publicUrl, row) : undefined;
}

export async function requireCloud(deps: AppDeps, companyId: number, whatsappId: number) {
  const row = await repo.findCloud(deps.db, companyId, whatsappId);
  if (!row) throw notFound("ERR_NO_WAPP_FOUND", "Conexão não encontrada");
  return row;
}

export async function graphOf(deps: AppDeps, row: WhatsappCloud): Promise<GraphClient> {
  return new GraphClient(
    deps.config.whatsappCloudApiUrl,
    await unseal(deps.secrets.data, row.accessToken),
  );
}

/** A Graph failure as the API answers it: Meta's meaning in the catalogue's words. */
export function graphFailure(error: unknown): AppError {
  if (error instanceof GraphError) {
    // Not 401: to our API's clients a 401 means their own session ended (the page signs out).
    return new AppError(
      error.kind.reauthorize ? 422 : 502,
      error.kind.code as never,
      error.message,
    );
  }
  return new AppError(502, "ERR_WHATSAPP_CLOUD_UNREACHABLE", "A API do WhatsApp não respondeu", {
    cause: error,
  });
}

/** 'Testar': reads the phone number from the Graph API with the stored token. */
export async function testCloudConnection(deps: AppDeps, companyId: number, whatsappId: number) {
  const row = await requireCloud(deps, companyId, whatsappId);
  try {
    const phone = await (await graphOf(deps, row)).get<{
      display_phone_number?: string;
      verified_name?: string;
      quality_rating?: string;
    }>(row.phoneNumberId, { fields: "display_phone_number,verified_name,quality_rating" });
    const found = {
      displayNumber: phone.display_phone_number ?? null,
      verifiedName: phone.verified_name ?? null,
      qualityRating: phone.quality_rating ?? null,
    };
    await repo.updateCloud(deps.db, companyId, whatsappId, { ...found, lastError: null });
    return found;
  } catch (error) {
    const failure = graphFailure(error);
    await repo.updateCloud(deps.db, companyId, whatsappId, { lastError: failure.code });
    throw failure;
  }
}

// ---- webhooks in ----

/** GET at the webhook URL: Meta's subscription handshake. The challenge, or 403. */
export async function webhookHandshake(
  deps: AppDeps,
  key: string,
  query: { mode?: string; token?: string; challenge?: string },
): Promise<string> {
  const row = await repo.findCloudByWebhookKey(deps.db, key);
  if (!row || query.mode !== "subscribe" || !query.token || query.token !== row.verifyToken) {
    throw new AppError(403, "ERR_WHATSAPP_BAD_VERIFY_TOKEN", "Token de verificação inválido");
  }
  return query.challenge ?? "";
}

function hexBytes(hex: string): Uint8Array | undefined {
  if (!/^[0-9a-f]{64}$/i.test(hex)) return undefined;
  return Uint8Array.from(hex.match(/../g)!, (h) => parseInt(h, 16));
}

/**
 * Whether `X-Hub-Signature-256` is the HMAC-SHA256 of exactly these bytes with the app secret.
 * The raw bytes are checked, never a re-serialised body: Meta signs its \u-escaped text.
 * crypto.subtle.verify compares in constant time.
 */
export async function signatureHolds(
  appSecret: string,
  raw: Uint8Array,
  header: string | undefined,
): Promise<boolean> {
  const given = header?.startsWith("sha256=") ? hexBytes(header.slice(7)) : undefined;
  if (!given || appSecret === "") return false;
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(appSecret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["verify"],
  );
  return await crypto.subtle.verify("HMAC", key, given as BufferSource, raw as BufferSource);
}

/**
 * POST at the webhook URL: verified before anything else (401), then stored (committed) and
 * answered; the returned promise processes it after. Returns the inbox row's id.
 */
export async function acceptWebhook(
  deps: AppDeps,
  key: string,
  raw: Uint8Array,
  signature: string | undefined,
): Promise<{ inboxId: number; companyId: number; whatsappId: number }> {
  const row = await repo.findCloudByWebhookKey(deps.db, key);
  const secret = row ? await unseal(deps.secrets.data, row.appSecret).catch(() => "") : "";
  if (!row || !(await signatureHolds(secret, raw, signature))) {
    throw new AppError(401, "ERR_WHATSAPP_BAD_SIGNATURE", "Assinatura do webhook inválida");
  }
  const body = new TextDecoder().decode(raw);
  try {
    JSON.parse(body);
  } catch {
    throw badRequest("ERR_VALIDATION", "O corpo do webhook não é JSON");
  }
  const inboxId = await repo.storeInbox(deps.db, {
    companyId: row.companyId,
    whatsappId: row.whatsappId,
    body,
    receivedAt: deps.clock.now().toISOString(),
  });
  return { inboxId, companyId: row.companyId, whatsappId: row.whatsappId };
}

/** Posts being processed, so a second call for the same connection waits for the first. */
const running = new Map<number, Promise<void>>();

/**
 * Processes a connection's stored posts in order: every entry and change, each routed by its
 * `phone_number_id` to the company's Cloud API connection (an unknown id: counted, nothing
 * stored). A post whose processing fails stays unprocessed for the next call (the job's tick);
 * its messages already stored are known again by their ids.
 */
export function processWebhooks(deps: AppDeps, companyId: number, whatsappId: number) {
  const previous = running.get(whatsappId) ?? Promise.resolve();
  const next = previous.then(() => drainInbox(deps, companyId, whatsappId)).catch((error) =>
    log.error("cloud api: webhook processing failed", { whatsappId, error })
  );
  running.set(whatsappId, next);
  next.finally(() => {
    if (running.get(whatsappId) === next) running.delete(whatsappId);
  });
  return next;
}

export type WebhookCounts = { stored: number; unknownNumbers: number; skipped: number };
export const webhookCounts: WebhookCounts = { stored: 0, unknownNumbers: 0, skipped: 0 };

async function drainInbox(deps: AppDeps, companyId: number, whatsappId: number) {
  for (const post of await repo.pendingInbox(deps.db, companyId, whatsappId)) {
    try {
      for (const change of changesOf(JSON.parse(post.body))) {
        const target = change.phoneNumberId
          ? await repo.findCloudByPhoneNumberId(deps.db, companyId, change.phoneNumberId)
          : undefined;
        if (!target) {
          webhookCounts.unknownNumbers++;
          log.warn("cloud api: post for an unknown phone number id", {
            companyId,
            phoneNumberId: change.phoneNumberId,
          });
          continue;
        }
        const provider = await runningProvider(deps, companyId, target.whatsappId);
        const result = await provider.receive(change.value);
        webhookCounts.stored += result.stored;
        webhookCounts.skipped += result.skipped;
      }
      await repo.markInbox(deps.db, companyId, post.id, {
        processedAt: deps.clock.now().toISOString(),
        lastError: null,
      });
    } catch (error) {
      log.warn("cloud api: post left for a retry", { whatsappId, inboxId: post.id, error });
      await repo.markInbox(deps.db, companyId, post.id, {
        processedAt: null,
        lastError: (error instanceof Error ? error.message : String(error)).slice(0, 500),
      });
      return;
    }
  }
}

async function runningProvider(
  deps: AppDeps,
  companyId: number,
  whatsappId: number,
): Promise<CloudProvider> {
  let provider = deps.sessions.provider(whatsappId);
  if (!provider) {
    await deps.sessions.start(companyId, whatsappId);
    provider = deps.sessions.provider(whatsappId);
  }
  if (!(provider instanceof CloudProvider)) throw new Error("the connection is not running here");
  return provider;
}

/** The cloud_webhooks job: posts left unprocessed are processed again (processedAt IS NULL). */
export async function processPendingWebhooks(deps: AppDeps) {
  for (const c of await repo.connectionsWithPendingPosts(deps.db)) {
    await processWebhooks(deps, c.companyId, c.whatsappId);
  }
}
