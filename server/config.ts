import { Cron } from "croner";
import { z } from "zod";
import { type IpRange, parseIpRange } from "./http/ip_address.ts";
import { parseDnsServer } from "./http/outbound_url.ts";

/**
 * Configuration from the environment, read once at boot, validated, frozen.
 * A bad value stops the boot with a message that names the variable.
 */
const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  MEDIA_DIR: z.string().min(1).optional(),
  DATABASE_URL: z.string().regex(
    /^(file:|libsql:|https?:|wss?:|postgres(ql)?:\/\/)/,
    "must be a file:, libsql:, http(s):, ws(s): or postgres:// URL",
  )
    .optional(),
  DATABASE_AUTH_TOKEN: z.string().optional(),
  PUBLIC_URL: z.url().optional(),
  ADMIN_EMAIL: z.email().default("admin@balcao.local"),
  ADMIN_PASSWORD: z.string().min(5).max(50).optional(),
  JWT_SECRET: z.string().refine(
    (v) => new TextEncoder().encode(v).length >= 32,
    "must be at least 32 bytes",
  )
    .optional(),
  JWT_REFRESH_SECRET: z.string().refine(
    (v) => new TextEncoder().encode(v).length >= 32,
    "must be at least 32 bytes",
  )
    .optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(10).default(15 * 60),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).default(7 * 24 * 3600),
  BCRYPT_COST: z.coerce.number().int().min(4).max(15).default(10),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1024 * 1024),
  MEDIA_MAX_BYTES: z.coerce.number().int().min(1024).default(64 * 1024 * 1024),
  IMPORT_MAX_BYTES: z.coerce.number().int().min(1024).default(10 * 1024 * 1024),
  HELD_JOURNAL_BYTES: z.coerce.number().int().min(4096).default(16 * 1024 * 1024),
  LOGIN_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(10),
  LOGIN_MAX_ATTEMPTS_PER_ADDRESS: z.coerce.number().int().min(1).default(50),
  LOGIN_WINDOW_SECONDS: z.coerce.number().int().min(1).default(15 * 60),
  // Reverse proxies whose X-Forwarded-For is believed (server/http/client_address.ts).
  TRUSTED_PROXIES: z.string().refine(
    (v) => ipRanges(v) !== undefined,
    "must be IP addresses or CIDR ranges, separated by commas",
  ).optional(),
  COOKIE_SECURE: z.enum(["auto", "true", "false"]).default("auto"),
  /** db/tenancy.ts: "strict" in the test suite (a query without the company fails). */
  TENANCY_GUARD: z.enum(["off", "strict"]).default("off"),
  SIGNUP_ENABLED: z.enum(["true", "false"]).default("true"),
  /** Issue 29: a company's admin may choose another plan on /financeiro. */
  PLAN_CHANGE_ENABLED: z.enum(["true", "false"]).default("true"),
  SIGNUP_MAX_PER_IP: z.coerce.number().int().min(1).default(5),
  SIGNUP_WINDOW_SECONDS: z.coerce.number().int().min(1).default(3600),
  DUE_DATE_GRACE_DAYS: z.coerce.number().int().min(0).max(365).default(7),
  // Billing (README 'Payments'): which provider makes the invoices' Pix codes.
  PAYMENT_PROVIDER: z.enum(["static", "asaas"]).default("static"),
  PIX_KEY: z.string().trim().min(1).max(77).optional(),
  PIX_MERCHANT_NAME: z.string().trim().min(1).max(25).default("Balcao"),
  PIX_MERCHANT_CITY: z.string().trim().min(1).max(15).default("Sao Paulo"),
  ASAAS_API_URL: z.url().default("https://api.asaas.com/v3"),
  ASAAS_API_KEY: z.string().min(1).optional(),
  ASAAS_WEBHOOK_TOKEN: z.string().min(32, "must be at least 32 characters").max(255).optional(),
  INVOICE_DAYS_AHEAD: z.coerce.number().int().min(0).max(60).default(10),
  DATA_ENCRYPTION_KEY: z.string().refine(
    (v) => new TextEncoder().encode(v).length >= 32,
    "must be at least 32 bytes",
  ).optional(),
  INTEGRATIONS_ALLOW_PRIVATE_URLS: z.enum(["true", "false"]).default("false"),
  OUTBOUND_DNS_SERVER: z.string().refine(
    (v) => parseDnsServer(v) !== undefined,
    "must be ip:port (an IPv6 address in brackets)",
  ).optional(),
  INTEGRATION_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(10_000),
  OPENAI_BASE_URL: z.url().default("https://api.openai.com/v1"),
  OPENAI_MODEL: z.string().min(1).max(100).default("gpt-4o-mini"),
  OPENAI_TRANSCRIPTION_MODEL: z.string().min(1).max(100).default("whisper-1"),
  AI_BASE_URL: z.url().optional(),
  AI_API_KEY: z.string().min(1).max(500).optional(),
  AI_TIMEOUT_MS: z.coerce.number().int().min(50).max(300_000).default(30_000),
  WHATSAPP_CLOUD_API_URL: z.url().default("https://graph.facebook.com/v23.0"),
  DIALOGFLOW_API_URL: z.url().default("https://dialogflow.googleapis.com"),
  TTS_URL: z.string().min(1).default(
    "https://{region}.tts.speech.microsoft.com/cognitiveservices/v1",
  ),
  EXTERNAL_API_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(60),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(10_000),
  WEBHOOK_DISABLE_AFTER: z.coerce.number().int().min(1).max(10_000).default(15),
  // Operations (issue 17): metrics, backups, password recovery mail.
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_CRON: z.string().min(1).refine(isCron, "must be a cron expression").optional(),
  BACKUP_KEEP: z.coerce.number().int().min(1).default(7),
  // Issue 34: admins see a banner when DATA_DIR's free space is under either threshold.
  STORAGE_WARN_BYTES: z.coerce.number().int().min(0).default(1024 * 1024 * 1024),
  STORAGE_WARN_PERCENT: z.coerce.number().min(0).max(100).default(5),
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(0).default(365),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL").optional(),
  SMTP_FROM: z.string().min(3).optional(),
  PASSWORD_RESET_TTL_SECONDS: z.coerce.number().int().min(60).max(86400).default(1800),
  // Several processes on one database (docs/scaling.md): session leases and this process's name.
  SESSION_LEASE_SECONDS: z.coerce.number().int().min(2).max(600).optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, "must be a redis:// or rediss:// URL").optional(),
  INSTANCE_ID: z.string().trim().min(1).max(100).optional(),
  // Issue 42: Web Push. The contact the push services may write to (RFC 8292), and the VAPID key
  // pair when it should not be generated and kept in the database.
  VAPID_SUBJECT: z.string().regex(/^(mailto:|https:)/, "must be a mailto: or https: URL")
    .optional(),
  VAPID_PUBLIC_KEY: z.string().regex(/^[A-Za-z0-9_-]{87}$/, "must be a base64url P-256 key")
    .optional(),
  VAPID_PRIVATE_KEY: z.string().regex(/^[A-Za-z0-9_-]{43}$/, "must be a base64url P-256 key")
    .optional(),
  PUSH_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(10_000),
  // Issue 43 item 2(c): how long a noted outgoing event (webhooks, pushes) is left to the live
  // path of the process that committed it before the `outgoing` job of any process recovers it.
  OUTGOING_GRACE_MS: z.coerce.number().int().min(0).max(3_600_000).default(30_000),
  // Tests only: the process kills itself (SIGKILL) when it tells this domain event, i.e. right
  // after the commit and before any listener ran (tests/ops/outgoing_kill_test.ts).
  CRASH_AFTER_COMMIT: z.string().optional(),
});

export type BillingConfig = Readonly<{
  provider: "static" | "asaas";
  pixKey?: string;
  pixMerchantName: string;
  pixMerchantCity: string;
  asaasApiUrl: string;
  asaasApiKey?: string;
  asaasWebhookToken?: string;
  /** How many days before a company's due date its invoice is created. */
  invoiceDaysAhead: number;
}>;

export type Config = Readonly<{
  port: number;
  host: string;
  dataDir: string;
  /**
   * Uploaded and received files (default `$DATA_DIR/media`): its own setting so that processes on
   * several machines, each with a DATA_DIR of its own, share one media folder (docs/scaling.md).
   */
  mediaDir: string;
  databaseUrl: string;
  tenancyGuard: "off" | "strict";
  databaseAuthToken?: string;
  publicUrl: string;
  adminEmail: string;
  adminPassword?: string;
  jwtSecret?: string;
  jwtRefreshSecret?: string;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  bcryptCost: number;
  bodyLimitBytes: number;
  mediaMaxBytes: number;
  /** Largest spreadsheet upload of an import (contacts, contact lists). */
  importMaxBytes: number;
  /**
   * Space reserved in the data folder for inbound events held while storage is full, so that a
   * restart still stores them (server/whatsapp/sessions/held_journal.ts).
   */
  heldJournalBytes: number;
  /** Failed logins (and recovery attempts) allowed per account in a window. */
  loginMaxAttempts: number;
  /** The same, per client address (a shared office address holds many accounts). */
  loginMaxAttemptsPerAddress: number;
  loginWindowSeconds: number;
  /** Proxies whose X-Forwarded-For names the client (empty: the peer is the client). */
  trustedProxies: readonly IpRange[];
  cookieSecure: boolean;
  /** Public signup (/signup, POST /api/companies/cadastro) is open. */
  signupEnabled: boolean;
  /** A company's admin may change its plan (PUT /api/subscription/plan). */
  planChangeEnabled: boolean;
  signupMaxPerIp: number;
  signupWindowSeconds: number;
  /** Days after the due date before the due-date job blocks an unpaid company. */
  dueDateGraceDays: number;
  billing: BillingConfig;
  /** Seals integration and prompt secrets at rest; generated and kept in the database if unset. */
  dataEncryptionKey?: string;
  /** Outside bots on private or loopback addresses (self-hosted n8n, tests' fake servers). */
  integrationsAllowPrivateUrls: boolean;
  /** `ip:port` resolving the names of users' URLs (server/http/outbound_fetch.ts); else the system's. */
  outboundDnsServer?: string;
  /** One attempt's limit for a call to an outside bot service. */
  integrationTimeoutMs: number;
  openaiBaseUrl: string;
  openaiModel: string;
  openaiTranscriptionModel: string;
  /**
   * Issue 48: the platform's OpenAI-compatible service for the attendant's assistant when a
   * company sets none (AI_BASE_URL, else OPENAI_BASE_URL; AI_API_KEY), and one call's limit.
   */
  ai: { baseUrl: string; apiKey?: string; timeoutMs: number };
  dialogflowApiUrl: string;
  /** Meta's Graph API base for Cloud API connections (issue 45); a test points it at a fake. */
  whatsappCloudApiUrl: string;
  /** Text-to-speech endpoint (Azure Speech REST); `{region}` is the prompt's voiceRegion. */
  ttsUrl: string;
  /** Sends per minute allowed to one connection token on POST /api/messages/send. */
  externalApiRateLimit: number;
  /** One webhook delivery attempt's limit. */
  webhookTimeoutMs: number;
  /** Failed delivery attempts in a row that disable a webhook. */
  webhookDisableAfter: number;
  /** /metrics answers only with this bearer token; unset, /metrics is off (404). */
  metricsToken?: string;
  /** Where backups go (default `$DATA_DIR/backups`), when (`BACKUP_CRON`) and how many stay. */
  backupDir: string;
  backupCron?: string;
  backupKeep: number;
  /** The low-space banner: free bytes of DATA_DIR under this, or under this share of the disk. */
  storageWarnBytes: number;
  storageWarnPercent: number;
  /** Days the audit log keeps a row (issue 30); 0 keeps every row. */
  auditRetentionDays: number;
  /** Password recovery mail; without it only admins reset passwords. */
  smtpUrl?: string;
  smtpFrom: string;
  passwordResetTtlSeconds: number;
  /** Set: WhatsApp sessions run under a lease row (several processes); unset: one process. */
  sessionLeaseSeconds?: number;
  instanceId: string;
  /**
   * Set: events, session commands and deployment-wide limits go through Redis (N processes behind
   * a plain load balancer, docs/scaling.md); unset: one process, and nothing of Redis is loaded.
   */
  redisUrl?: string;
  /** Web Push (issue 42): the VAPID contact, the key pair (else kept in the database). */
  /** OUTGOING_GRACE_MS (server/events/outgoing.ts). */
  outgoingGraceMs: number;
  /** CRASH_AFTER_COMMIT: a test's crash point (server/events/bus.ts). */
  crashAfterCommit?: string;
  push: Readonly<{
    subject: string;
    publicKey?: string;
    privateKey?: string;
    /** One push service call's limit. */
    timeoutMs: number;
  }>;
}>;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/** Reads and validates the environment; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const cleaned: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== "") cleaned[key] = value;
  }
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue.path[0] ?? "environment");
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message}`);
  }
  const e = parsed.data;
  if (e.PAYMENT_PROVIDER === "asaas" && (!e.ASAAS_API_KEY || !e.ASAAS_WEBHOOK_TOKEN)) {
    throw new ConfigError(
      "Invalid configuration: PAYMENT_PROVIDER asaas needs ASAAS_API_KEY and ASAAS_WEBHOOK_TOKEN",
    );
  }
  if ((e.VAPID_PUBLIC_KEY === undefined) !== (e.VAPID_PRIVATE_KEY === undefined)) {
    throw new ConfigError(
      "Invalid configuration: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together",
    );
  }
  const dataDir = e.DATA_DIR.replace(/\/+$/, "");
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    dataDir,
    mediaDir: (e.MEDIA_DIR ?? `${dataDir}/media`).replace(/\/+$/, ""),
    databaseUrl: e.DATABASE_URL ?? `file:${dataDir}/balcao.db`,
    databaseAuthToken: e.DATABASE_AUTH_TOKEN,
    publicUrl,
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    jwtSecret: e.JWT_SECRET,
    jwtRefreshSecret: e.JWT_REFRESH_SECRET,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: e.REFRESH_TOKEN_TTL_SECONDS,
    bcryptCost: e.BCRYPT_COST,
    tenancyGuard: e.TENANCY_GUARD,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    mediaMaxBytes: e.MEDIA_MAX_BYTES,
    importMaxBytes: e.IMPORT_MAX_BYTES,
    heldJournalBytes: e.HELD_JOURNAL_BYTES,
    loginMaxAttempts: e.LOGIN_MAX_ATTEMPTS,
    loginMaxAttemptsPerAddress: e.LOGIN_MAX_ATTEMPTS_PER_ADDRESS,
    loginWindowSeconds: e.LOGIN_WINDOW_SECONDS,
    trustedProxies: Object.freeze(ipRanges(e.TRUSTED_PROXIES ?? "") ?? []),
    cookieSecure: e.COOKIE_SECURE === "auto"
      ? publicUrl.startsWith("https:")
      : e.COOKIE_SECURE === "true",
    signupEnabled: e.SIGNUP_ENABLED === "true",
    planChangeEnabled: e.PLAN_CHANGE_ENABLED === "true",
    signupMaxPerIp: e.SIGNUP_MAX_PER_IP,
    signupWindowSeconds: e.SIGNUP_WINDOW_SECONDS,
    dueDateGraceDays: e.DUE_DATE_GRACE_DAYS,
    billing: Object.freeze({
      provider: e.PAYMENT_PROVIDER,
      pixKey: e.PIX_KEY,
      pixMerchantName: e.PIX_MERCHANT_NAME,
      pixMerchantCity: e.PIX_MERCHANT_CITY,
      asaasApiUrl: e.ASAAS_API_URL.replace(/\/+$/, ""),
      asaasApiKey: e.ASAAS_API_KEY,
      asaasWebhookToken: e.ASAAS_WEBHOOK_TOKEN,
      invoiceDaysAhead: e.INVOICE_DAYS_AHEAD,
    }),
    dataEncryptionKey: e.DATA_ENCRYPTION_KEY,
    integrationsAllowPrivateUrls: e.INTEGRATIONS_ALLOW_PRIVATE_URLS === "true",
    outboundDnsServer: e.OUTBOUND_DNS_SERVER,
    integrationTimeoutMs: e.INTEGRATION_TIMEOUT_MS,
    openaiBaseUrl: e.OPENAI_BASE_URL.replace(/\/+$/, ""),
    openaiModel: e.OPENAI_MODEL,
    openaiTranscriptionModel: e.OPENAI_TRANSCRIPTION_MODEL,
    ai: {
      baseUrl: (e.AI_BASE_URL ?? e.OPENAI_BASE_URL).replace(/\/+$/, ""),
      apiKey: e.AI_API_KEY,
      timeoutMs: e.AI_TIMEOUT_MS,
    },
    dialogflowApiUrl: e.DIALOGFLOW_API_URL.replace(/\/+$/, ""),
    whatsappCloudApiUrl: e.WHATSAPP_CLOUD_API_URL.replace(/\/+$/, ""),
    ttsUrl: e.TTS_URL,
    externalApiRateLimit: e.EXTERNAL_API_RATE_LIMIT,
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    webhookDisableAfter: e.WEBHOOK_DISABLE_AFTER,
    metricsToken: e.METRICS_TOKEN,
    backupDir: (e.BACKUP_DIR ?? `${dataDir}/backups`).replace(/\/+$/, ""),
    backupCron: e.BACKUP_CRON,
    backupKeep: e.BACKUP_KEEP,
    storageWarnBytes: e.STORAGE_WARN_BYTES,
    storageWarnPercent: e.STORAGE_WARN_PERCENT,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM ?? `Balcão <no-reply@${new URL(publicUrl).hostname}>`,
    passwordResetTtlSeconds: e.PASSWORD_RESET_TTL_SECONDS,
    sessionLeaseSeconds: e.SESSION_LEASE_SECONDS,
    redisUrl: e.REDIS_URL,
    instanceId: e.INSTANCE_ID ?? `pid${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`,
    outgoingGraceMs: e.OUTGOING_GRACE_MS,
    crashAfterCommit: e.CRASH_AFTER_COMMIT,
    push: Object.freeze({
      // Unset: the address of the platform's admin (a push service writes there about abuse).
      subject: e.VAPID_SUBJECT ?? `mailto:${e.ADMIN_EMAIL}`,
      publicKey: e.VAPID_PUBLIC_KEY,
      privateKey: e.VAPID_PRIVATE_KEY,
      timeoutMs: e.PUSH_TIMEOUT_MS,
    }),
  });
}

/** `127.0.0.1, 10.0.0.0/8, ::1`; undefined when any item is not an address or range. */
function ipRanges(text: string): IpRange[] | undefined {
  const ranges: IpRange[] = [];
  for (const item of text.split(/[\s,]+/).filter((i) => i !== "")) {
    const range = parseIpRange(item);
    if (!range) return undefined;
    ranges.push(range);
  }
  return ranges;
}

function isCron(pattern: string): boolean {
  try {
    new Cron(pattern, { paused: true }).stop();
    return true;
  } catch {
    return false;
  }
}
