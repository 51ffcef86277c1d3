import type { Database } from "../../db/client.ts";

/** The user's two-factor state: the sealed secret (pending or on), when it was turned on. */
export async function findTwoFactor(db: Database, companyId: number, userId: number) {
  return await db.selectFrom("users")
    .select(["id", "email", "name", "super", "twoFactorSecret", "twoFactorEnabledAt"])
    .where("id", "=", userId).where("companyId", "=", companyId).executeTakeFirst();
}

/** Keeps a new secret while the user enrols (not yet on: the login does not ask for it). */
export async function setPendingSecret(
  db: Database,
  companyId: number,
  userId: number,
  sealed: string,
  now: string,
) {
  await db.updateTable("users").set({ twoFactorSecret: sealed, updatedAt: now })
    .where("id", "=", userId).where("companyId", "=", companyId)
    .where("twoFactorEnabledAt", "is", null).execute();
}

/**
 * Takes a time step for this user's codes: only a step later than the last one taken is
 * accepted, in one statement, so the same code (or an earlier one) never works twice, even when
 * two requests carry it at once.
 */
export async function takeTotpStep(
  db: Database,
  companyId: number,
  userId: number,
  step: number,
): Promise<boolean> {
  const result = await db.updateTable("users").set({ twoFactorLastStep: step })
    .where("id", "=", userId).where("companyId", "=", companyId)
    .where((eb) => eb.or([eb("twoFactorLastStep", "is", null), eb("twoFactorLastStep", "<", step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function markTwoFactorOn(
  db: Database,
  companyId: number,
  userId: number,
  now: string,
) {
  await db.updateTable("users").set({ twoFactorEnabledAt: now, updatedAt: now })
    .where("id", "=", userId).where("companyId", "=", companyId).execute();
  // Sessions that had to enrol are free now.
  await db.updateTable("sessions").set({ enrolling: 0 }).where("userId", "=", userId)
    .where("companyId", "=", companyId).where("enrolling", "=", 1).execute();
}

/** Turns two-factor off: the secret and every recovery code go. */
export async function clearTwoFactor(
  db: Database,
  companyId: number,
  userId: number,
  now: string,
) {
  await db.updateTable("users").set({
    twoFactorSecret: null,
    twoFactorEnabledAt: null,
    twoFactorLastStep: null,
    updatedAt: now,
  }).where("id", "=", userId).where("companyId", "=", companyId).execute();
  await db.deleteFrom("recovery_codes").where("userId", "=", userId)
    .where("companyId", "=", companyId).execute();
}

export async function replaceRecoveryCodes(
  db: Database,
  companyId: number,
  userId: number,
  hashes: readonly string[],
  now: string,
) {
  await db.deleteFrom("recovery_codes").where("userId", "=", userId)
    .where("companyId", "=", companyId).execute();
  await db.insertInto("recovery_codes").values(
    hashes.map((codeHash) => ({ companyId, userId, codeHash, createdAt: now, usedAt: null })),
  ).execute();
}

/** Spends an unused recovery code; false when it is unknown or was used. */
export async function spendRecoveryCode(
  db: Database,
  companyId: number,
  userId: number,
  codeHash: string,
  now: string,
): Promise<boolean> {
  const result = await db.updateTable("recovery_codes").set({ usedAt: now })
    .where("companyId", "=", companyId).where("userId", "=", userId)
    .where("codeHash", "=", codeHash).where("usedAt", "is", null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function countUnusedRecoveryCodes(db: Database, companyId: number, userId: number) {
  const row = await db.selectFrom("recovery_codes")
    .select((eb) => eb.fn.countAll<number>().as("count")).where("companyId", "=", companyId)
    .where("userId", "=", userId).where("usedAt", "is", null).executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertChallenge(
  db: Database,
  row: { companyId: number; userId: number; challengeHash: string; now: string; expiresAt: string },
) {
  await db.insertInto("two_factor_challenges").values({
    companyId: row.companyId,
    userId: row.userId,
    challengeHash: row.challengeHash,
    createdAt: row.now,
    expiresAt: row.expiresAt,
    usedAt: null,
  }).execute();
}

/** A live challenge (not used, not expired) of the company, by its hash. */
export async function findChallenge(
  db: Database,
  companyId: number,
  challengeHash: string,
  now: string,
) {
  return await db.selectFrom("two_factor_challenges").select(["id", "userId"])
    .where("companyId", "=", companyId).where("challengeHash", "=", challengeHash)
    .where("usedAt", "is", null).where("expiresAt", ">", now).executeTakeFirst();
}

/** Uses a challenge once: false when another request used it first. */
export async function spendChallenge(db: Database, companyId: number, id: number, now: string) {
  const result = await db.updateTable("two_factor_challenges").set({ usedAt: now })
    .where("id", "=", id).where("companyId", "=", companyId).where("usedAt", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
