import type { Database } from "../../db/client.ts";
import { crossCompany } from "../../db/tenancy.ts";

/** A new recovery token (its hash) for a user; earlier unspent ones of the user are spent. */
export async function storeResetToken(
  db: Database,
  row: { companyId: number; userId: number; tokenHash: string; now: string; expiresAt: string },
) {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable("password_resets").set({ usedAt: row.now })
      .where("companyId", "=", row.companyId).where("userId", "=", row.userId)
      .where("usedAt", "is", null).execute();
    await trx.insertInto("password_resets").values({
      companyId: row.companyId,
      userId: row.userId,
      tokenHash: row.tokenHash,
      createdAt: row.now,
      expiresAt: row.expiresAt,
      usedAt: null,
    }).execute();
  });
}

/**
 * The user a live (unspent, unexpired) token was issued to, if that user has this email
 * (lowercase); undefined otherwise. One query whether or not the email has an account.
 */
export async function findResetTokenUser(
  db: Database,
  email: string,
  tokenHash: string,
  now: string,
): Promise<{ id: number; companyId: number } | undefined> {
  // The code is global: it names the company, as a login email does.
  return await crossCompany(db).selectFrom("password_resets as r")
    .innerJoin(
      "users as u",
      (join) => join.onRef("u.id", "=", "r.userId").onRef("u.companyId", "=", "r.companyId"),
    )
    .select(["u.id", "u.companyId"])
    .where("r.tokenHash", "=", tokenHash).where("u.email", "=", email)
    .where("r.usedAt", "is", null).where("r.expiresAt", ">", now)
    .executeTakeFirst();
}

/**
 * Spends a token: true only for the one call that finds it unspent and unexpired (the check and
 * the write are one statement, so a token works once even under concurrent resets).
 */
export async function spendResetToken(
  db: Database,
  companyId: number,
  userId: number,
  tokenHash: string,
  now: string,
): Promise<boolean> {
  const result = await db.updateTable("password_resets").set({ usedAt: now })
    .where("tokenHash", "=", tokenHash).where("companyId", "=", companyId)
    .where("userId", "=", userId).where("usedAt", "is", null).where("expiresAt", ">", now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** A user of any company (super users reset any password); undefined when there is none. */
export async function findAnyUser(db: Database, id: number) {
  return await crossCompany(db).selectFrom("users").select(["id", "companyId"]).where("id", "=", id)
    .executeTakeFirst();
}
