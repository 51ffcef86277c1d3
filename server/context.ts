import type { Context } from "hono";
import type { Database } from "../db/client.ts";
import type { TenancyBreaches } from "../db/tenancy.ts";
import type { Company, Plan, User } from "../db/schema.ts";
import type { Secrets } from "./auth/secrets.ts";
import type { RateLimiter } from "./auth/rate_limit.ts";
import type { Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import { AppError } from "./errors.ts";
import type { Hub } from "./realtime/hub.ts";
import type { Mailer } from "./mail/mailer.ts";
import type { SessionManager } from "./whatsapp/sessions/manager.ts";
import type { SimulatorNetwork } from "./whatsapp/providers/simulator/network.ts";

/** Everything the HTTP layer needs, built in main.ts (or a test) and passed in. */
export type AppDeps = {
  config: Config;
  db: Database;
  hub: Hub;
  secrets: Secrets;
  clock: Clock;
  loginLimiter: RateLimiter;
  /** WhatsApp sessions, the inbound pipeline and the outbox worker (server/whatsapp/). */
  sessions: SessionManager;
  /** The built-in phone network behind "simulator" connections. */
  simulator: SimulatorNetwork;
  /** SMTP for password recovery; undefined without SMTP_URL (server/mail/mailer.ts). */
  mailer?: Mailer;
  /** The server's shared lock on a local database (server/ops/data_lock.ts). */
  dataLock?: Deno.FsFile;
  /** Queries that forgot the company, when TENANCY_GUARD=strict (db/tenancy.ts). */
  tenancyBreaches?: TenancyBreaches;
};

/** Who is calling, set once by the auth middleware from the verified token. */
export type AuthInfo = {
  userId: number;
  companyId: number;
  /** sessions.id of the token's session (checked live on every request). */
  sessionId: number;
  profile: "admin" | "user";
  isSuper: boolean;
  user: User;
  company: Company;
  plan: Plan | null;
};

export type AppEnv = {
  Variables: { auth?: AuthInfo; remoteAddr?: string };
  Bindings: { remoteAddr?: string };
};

/** The caller; throws 401 if a route forgot requireAuth (never an undefined company). */
export function authOf(c: Context<AppEnv>): AuthInfo {
  const auth = c.get("auth");
  if (!auth) throw new AppError(401, "ERR_UNAUTHORIZED", "Not signed in");
  return auth;
}
