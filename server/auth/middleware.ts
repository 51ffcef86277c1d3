import type { MiddlewareHandler } from "hono";
import type { AppDeps, AppEnv, AuthInfo } from "../context.ts";
import { AppError } from "../errors.ts";
import { type FeatureFlag, flagForPath } from "../plans/features.ts";
import { findCaller } from "./repository.ts";
import { endedSessionError, sessionRules } from "./service.ts";
import { verifyAccessToken } from "./tokens.ts";
import { assertAllowed } from "./policy.ts";
import { type Action, rolesOf } from "../../contract/policy.ts";
import { clientAddress } from "../http/client_address.ts";

/**
 * What a session that must turn on two-factor first (the company's or the platform's
 * requirement, sessions.enrolling) may still reach: who it is, the setup itself and the way out.
 */
const ENROLLING_PATHS = new Set([
  "/api/auth/me",
  "/api/auth/logout",
  "/api/auth/2fa/setup",
  "/api/auth/2fa/enable",
]);

function assertEnrolled(auth: AuthInfo, path: string) {
  if (!auth.enrolling || ENROLLING_PATHS.has(path)) return;
  throw new AppError(
    403,
    "ERR_TWO_FACTOR_SETUP_REQUIRED",
    "Ative a verificação em duas etapas para continuar",
  );
}

function bearer(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const [scheme, token] = header.split(" ");
  return scheme?.toLowerCase() === "bearer" && token ? token : undefined;
}

/**
 * Resolves a token to the caller. The company comes from here only (DESIGN: tenancy). The token's
 * session must be live and belong to the token's user and company: a token of a deleted user, of
 * an ended session (logout, a newer login, a password change) is refused, and no token can ever
 * name a user other than the one it was issued to (issue 19). User, company, plan, session and
 * the user's queues are read in one statement, on every request (no cache: issue 33).
 */
export async function authenticate(deps: AppDeps, token: string | undefined): Promise<AuthInfo> {
  if (!token) throw new AppError(401, "ERR_SESSION_EXPIRED", "Not signed in");
  const now = deps.clock.now();
  const claims = await verifyAccessToken(token, deps.secrets.access, now);
  const loaded = await findCaller(deps.db, claims.companyId, claims.userId, claims.sessionId);
  if (!loaded) throw new AppError(401, "ERR_UNAUTHORIZED", "Invalid token");
  const session = loaded.session;
  if (!session) {
    throw await endedSessionError(deps, claims.companyId, claims.userId, claims.sessionId);
  }
  if (loaded.user.tokenVersion !== claims.tokenVersion) {
    throw new AppError(401, "ERR_SESSION_EXPIRED", "Session ended by another login");
  }
  const { restricted, enrolling } = sessionRules(loaded, now);
  return {
    ...(restricted ? { restricted } : {}),
    userId: loaded.user.id,
    companyId: loaded.company.id,
    sessionId: session.id,
    enrolling,
    profile: loaded.user.profile.toLowerCase() === "admin" ? "admin" : "user",
    isSuper: loaded.user.super === 1,
    roles: rolesOf({ profile: loaded.user.profile, super: loaded.user.super === 1 }),
    user: loaded.user,
    company: loaded.company,
    plan: loaded.plan,
    queueIds: loaded.queueIds,
  };
}

/**
 * Authenticates the caller, then applies the plan gate of server/plans/features.ts ROUTE_FLAGS
 * to the request path: every route under a gated prefix is refused for a company whose current
 * plan lacks the flag, whichever sub-app serves it.
 */
export function requireAuth(deps: AppDeps): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const auth = await authenticate(deps, bearer(c.req.header("authorization")));
    auth.client = {
      ip: clientAddress(c, deps.config.trustedProxies),
      userAgent: c.req.header("user-agent")?.slice(0, 300) ?? null,
    };
    assertEnrolled(auth, c.req.path);
    c.set("auth", auth);
    const flag = flagForPath(c.req.path);
    if (flag) assertPlanFlag(auth?.plan, flag);
    await next();
  };
}

/** 403 ERR_PLAN_FEATURE_DISABLED unless the plan has the flag (also for callers with a connection token). */
export function assertPlanFlag(plan: AuthInfo["plan"] | undefined, flag: FeatureFlag) {
  if (!plan || plan[flag] !== 1) {
    throw new AppError(
      403,
      "ERR_PLAN_FEATURE_DISABLED",
      "Esta empresa não possui permissão para acessar essa página!",
    );
  }
}

/** Which action an allow() middleware checks (tests/api/policy_walk_test.ts walks the routes). */
export const POLICY_GATES = new WeakMap<MiddlewareHandler<AppEnv>, Action>();

/**
 * The route's line of the policy table (contract/policy.ts): 403 ERR_NO_PERMISSION 'Acesso não
 * permitido' for a caller whose roles it does not list. After requireAuth (no caller: refused).
 */
export function allow(action: Action): MiddlewareHandler<AppEnv> {
  const gate: MiddlewareHandler<AppEnv> = async (c, next) => {
    assertAllowed(c.get("auth"), action);
    await next();
  };
  POLICY_GATES.set(gate, action);
  return gate;
}

/** Which flag a requirePlan middleware checks (tests/api/plan_gates_test.ts walks the routes). */
export const PLAN_GATES = new WeakMap<MiddlewareHandler<AppEnv>, FeatureFlag>();

/**
 * Plan flags switch features off on the server too, not only in the menu. Routes under a prefix
 * of ROUTE_FLAGS are gated by requireAuth already; this is for routes that authenticate another
 * way (a connection token) and set `auth` themselves.
 */
export function requirePlan(flag: FeatureFlag): MiddlewareHandler<AppEnv> {
  const gate: MiddlewareHandler<AppEnv> = async (c, next) => {
    assertPlanFlag(c.get("auth")?.plan, flag);
    await next();
  };
  PLAN_GATES.set(gate, flag);
  return gate;
}
