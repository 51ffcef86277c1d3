import type { Database } from "../../db/client.ts";
import type { Company, Plan, User } from "../../db/schema.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError } from "../errors.ts";
import { flagSwitches } from "../plans/features.ts";
import { disconnectSession, disconnectUser } from "../realtime/members.ts";
import { listSettings } from "../settings/repository.ts";
import { hasPaidInvoice } from "../billing/repository.ts";
import { countUnseenNotices } from "../distribution/taken_back_repository.ts";
import { bumpTokenVersion, findUserByEmail, findUserWithCompany } from "../users/repository.ts";
import { generatePassword, hashPassword, verifyPassword } from "./passwords.ts";
import {
  type Caller,
  createSession,
  endedSessionReason,
  endOneSession,
  endSessions,
  findCaller,
  findRefreshToken,
  hasLiveRefreshToken,
  insertRefreshToken,
  type LiveSession,
  queuesOfUser,
  revokeRefreshToken,
  revokeRefreshTokens,
  touchSession,
} from "./repository.ts";
import { signAccessToken, signRefreshToken, verifyRefreshToken } from "./tokens.ts";
import type { PlanFlags, SessionUser, TwoFactorChallenge } from "../../contract/types.ts";
import type { Restriction } from "../../contract/policy.ts";
import { actorOf, recordAudit } from "../audit/service.ts";
import { getSettingValue } from "../settings/repository.ts";
import { enrolmentRequired, mustEnrol, startChallenge } from "./challenges.ts";

let dummyHash: string | undefined;

/** The signed-in user as the client sees it (seeds/000 section 7: POST /auth/login answer). */
export type { PlanFlags, SessionUser };

export function planFlags(plan: Plan | null): PlanFlags | null {
  if (!plan) return null;
  return {
    id: plan.id,
    name: plan.name,
    users: plan.users,
    connections: plan.connections,
    queues: plan.queues,
    ...flagSwitches(plan),
  };
}

export async function sessionUser(
  db: Database,
  user: User,
  company: Company,
  plan: Plan | null,
  enrolling = false,
): Promise<SessionUser> {
  const [memberships, settings, paid, takenBack] = await Promise.all([
    queuesOfUser(db, company.id, user.id),
    listSettings(db, company.id),
    hasPaidInvoice(db, company.id),
    countUnseenNotices(db, company.id, user.id),
  ]);
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    profile: user.profile,
    super: user.super === 1,
    companyId: company.id,
    whatsappId: user.whatsappId,
    allTicket: user.allTicket,
    online: user.online === 1,
    queues: memberships.map(({ id, name, color }) => ({ id, name, color })),
    supervisedQueueIds: memberships.filter((q) => q.supervisor === 1).map((q) => q.id),
    twoFactor: { enabled: user.twoFactorEnabledAt !== null, mustEnable: enrolling },
    takenBack,
    company: {
      id: company.id,
      name: company.name,
      dueDate: company.dueDate,
      trial: !paid,
      settings,
      plan: planFlags(plan),
    },
  };
}

function formatDate(isoDate: string): string {
  const [y, m, d] = isoDate.slice(0, 10).split("-");
  return `${d}/${m}/${y}`;
}

function expiredText(company: Company): string {
  return company.dueDate
    ? `Sua assinatura expirou em ${
      formatDate(company.dueDate)
    }. Entre em contato com o suporte para mais informações!`
    : "Empresa inativa. Entre em contato com o suporte.";
}

/**
 * Late: past its due date, or switched off by the due-date job for non-payment (blockedAt). A
 * company a super user switched off by hand (status 0 without blockedAt) is not late: it is off.
 */
export function isLate(company: Company, now: Date): boolean {
  const pastDue = company.dueDate !== null &&
    company.dueDate.slice(0, 10) < now.toISOString().slice(0, 10);
  return pastDue || (company.status !== 1 && company.blockedAt !== null);
}

/** What a session of this user may do: all, or (issue 29) only pay, with the message shown. */
export type CompanyAccess = { restricted?: Restriction; message?: string };

/**
 * A company can be used until the end of its due date and while it is on (status); super users
 * are never locked out. A late company's admin gets a billing-only session (issue 29: /financeiro
 * and /subscription, contract/policy.ts BILLING_SESSION_ACTIONS) with the specification's
 * message; its plain users and a company switched off by hand stay refused.
 */
export function companyAccess(user: Pick<User, "super" | "profile">, company: Company, now: Date) {
  if (user.super === 1) return {};
  if (company.status !== 1 && company.blockedAt === null) {
    throw new AppError(
      401,
      "ERR_SUBSCRIPTION_EXPIRED",
      "Empresa inativa. Entre em contato com o suporte.",
    );
  }
  if (!isLate(company, now)) return {};
  if (user.profile.toLowerCase() !== "admin") {
    throw new AppError(401, "ERR_SUBSCRIPTION_EXPIRED", expiredText(company));
  }
  return { restricted: "billing", message: expiredText(company) } satisfies CompanyAccess;
}

/**
 * What a session may do, from the rows as they are now (issue 43 item 3): the one rule that
 * every request (middleware.ts authenticate), every refresh and every socket (through
 * authenticate) apply, so a change under a live session counts at its next request and its next
 * refresh: the company switched off or late (companyAccess), the company or the platform
 * starting to require two-factor sign-in (`enrolling`: only the setup is reachable until it is on).
 * A new profile or password ends the session instead (users/service.ts); the user's queues are
 * read with the caller on every request.
 */
export function sessionRules(caller: Caller, now: Date): CompanyAccess & { enrolling: boolean } {
  const access = companyAccess(caller.user, caller.company, now);
  return { ...access, enrolling: enrolmentRequired(caller.user, caller.twoFactorRule) };
}

/** Connection tokens (the send API) of a late or switched-off company are refused outright. */
export function assertCompanyActive(user: Pick<User, "super">, company: Company, now: Date) {
  if (user.super === 1) return;
  // The date first: a company the due-date job switched off is told when its subscription ended.
  if (isLate(company, now) && company.dueDate) {
    throw new AppError(401, "ERR_SUBSCRIPTION_EXPIRED", expiredText(company));
  }
  if (company.status !== 1) {
    throw new AppError(
      401,
      "ERR_SUBSCRIPTION_EXPIRED",
      "Empresa inativa. Entre em contato com o suporte.",
    );
  }
}

export type IssuedSession = {
  token: string;
  refreshToken: string;
  user: SessionUser;
} & CompanyAccess;

/** A new token pair for a live session (a login, or a refresh rotating the previous pair). */
async function issue(
  deps: AppDeps,
  user: User,
  company: Company,
  plan: Plan | null,
  session: LiveSession,
  enrolling: boolean,
  db: Database = deps.db,
): Promise<IssuedSession> {
  const now = deps.clock.now();
  const jti = crypto.randomUUID();
  await insertRefreshToken(db, {
    id: jti,
    userId: user.id,
    companyId: company.id,
    expiresAt: new Date(now.getTime() + deps.config.refreshTokenTtlSeconds * 1000).toISOString(),
    revokedAt: null,
    createdAt: now.toISOString(),
    sessionId: session.id,
  });
  const claims = {
    userId: user.id,
    companyId: company.id,
    tokenVersion: user.tokenVersion,
    sessionId: session.publicId,
  };
  const [token, refreshToken, view] = await Promise.all([
    signAccessToken(claims, deps.secrets.access, deps.config.accessTokenTtlSeconds, now),
    signRefreshToken(
      { ...claims, jti },
      deps.secrets.refresh,
      deps.config.refreshTokenTtlSeconds,
      now,
    ),
    sessionUser(db, user, company, plan, enrolling),
  ]);
  return { token, refreshToken, user: view };
}

/** Why a session ended (sessions.endReason). */
export type SessionEndReason =
  | "logout"
  | "newLogin"
  | "passwordChanged"
  | "profileChanged"
  | "refreshReused";

/**
 * Ends every session of a user: sessions marked ended (their tokens' `sid` stops matching), refresh
 * tokens revoked and the token version bumped. Used for a password change, a login elsewhere, a
 * logout and a stolen refresh token.
 */
export async function endUserSessions(
  db: Database,
  companyId: number,
  userId: number,
  now: string,
  reason: SessionEndReason,
) {
  await endSessions(db, companyId, userId, now, reason);
  await revokeRefreshTokens(db, companyId, userId, now);
  return await bumpTokenVersion(db, companyId, userId, now);
}

/** Where a login comes from: the session and the audit log keep it. */
export type ClientMeta = { ip: string; userAgent: string | null };

export type LoginResult = IssuedSession | TwoFactorChallenge;

/**
 * Checks the credentials. A user with two-factor on gets a challenge to answer with a code
 * (POST /auth/login/2fa, server/auth/two_factor.ts); anyone else a session. A wrong password of
 * a known account is recorded in its company's audit log.
 */
export async function login(
  deps: AppDeps,
  email: string,
  password: string,
  client: ClientMeta,
): Promise<LoginResult> {
  const found = await findUserByEmail(deps.db, email);
  // Compare against a throwaway hash when the user is unknown so that timing does not reveal emails.
  dummyHash ??= await hashPassword(generatePassword(), deps.config.bcryptCost);
  const ok = await verifyPassword(password, found?.passwordHash ?? dummyHash);
  const now = deps.clock.now();
  if (found && !ok) {
    await recordAudit(deps.db, now.toISOString(), {
      companyId: found.companyId,
      actor: { userId: found.id, userName: found.name, ...client },
      action: "auth.loginFailed",
      entity: "user",
      entityId: found.id,
      after: { reason: "password" },
    });
  }
  if (!found || !ok) {
    throw new AppError(401, "ERR_INVALID_CREDENTIALS", "Invalid email or password");
  }
  const loaded = await findUserWithCompany(deps.db, found.companyId, found.id);
  if (!loaded) throw new AppError(401, "ERR_INVALID_CREDENTIALS", "Invalid email or password");
  // A late company's plain users are refused here; its admin gets a billing-only session (29).
  companyAccess(loaded.user, loaded.company, now);
  if (loaded.user.twoFactorEnabledAt !== null) return await startChallenge(deps, loaded.user);
  return await startSession(deps, loaded, client, "password");
}

type LoadedUser = NonNullable<Awaited<ReturnType<typeof findUserWithCompany>>>;

/**
 * Starts a session for a user whose credentials passed. 'One session per user' (seeds/000
 * section 4) unless the company's multipleSessions setting is on: then a login ends the user's
 * other sessions and closes their sockets, announcing it to them first. The session and the
 * login's audit row are written in one transaction.
 */
export async function startSession(
  deps: AppDeps,
  loaded: LoadedUser,
  client: ClientMeta,
  method: "password" | "totp" | "recovery",
): Promise<IssuedSession> {
  const { user: found, company } = loaded;
  const now = deps.clock.now();
  const stamp = now.toISOString();
  const [several, enrolling] = await Promise.all([
    getSettingValue(deps.db, company.id, "multipleSessions").then((v) => v === "enabled"),
    mustEnrol(deps, found),
  ]);
  const access = companyAccess(found, company, now);
  const elsewhere = !several && await hasLiveRefreshToken(deps.db, company.id, found.id, stamp);
  // Ending the other sessions, starting this one (its refresh token included) and the audit row
  // are one transaction (issues 30, 34): a login refused midway (a full disk) leaves the other
  // sessions as they were.
  const issued = await deps.db.transaction().execute(async (trx) => {
    const version = several
      ? found.tokenVersion
      : await endUserSessions(trx, company.id, found.id, stamp, "newLogin");
    const session = await createSession(trx, company.id, found.id, stamp, {
      ...client,
      enrolling,
    });
    await recordAudit(trx, stamp, {
      companyId: company.id,
      actor: { userId: found.id, userName: found.name, ...client },
      action: "auth.login",
      entity: "session",
      entityId: session.id,
      after: { method },
    });
    const user = { ...found, tokenVersion: version ?? found.tokenVersion };
    return { ...await issue(deps, user, company, loaded.plan, session, enrolling, trx), ...access };
  });
  if (elsewhere) {
    // seeds/000 section 4: the other session shows 'Sua conta foi acessada em outro computador.'
    // Told right after the commit (never for a login that was refused), before the sockets close.
    deps.events.emit("user.signedInElsewhere", { companyId: company.id, userId: found.id });
  }
  // Every socket open now belongs to a session this login ended (the new one connects after this
  // answer): they close, after the event above (a close sends what is queued first).
  if (!several) disconnectUser(deps.hub, company.id, found.id, "session ended");
  return issued;
}

/**
 * How long a refresh token that was just rotated is still accepted. A browser that leaves the
 * page while its refresh is answered never stores the new cookie and presents the old one again
 * on the next page; without this window that ordinary navigation would end the session as theft.
 */
export const REFRESH_REUSE_GRACE_MS = 30_000;

/** The reasons of a session ended from somewhere else: the user's other device or an admin. */
const ENDED_ELSEWHERE = new Set(["endedByUser", "endedByAdmin"]);

/**
 * The 401 for a token whose session is over. One ended from another device (the security
 * dialog's 'Encerrar', an admin) says so, so the login page can tell the person why they are
 * there (issue 50 item 14); anything else is the plain expired session.
 */
export async function endedSessionError(
  deps: AppDeps,
  companyId: number,
  userId: number,
  sessionPublicId: string,
): Promise<AppError> {
  const reason = await endedSessionReason(deps.db, sessionPublicId, companyId, userId);
  if (reason && ENDED_ELSEWHERE.has(reason)) {
    return new AppError(
      401,
      "ERR_SESSION_ENDED_ELSEWHERE",
      "Esta sessão foi encerrada em outro dispositivo",
    );
  }
  return new AppError(401, "ERR_SESSION_EXPIRED", "Session expired");
}

/**
 * Rotates a refresh token: the presented one is revoked and a new pair issued. Presenting a
 * revoked token again means it was copied: every session of that user is ended, unless it was
 * rotated less than REFRESH_REUSE_GRACE_MS ago (and the user's sessions were not ended since:
 * the tokenVersion check below).
 */
export async function refresh(
  deps: AppDeps,
  presented: string | undefined,
): Promise<IssuedSession> {
  if (!presented) throw new AppError(401, "ERR_SESSION_EXPIRED", "Session expired");
  const now = deps.clock.now();
  const claims = await verifyRefreshToken(presented, deps.secrets.refresh, now);
  const row = await findRefreshToken(deps.db, claims.companyId, claims.userId, claims.jti);
  if (!row) throw new AppError(401, "ERR_SESSION_EXPIRED", "Session expired");
  const justRotated = row.revokedAt !== null &&
    now.getTime() - Date.parse(row.revokedAt) <= REFRESH_REUSE_GRACE_MS;
  if (row.revokedAt !== null && !justRotated) {
    // Revoked because its session was ended (another device, an admin, a logout): not a copied
    // token, and the user's other sessions stay (issue 50 item 14).
    const ended = await endedSessionError(deps, claims.companyId, claims.userId, claims.sessionId);
    if (ended.code === "ERR_SESSION_ENDED_ELSEWHERE") throw ended;
    // Also bumps the token version: the tokens revoked now must not pass as "just rotated".
    await endUserSessions(
      deps.db,
      claims.companyId,
      claims.userId,
      now.toISOString(),
      "refreshReused",
    );
    disconnectUser(deps.hub, claims.companyId, claims.userId, "session ended");
    throw new AppError(401, "ERR_SESSION_EXPIRED", "Session expired");
  }
  if (!justRotated) {
    // No row changed means a concurrent refresh rotated it this instant: the grace window's case.
    await revokeRefreshToken(deps.db, claims.companyId, row.id, now.toISOString());
  }
  if (row.expiresAt <= now.toISOString()) {
    throw new AppError(401, "ERR_SESSION_EXPIRED", "Session expired");
  }
  // The caller as a request reads it, and the same rules: a refresh renews only what a request
  // would still allow (a requirement set since the login holds the new pair to the setup).
  const caller = await findCaller(deps.db, claims.companyId, claims.userId, claims.sessionId);
  if (caller && !caller.session) {
    throw await endedSessionError(deps, claims.companyId, claims.userId, claims.sessionId);
  }
  const session = caller?.session;
  if (
    !caller || !session || row.sessionId !== session.id ||
    caller.user.tokenVersion !== claims.tokenVersion
  ) {
    throw new AppError(401, "ERR_SESSION_EXPIRED", "Session expired");
  }
  const { enrolling, ...access } = sessionRules(caller, now);
  await touchSession(deps.db, claims.companyId, session.id, now.toISOString());
  const { user, company, plan } = caller;
  return { ...await issue(deps, user, company, plan, session, enrolling), ...access };
}

/**
 * Ends the caller's session and its sockets: with one session per user (the default) that is
 * every session of theirs; with the company's multipleSessions on, only this one.
 */
export async function logout(deps: AppDeps, auth: AuthInfo) {
  const { companyId, userId } = auth;
  const now = deps.clock.now().toISOString();
  const several = await getSettingValue(deps.db, companyId, "multipleSessions") === "enabled";
  await deps.db.transaction().execute(async (trx) => {
    if (several) await endOneSession(trx, companyId, auth.sessionId, now, "logout");
    else await endUserSessions(trx, companyId, userId, now, "logout");
    await recordAudit(trx, now, {
      companyId,
      actor: actorOf(auth),
      action: "auth.logout",
      entity: "session",
      entityId: auth.sessionId,
    });
  });
  if (several) disconnectSession(deps.hub, companyId, auth.sessionId, "session ended");
  else disconnectUser(deps.hub, companyId, userId, "session ended");
}
