import type { Context } from "hono";
import type { Database } from "../db/client.ts";
import type { TenancyBreaches } from "../db/tenancy.ts";
import type { Company, Plan, User } from "../db/schema.ts";
import type { Restriction, Role } from "../contract/policy.ts";
import type { Secrets } from "./auth/secrets.ts";
import type { AttemptLimits, CounterFactory } from "./auth/rate_limit.ts";
import type { Clock } from "./clock.ts";
import type { Config } from "./config.ts";
import type { Outbound } from "./http/outbound_fetch.ts";
import { AppError } from "./errors.ts";
import type { EventBus } from "./events/bus.ts";
import type { Hub } from "./realtime/hub.ts";
import type { RedisDeployment } from "./redis/wire.ts";
import type { Mailer } from "./mail/mailer.ts";
import type { SessionManager } from "./whatsapp/sessions/manager.ts";
import type { KeyedQueue } from "./whatsapp/keyed_queue.ts";
import type { StorageHealth } from "./storage/health.ts";
import type { SimulatorNetwork } from "./whatsapp/providers/simulator/network.ts";

/** Everything the HTTP layer needs, built in main.ts (or a test) and passed in. */
export type AppDeps = {
  config: Config;
  db: Database;
  /** This process's sockets. */
  hub: Hub;
  /** Set with REDIS_URL: events, session commands and limits shared by every process. */
  redis?: RedisDeployment;
  /** Domain events, told after commit (server/events/): sockets and webhooks listen. */
  events: EventBus;
  secrets: Secrets;
  clock: Clock;
  /** Failed logins and password recovery attempts, per account and per address. */
  attemptLimits: AttemptLimits;
  /** Counters of the other limits (signups, the external API): Redis's with REDIS_URL. */
  counters: CounterFactory;
  /** WhatsApp sessions, the inbound pipeline and the outbox worker (server/whatsapp/). */
  sessions: SessionManager;
  /** Every outbound call to a user's URL (server/http/outbound_fetch.ts). */
  outbound: Outbound;
  /** The built-in phone network behind "simulator" connections. */
  simulator: SimulatorNetwork;
  /** SMTP for password recovery; undefined without SMTP_URL (server/mail/mailer.ts). */
  mailer?: Mailer;
  /**
   * Work that runs after its request was answered (password recovery: the answer must not wait
   * on whether the email has an account); per key in order. closeDeps waits for it.
   */
  afterAnswer: KeyedQueue;
  /** The server's shared lock on a local database (server/ops/data_lock.ts). */
  dataLock?: Deno.FsFile;
  /** Whether writes under DATA_DIR work (issue 34): /healthz, the jobs' pause, 507/503 answers. */
  storage: StorageHealth;
  /** Queries that forgot the company, when TENANCY_GUARD=strict (db/tenancy.ts). */
  tenancyBreaches?: TenancyBreaches;
};

/** Who is calling, set once by the auth middleware from the verified token. */
export type AuthInfo = {
  userId: number;
  companyId: number;
  /** sessions.id of the token's session (checked live on every request). */
  sessionId: number;
  /** The session's user must turn on two-factor before anything else (server/auth/middleware.ts). */
  enrolling?: boolean;
  profile: "admin" | "user";
  isSuper: boolean;
  /** What the policy table reads (contract/policy.ts rolesOf: the profile, and super). */
  roles: readonly Role[];
  /** Issue 29: "billing" for a late company's admin (server/auth/service.ts companyAccess). */
  restricted?: Restriction;
  user: User;
  company: Company;
  plan: Plan | null;
  /** The user's queues, when read with the caller (requireAuth); else viewerOf reads them. */
  queueIds?: number[];
  /** Where the request came from (requireAuth): what the audit log records. */
  client?: { ip: string; userAgent: string | null };
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
