import { z } from "zod";

/**
 * Configuration from the environment, read once at boot, validated, frozen.
 * A bad value stops the boot with a message that names the variable.
 */
const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: z.string().regex(
    /^(file:|libsql:|https?:|wss?:)/,
    "must be a file:, libsql:, http(s): or ws(s): URL",
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
  LOGIN_MAX_ATTEMPTS: z.coerce.number().int().min(1).default(10),
  LOGIN_WINDOW_SECONDS: z.coerce.number().int().min(1).default(15 * 60),
  COOKIE_SECURE: z.enum(["auto", "true", "false"]).default("auto"),
  EXTERNAL_API_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(60),
  INTEGRATIONS_ALLOW_PRIVATE_URLS: z.enum(["true", "false"]).default("false"),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(50).max(120_000).default(10_000),
  WEBHOOK_DISABLE_AFTER: z.coerce.number().int().min(1).max(10_000).default(15),
});

export type Config = Readonly<{
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string;
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
  loginMaxAttempts: number;
  loginWindowSeconds: number;
  cookieSecure: boolean;
  /** Sends per minute allowed to one connection token on POST /api/messages/send. */
  externalApiRateLimit: number;
  /** Outside bots on private or loopback addresses (self-hosted n8n, tests' fake servers). */
  integrationsAllowPrivateUrls: boolean;
  /** One webhook delivery attempt's limit. */
  webhookTimeoutMs: number;
  /** Failed delivery attempts in a row that disable a webhook. */
  webhookDisableAfter: number;
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
  const dataDir = e.DATA_DIR.replace(/\/+$/, "");
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    dataDir,
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
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    mediaMaxBytes: e.MEDIA_MAX_BYTES,
    loginMaxAttempts: e.LOGIN_MAX_ATTEMPTS,
    loginWindowSeconds: e.LOGIN_WINDOW_SECONDS,
    cookieSecure: e.COOKIE_SECURE === "auto"
      ? publicUrl.startsWith("https:")
      : e.COOKIE_SECURE === "true",
    externalApiRateLimit: e.EXTERNAL_API_RATE_LIMIT,
    integrationsAllowPrivateUrls: e.INTEGRATIONS_ALLOW_PRIVATE_URLS === "true",
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    webhookDisableAfter: e.WEBHOOK_DISABLE_AFTER,
  });
}
