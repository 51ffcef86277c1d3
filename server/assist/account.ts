import type { AppDeps } from "../context.ts";
import { unsealOrEmpty } from "../crypto/sealed.ts";
import { settingValues } from "../settings/values.ts";
import { companyPlanFlag, monthUsageCost } from "./repository.ts";

/**
 * Issue 48: whose OpenAI-compatible account a company's assistant calls, and whether a feature
 * may run now. A company's own key (assistApiKey, sealed) goes to its own base URL
 * (assistBaseUrl) or the platform's; a company base URL without a key (a local Whisper server)
 * is called without one; otherwise the platform's (AI_BASE_URL or OPENAI_BASE_URL, AI_API_KEY).
 * The platform's key never goes to a company's URL.
 */
export const ASSIST_FEATURES = ["transcription", "summary", "suggestions"] as const;
export type AssistFeature = typeof ASSIST_FEATURES[number];

const FEATURE_SETTING: Record<AssistFeature, string> = {
  transcription: "assistTranscription",
  summary: "assistSummary",
  suggestions: "assistSuggestions",
};

/** Why a feature does not run: the plan, the company's switch, no account, the month's cap. */
export type AssistBlock = "plan" | "disabled" | "noAccount" | "cap";

export type AssistAccount = {
  baseUrl: string;
  apiKey: string;
  /** The company's own URL: called through the checked outbound fetch (SSRF rules). */
  companyUrl: boolean;
  chatModel: string;
  transcriptionModel: string;
  /** Estimated dollars a month after which features pause (0: none). */
  capDollars: number;
};

const KEYS = [
  "assistTranscription",
  "assistSummary",
  "assistSuggestions",
  "assistBaseUrl",
  "assistApiKey",
  "assistModel",
  "assistTranscriptionModel",
  "assistMonthlyCap",
] as const;

export async function assistAccount(
  deps: Pick<AppDeps, "db" | "config" | "secrets">,
  companyId: number,
): Promise<{ account?: AssistAccount; enabled: Record<AssistFeature, boolean> }> {
  const values = await settingValues(deps.db, companyId, KEYS);
  const enabled = Object.fromEntries(
    ASSIST_FEATURES.map((
      f,
    ) => [f, values[FEATURE_SETTING[f] as typeof KEYS[number]] === "enabled"]),
  ) as Record<AssistFeature, boolean>;
  const ownKey = values.assistApiKey
    ? await unsealOrEmpty(deps.secrets.data, values.assistApiKey)
    : "";
  const ownUrl = (values.assistBaseUrl ?? "").replace(/\/+$/, "");
  const { ai } = deps.config;
  let baseUrl: string;
  let apiKey: string;
  if (ownUrl) [baseUrl, apiKey] = [ownUrl, ownKey];
  else if (ownKey) [baseUrl, apiKey] = [ai.baseUrl, ownKey];
  else if (ai.apiKey) [baseUrl, apiKey] = [ai.baseUrl, ai.apiKey];
  else return { enabled };
  return {
    enabled,
    account: {
      baseUrl,
      apiKey,
      companyUrl: ownUrl !== "",
      chatModel: values.assistModel || deps.config.openaiModel,
      transcriptionModel: values.assistTranscriptionModel ||
        deps.config.openaiTranscriptionModel,
      capDollars: Number(values.assistMonthlyCap ?? "0") || 0,
    },
  };
}

/** 'YYYY-MM' of an instant (UTC): the meter's month. */
export function monthOf(date: Date): string {
  return date.toISOString().slice(0, 7);
}

/** The account when the feature may run for the company now, else why not. */
export async function assistGate(
  deps: Pick<AppDeps, "db" | "config" | "secrets" | "clock">,
  companyId: number,
  feature: AssistFeature,
): Promise<{ account: AssistAccount } | { blocked: AssistBlock }> {
  if (!await companyPlanFlag(deps.db, companyId)) return { blocked: "plan" };
  const { account, enabled } = await assistAccount(deps, companyId);
  if (!enabled[feature]) return { blocked: "disabled" };
  if (!account) return { blocked: "noAccount" };
  if (account.capDollars > 0) {
    const spent = await monthUsageCost(deps.db, companyId, monthOf(deps.clock.now()));
    if (spent >= account.capDollars * 1_000_000) return { blocked: "cap" };
  }
  return { account };
}
