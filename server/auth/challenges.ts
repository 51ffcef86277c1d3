import type { User } from "../../db/schema.ts";
import type { AppDeps } from "../context.ts";
import { getSettingValue } from "../settings/repository.ts";
import { randomSecret } from "./secrets.ts";
import { findChallenge, insertChallenge } from "./two_factor_repository.ts";
import type { TwoFactorChallenge } from "../../contract/types.ts";
import type { TwoFactorRule } from "./repository.ts";

/** How long the step between the password and the code stays open. */
export const CHALLENGE_TTL_MS = 5 * 60_000;

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The password passed for a user with two-factor on: a challenge to answer with a code. The
 * challenge names its company (`<companyId>.<secret>`) so that it is looked up within it; only
 * its hash is stored.
 */
export async function startChallenge(deps: AppDeps, user: User): Promise<TwoFactorChallenge> {
  const now = deps.clock.now();
  const challenge = `${user.companyId}.${randomSecret(24)}`;
  await insertChallenge(deps.db, {
    companyId: user.companyId,
    userId: user.id,
    challengeHash: await sha256Hex(challenge),
    now: now.toISOString(),
    expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS).toISOString(),
  });
  return { twoFactorRequired: true, challenge };
}

/** The live challenge a client presents, or undefined (unknown, used, expired, malformed). */
export async function openChallenge(deps: AppDeps, challenge: string) {
  const match = /^(\d{1,12})\.[A-Za-z0-9_-]{16,64}$/.exec(challenge);
  if (!match) return undefined;
  const companyId = Number(match[1]);
  const found = await findChallenge(
    deps.db,
    companyId,
    await sha256Hex(challenge),
    deps.clock.now().toISOString(),
  );
  return found && { ...found, companyId };
}

/**
 * Whether a user without two-factor must turn it on before anything else: the company's
 * twoFactorRequired setting ('admins' or 'everyone'), or for a super user the platform's
 * superTwoFactor setting (kept with the super user's own company, the platform's).
 */
export async function mustEnrol(deps: AppDeps, user: User): Promise<boolean> {
  const [company, platform] = await Promise.all([
    getSettingValue(deps.db, user.companyId, "twoFactorRequired"),
    getSettingValue(deps.db, user.companyId, "superTwoFactor"),
  ]);
  return enrolmentRequired(user, { company, platform });
}

/** The rule of mustEnrol on settings already read (every request reads them: findCaller). */
export function enrolmentRequired(
  user: Pick<User, "twoFactorEnabledAt" | "super" | "profile">,
  rule: TwoFactorRule,
): boolean {
  if (user.twoFactorEnabledAt !== null) return false;
  if (user.super === 1 && rule.platform === "enabled") return true;
  if (rule.company === "everyone") return true;
  return rule.company === "admins" && user.profile.toLowerCase() === "admin";
}
