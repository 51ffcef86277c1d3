import { z } from "zod";
import { isTimeZone } from "../../contract/time_zone.ts";
import { LIMITS } from "../../contract/validation.ts";

/**
 * Every setting a company may change and the values each accepts (seeds/001 sections 2 and 3).
 * Keys not listed here do not exist (ERR_NO_SETTING_FOUND).
 *
 * `secret` values (integration tokens) are shown to admins only; `superOnly` keys are platform
 * switches that a company admin cannot turn (userCreation gates creating users; campaignsEnabled
 * is set with the company by super users).
 */
const toggle = z.enum(["enabled", "disabled"], "Use enabled ou disabled");
const text = z.string().trim().max(500, "Too Long!");

/**
 * `sealed` values (the assistant's API key) are kept sealed at rest (server/crypto/sealed.ts) and
 * never answered back: reads show a mask, and sending the mask back keeps the stored key.
 */
export type SettingRule = {
  schema: z.ZodType<string>;
  secret?: boolean;
  superOnly?: boolean;
  sealed?: boolean;
};

export const SETTING_RULES: Readonly<Record<string, SettingRule>> = Object.freeze({
  userRating: { schema: toggle },
  scheduleType: {
    schema: z.enum(["disabled", "queue", "company"], "Use disabled, queue ou company"),
  },
  CheckMsgIsGroup: { schema: toggle },
  call: { schema: toggle },
  chatBotType: { schema: z.enum(["text"], "Somente text") },
  sendGreetingAccepted: { schema: toggle },
  // Issue 28: the greeting's text ({{user}}, {{name}}, ... : contract/message_variables.ts);
  // empty: the product's own (server/tickets/greeting.ts GREETING_ACCEPTED).
  greetingAcceptedMessage: {
    schema: z.string().trim().max(LIMITS.greetingAccepted.max, "Too Long!"),
  },
  sendMsgTransfTicket: { schema: toggle },
  ipixc: { schema: text },
  tokenixc: { schema: text, secret: true },
  ipmkauth: { schema: text },
  clientidmkauth: { schema: text },
  clientsecretmkauth: { schema: text, secret: true },
  asaas: { schema: text, secret: true },
  // Issue 26: minutes offline after which an attendant's untouched distributed tickets go to
  // others (0: never; unset: contract/queue_types.ts DEFAULT_OFFLINE_MINUTES).
  distributionOfflineMinutes: {
    schema: z.string().trim().regex(/^\d{1,4}$/, "Use de 0 a 9999 minutos"),
  },
  // Issue 30: who must sign in with a second factor, and whether a login ends the user's other
  // sessions ('disabled', the specification's one session per user) or keeps them.
  twoFactorRequired: {
    schema: z.enum(["disabled", "admins", "everyone"], "Use disabled, admins ou everyone"),
  },
  multipleSessions: { schema: toggle },
  superTwoFactor: { schema: toggle, superOnly: true },
  // Issue 30: days the audit log keeps a row, every company's (0 keeps all; unset:
  // AUDIT_RETENTION_DAYS). Kept with the super users' company, as superTwoFactor.
  auditRetentionDays: {
    schema: z.string().trim().regex(/^\d{1,5}$/, "Use de 0 a 99999 dias"),
    superOnly: true,
  },
  userCreation: { schema: toggle, superOnly: true },
  timeZone: {
    schema: z.string().trim().refine(
      isTimeZone,
      "Fuso horário desconhecido (ex.: America/Sao_Paulo)",
    ),
  },
  campaignsEnabled: { schema: z.enum(["true", "false"], "Use true ou false"), superOnly: true },
  // Issue 48: the attendant's assistant (server/assist/account.ts). Empty base URL, key and
  // models: the platform's (AI_BASE_URL, AI_API_KEY, OPENAI_MODEL, OPENAI_TRANSCRIPTION_MODEL).
  assistTranscription: { schema: toggle },
  assistSummary: { schema: toggle },
  assistSuggestions: { schema: toggle },
  assistBaseUrl: {
    schema: z.string().trim().max(500, "Too Long!").refine(
      (v) => v === "" || /^https?:\/\/[^\s]+$/.test(v),
      "Use um endereço http(s)://",
    ),
    secret: true,
  },
  assistApiKey: { schema: z.string().trim().max(500, "Too Long!"), secret: true, sealed: true },
  assistModel: { schema: z.string().trim().max(100, "Too Long!") },
  assistTranscriptionModel: { schema: z.string().trim().max(100, "Too Long!") },
  // Estimated US dollars a month after which the features pause (0: no cap).
  assistMonthlyCap: {
    schema: z.string().trim().regex(/^\d{1,6}(\.\d{1,2})?$/, "Use um valor em dólares, ex.: 20"),
  },
});

export function isSealedSetting(key: string): boolean {
  return SETTING_RULES[key]?.sealed === true;
}

export function isSecretSetting(key: string): boolean {
  return SETTING_RULES[key]?.secret === true;
}
