import type { Database } from "../../db/client.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import { actorOf, type AuditActor, recordAudit } from "../audit/service.ts";
import { seal, unseal } from "../crypto/sealed.ts";
import { findUserWithCompany } from "../users/repository.ts";
import { assertAllowed } from "./policy.ts";
import { guardAttempt } from "./rate_limit.ts";
import { openChallenge, sha256Hex } from "./challenges.ts";
import { type ClientMeta, type IssuedSession, startSession } from "./service.ts";
import { matchTotp, newTotpSecret, otpauthUrl } from "./totp.ts";
import * as repo from "./two_factor_repository.ts";

/**
 * Two-factor sign-in (issue 30): TOTP codes of an authenticator app (server/auth/totp.ts), ten
 * single-use recovery codes shown once and stored hashed, a company or platform requirement
 * (challenges.ts mustEnrol) and an admin's reset for a lost device. Every change is audited in
 * its own transaction.
 */
export const RECOVERY_CODES = 10;

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"; // no 0/O, 1/I: read from paper

function newRecoveryCode(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  const chars = Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join("");
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

/** How a typed recovery code is compared: case, spaces and the dash do not matter. */
function normalisedRecovery(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, "");
}

function invalidCode() {
  return new AppError(401, "ERR_INVALID_TWO_FACTOR_CODE", "Código inválido");
}

async function userOf(deps: AppDeps, companyId: number, userId: number) {
  const user = await repo.findTwoFactor(deps.db, companyId, userId);
  if (!user) throw notFound("ERR_NO_USER_FOUND", "Usuário não encontrado");
  return user;
}

/** POST /auth/2fa/setup: a new secret while enrolling (two-factor stays off until confirmed). */
export async function setupTwoFactor(deps: AppDeps, auth: AuthInfo) {
  const user = await userOf(deps, auth.companyId, auth.userId);
  if (user.twoFactorEnabledAt !== null) {
    throw new AppError(
      409,
      "ERR_TWO_FACTOR_ALREADY_ENABLED",
      "A verificação em duas etapas já está ativa",
    );
  }
  const secret = newTotpSecret();
  await repo.setPendingSecret(
    deps.db,
    auth.companyId,
    auth.userId,
    await seal(deps.secrets.data, secret),
    deps.clock.now().toISOString(),
  );
  const url = otpauthUrl(secret, user.email);
  // The QR code is drawn here: the browser's bundle stays without a QR encoder.
  // qrcode loads with the first enrolment, not at start (issue 33).
  const { default: QRCode } = await import("qrcode");
  return { secret, otpauthUrl: url, qrCode: await QRCode.toDataURL(url, { margin: 1 }) };
}

/**
 * Whether `code` is a valid TOTP code of the user now (each time step accepted once) or, when
 * `recovery`, an unused recovery code (spent here). Which one matched, or null.
 */
async function checkCode(
  deps: AppDeps,
  user: { id: number; twoFactorSecret: string | null },
  companyId: number,
  code: string,
  recovery: boolean,
  /** Writes the recovery code's audit row in the transaction that spends the code. */
  recordRecovery?: (trx: Database) => Promise<void>,
): Promise<"totp" | "recovery" | null> {
  if (!user.twoFactorSecret) return null;
  const now = deps.clock.now();
  const typed = code.trim();
  const secret = await unseal(deps.secrets.data, user.twoFactorSecret);
  const step = matchTotp(secret, typed, now);
  if (step !== null) {
    return await repo.takeTotpStep(deps.db, companyId, user.id, step) ? "totp" : null;
  }
  if (!recovery) return null;
  const hash = await sha256Hex(normalisedRecovery(typed));
  const spent = await deps.db.transaction().execute(async (trx) => {
    const spent = await repo.spendRecoveryCode(trx, companyId, user.id, hash, now.toISOString());
    if (spent && recordRecovery) await recordRecovery(trx);
    return spent;
  });
  return spent ? "recovery" : null;
}

/** POST /auth/2fa/enable {code}: the first code confirms the app; the recovery codes, once. */
export async function enableTwoFactor(deps: AppDeps, auth: AuthInfo, code: string) {
  const user = await userOf(deps, auth.companyId, auth.userId);
  if (user.twoFactorEnabledAt !== null) {
    throw new AppError(
      409,
      "ERR_TWO_FACTOR_ALREADY_ENABLED",
      "A verificação em duas etapas já está ativa",
    );
  }
  if (!user.twoFactorSecret) {
    throw new AppError(400, "ERR_TWO_FACTOR_NOT_SET_UP", "Gere o código QR antes de confirmar");
  }
  if (await checkCode(deps, user, auth.companyId, code, false) === null) throw invalidCode();
  const recoveryCodes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  const hashes = await Promise.all(recoveryCodes.map((c) => sha256Hex(normalisedRecovery(c))));
  const now = deps.clock.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    await repo.markTwoFactorOn(trx, auth.companyId, auth.userId, now);
    await repo.replaceRecoveryCodes(trx, auth.companyId, auth.userId, hashes, now);
    await recordAudit(trx, now, {
      companyId: auth.companyId,
      actor: actorOf(auth),
      action: "twoFactor.enabled",
      entity: "user",
      entityId: auth.userId,
      before: { twoFactor: false },
      after: { twoFactor: true },
    });
  });
  return { recoveryCodes };
}

async function turnOff(
  deps: AppDeps,
  companyId: number,
  userId: number,
  actor: AuditActor,
  action: "twoFactor.disabled" | "twoFactor.reset",
) {
  const now = deps.clock.now().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    await repo.clearTwoFactor(trx, companyId, userId, now);
    await recordAudit(trx, now, {
      companyId,
      actor,
      action,
      entity: "user",
      entityId: userId,
      before: { twoFactor: true },
      after: { twoFactor: false },
    });
  });
}

/** POST /auth/2fa/disable {code}: one's own, proven by a current code or a recovery code. */
export async function disableTwoFactor(deps: AppDeps, auth: AuthInfo, code: string) {
  const user = await userOf(deps, auth.companyId, auth.userId);
  if (user.twoFactorEnabledAt === null) {
    throw new AppError(
      409,
      "ERR_TWO_FACTOR_NOT_ENABLED",
      "A verificação em duas etapas não está ativa",
    );
  }
  if (await checkCode(deps, user, auth.companyId, code, true) === null) throw invalidCode();
  await turnOff(deps, auth.companyId, auth.userId, actorOf(auth), "twoFactor.disabled");
}

/**
 * POST /users/:id/2fa/reset (admins): a user who lost their device signs in with the password
 * alone again (and enrols again where it is required). Only super users reset a super user.
 */
export async function resetTwoFactor(deps: AppDeps, auth: AuthInfo, userId: number) {
  assertAllowed(auth, "two-factor:reset");
  const user = await userOf(deps, auth.companyId, userId);
  if (user.super === 1) {
    assertAllowed(auth, "user:manage-super", "Somente super usuários alteram este usuário");
  }
  await turnOff(deps, auth.companyId, userId, actorOf(auth), "twoFactor.reset");
}

/**
 * POST /auth/login/2fa {challenge, code}: the second step of a login. Wrong codes count against
 * the user and the address like wrong passwords (LOGIN_MAX_ATTEMPTS...); a recovery code works
 * once; the challenge is used once, by the first right code.
 */
export async function completeTwoFactorLogin(
  deps: AppDeps,
  challenge: string,
  code: string,
  client: ClientMeta,
  retryAfter: (seconds: number) => void,
): Promise<IssuedSession> {
  const open = await openChallenge(deps, challenge);
  if (!open) {
    throw new AppError(401, "ERR_TWO_FACTOR_CHALLENGE_EXPIRED", "Entre com a senha novamente");
  }
  return await guardAttempt(
    deps.attemptLimits,
    { kind: "2fa", account: `${open.companyId}:${open.userId}`, address: client.ip },
    async () => {
      const loaded = await findUserWithCompany(deps.db, open.companyId, open.userId);
      if (!loaded) throw invalidCode();
      const now = deps.clock.now().toISOString();
      const actor = { userId: loaded.user.id, userName: loaded.user.name, ...client };
      const method = await checkCode(
        deps,
        loaded.user,
        open.companyId,
        code,
        true,
        async (trx) =>
          await recordAudit(trx, now, {
            companyId: open.companyId,
            actor,
            action: "twoFactor.recoveryCodeUsed",
            entity: "user",
            entityId: loaded.user.id,
            after: {
              recoveryCodesLeft: await repo.countUnusedRecoveryCodes(
                trx,
                open.companyId,
                loaded.user.id,
              ),
            },
          }),
      );
      if (method === null) {
        await recordAudit(deps.db, now, {
          companyId: open.companyId,
          actor,
          action: "auth.loginFailed",
          entity: "user",
          entityId: loaded.user.id,
          after: { reason: "twoFactor" },
        });
        throw invalidCode();
      }
      if (!await repo.spendChallenge(deps.db, open.companyId, open.id, now)) {
        throw new AppError(401, "ERR_TWO_FACTOR_CHALLENGE_EXPIRED", "Entre com a senha novamente");
      }
      return await startSession(deps, loaded, client, method);
    },
    {
      isFailure: (e) => e instanceof AppError && e.code === "ERR_INVALID_TWO_FACTOR_CODE",
      retryAfter,
    },
  );
}
