import { importPKCS8, SignJWT } from "jose";
import { z } from "zod";
import type { Config } from "../config.ts";
import { AppError } from "../errors.ts";
import { operatorFetch, type Outbound } from "../http/outbound_fetch.ts";
import type { BotDecision } from "./bot.ts";
import { handOver, type IntegrationHandler } from "./integration.ts";
import { callService, parseJson, ServiceError } from "./service_call.ts";

/**
 * dialogflow (ES) integrations over the REST API v2: the service account of `jsonContent` is
 * signed into an OAuth token with jose (the JWT bearer grant at the account's `token_uri`),
 * cached until shortly before it expires; each message goes to
 * `POST {DIALOGFLOW_API_URL}/v2/projects/{project}/agent/sessions/{session}:detectIntent`, and the
 * fulfilment texts go back to the contact. An intent with `endInteraction` (the console's "end
 * of conversation") or a custom payload `{"handover": true}` hands the ticket to people.
 */
const SCOPE = "https://www.googleapis.com/auth/cloud-platform";

const accountSchema = z.object({
  type: z.literal("service_account").optional(),
  project_id: z.string().trim().min(1).max(200),
  private_key_id: z.string().max(200).optional(),
  private_key: z.string().min(1).max(10_000).refine((v) => v.includes("PRIVATE KEY")),
  client_email: z.string().trim().min(3).max(320),
  token_uri: z.string().max(2000).default("https://oauth2.googleapis.com/token"),
}).passthrough();

export type ServiceAccount = z.infer<typeof accountSchema> & { raw: Record<string, unknown> };

export function invalidAccount(): AppError {
  return new AppError(400, "ERR_INVALID_SERVICE_ACCOUNT", "JSON da conta de serviço inválido");
}

/** The service account in `text`, or 400 ERR_INVALID_SERVICE_ACCOUNT. */
export function parseServiceAccount(text: string): ServiceAccount {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw invalidAccount();
  }
  const parsed = accountSchema.safeParse(json);
  if (!parsed.success) throw invalidAccount();
  return { ...parsed.data, raw: json as Record<string, unknown> };
}

const tokenAnswer = z.object({
  access_token: z.string().min(1).max(4096),
  expires_in: z.number().positive().max(86_400).default(3600),
});

const tokens = new Map<string, { token: string; expiresAt: number }>();

async function accessToken(
  config: Config,
  outbound: Outbound,
  account: ServiceAccount,
): Promise<string> {
  const cacheKey = `${account.client_email}|${account.token_uri}|${account.private_key_id ?? ""}`;
  const cached = tokens.get(cacheKey);
  if (cached && cached.expiresAt > Date.now() + 60_000) return cached.token;
  let key: CryptoKey;
  try {
    key = await importPKCS8(account.private_key, "RS256");
  } catch {
    throw new ServiceError("the service account's private key cannot be read", false);
  }
  const header = account.private_key_id
    ? { alg: "RS256", typ: "JWT", kid: account.private_key_id }
    : { alg: "RS256", typ: "JWT" };
  const assertion = await new SignJWT({ scope: SCOPE })
    .setProtectedHeader(header)
    .setIssuer(account.client_email)
    .setSubject(account.client_email)
    .setAudience(account.token_uri)
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(key);
  const answer = await callService(account.token_uri, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion,
    }).toString(),
    // token_uri comes from the user's service account JSON: checked like any user's URL.
  }, { timeoutMs: config.integrationTimeoutMs, via: (url, init) => outbound.fetch(url, init) });
  const parsed = tokenAnswer.safeParse(parseJson(answer.text));
  if (!parsed.success) throw new ServiceError("token endpoint answer is not a token", false);
  tokens.set(cacheKey, {
    token: parsed.data.access_token,
    expiresAt: Date.now() + parsed.data.expires_in * 1000,
  });
  return parsed.data.access_token;
}

const detectAnswer = z.object({
  queryResult: z.object({
    fulfillmentText: z.string().max(10_000).optional(),
    fulfillmentMessages: z.array(
      z.object({
        text: z.object({ text: z.array(z.string().max(10_000)).max(20).optional() }).optional(),
        payload: z.record(z.string(), z.unknown()).optional(),
      }).passthrough(),
    ).max(50).optional(),
    intent: z.object({
      displayName: z.string().max(500).optional(),
      endInteraction: z.boolean().optional(),
    }).passthrough().optional(),
  }).passthrough(),
}).passthrough();

async function detectIntent(
  config: Config,
  outbound: Outbound,
  account: ServiceAccount,
  args: { projectName: string; session: string; text: string; language: string },
) {
  const token = await accessToken(config, outbound, account);
  const url = `${config.dialogflowApiUrl}/v2/projects/${encodeURIComponent(args.projectName)}` +
    `/agent/sessions/${encodeURIComponent(args.session)}:detectIntent`;
  const answer = await callService(url, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({
      queryInput: { text: { text: args.text.slice(0, 256), languageCode: args.language } },
    }),
  }, { timeoutMs: config.integrationTimeoutMs, via: operatorFetch });
  const parsed = detectAnswer.safeParse(parseJson(answer.text));
  if (!parsed.success) throw new ServiceError("detectIntent answer does not match the API", false);
  return parsed.data.queryResult;
}

function decisionOf(result: z.infer<typeof detectAnswer>["queryResult"]): BotDecision {
  const texts = (result.fulfillmentMessages ?? []).flatMap((m) => m.text?.text ?? [])
    .filter((t) => t.trim() !== "");
  const replies = texts.length > 0
    ? texts
    : result.fulfillmentText?.trim()
    ? [result.fulfillmentText]
    : [];
  const human = result.intent?.endInteraction === true ||
    (result.fulfillmentMessages ?? []).some((m) => m.payload?.handover === true);
  return human ? handOver(replies) : { replies, changes: {} };
}

export const dialogflowTurn: IntegrationHandler = async ({ turn, integration, deps }) => {
  let account: ServiceAccount;
  try {
    account = parseServiceAccount(integration.jsonPlain);
  } catch {
    throw new ServiceError("stored service account unreadable", false);
  }
  const result = await detectIntent(deps.config, deps.outbound, account, {
    projectName: integration.projectName || account.project_id,
    // One dialogflow session per contact and connection: its contexts follow the conversation.
    session: `balcao-${turn.companyId}-${turn.whatsappId}-${turn.contact.id}`,
    text: turn.body || " ",
    language: integration.language,
  });
  return decisionOf(result);
};

/** POST /queueIntegration/testSession: do these credentials reach the agent? */
export async function testDialogflow(
  config: Config,
  outbound: Outbound,
  account: ServiceAccount,
  args: { projectName: string; language: string },
): Promise<{ ok: true; intent: string; replies: string[] }> {
  try {
    const result = await detectIntent(config, outbound, account, {
      projectName: args.projectName,
      session: `balcao-test-${crypto.randomUUID()}`,
      text: "Olá",
      language: args.language,
    });
    return {
      ok: true,
      intent: result.intent?.displayName ?? "",
      replies: decisionOf(result).replies,
    };
  } catch (error) {
    if (error instanceof ServiceError) {
      throw new AppError(400, "ERR_INTEGRATION_TEST_FAILED", error.message);
    }
    throw error;
  }
}
