import type { Database } from "../../db/client.ts";
import type { Company, Plan, User } from "../../db/schema.ts";

export type UserWithCompany = { user: User; company: Company; plan: Plan | null };

/** Login looks a user up by email across companies: emails are unique platform-wide. */
export async function findUserByEmail(db: Database, email: string): Promise<User | undefined> {
  return await db.selectFrom("users").selectAll().where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
}

/** The user with their company and plan, in one query; undefined when any is gone. */
export async function findUserWithCompany(
  db: Database,
  companyId: number,
  userId: number,
): Promise<UserWithCompany | undefined> {
  const user = await db.selectFrom("users").selectAll().where("id", "=", userId)
    .where("companyId", "=", companyId).executeTakeFirst();
  if (!user) return undefined;
  const company = await db.selectFrom("companies").selectAll().where("id", "=", companyId)
    .executeTakeFirst();
  if (!company) return undefined;
  const plan = company.planId === null
    ? null
    : (await db.selectFrom("plans").selectAll().where("id", "=", company.planId)
      .executeTakeFirst()) ??
      null;
  return { user, company, plan };
}

export async function userQueueIds(
  db: Database,
  companyId: number,
  userId: number,
): Promise<number[]> {
  const rows = await db.selectFrom("user_queues").select("queueId").where(
    "companyId",
    "=",
    companyId,
  )
    .where("userId", "=", userId).execute();
  return rows.map((r) => r.queueId);
}

export async function bumpTokenVersion(
  db: Database,
  companyId: number,
  userId: number,
  now: string,
) {
  const row = await db.updateTable("users")
    .set((eb) => ({ tokenVersion: eb("tokenVersion", "+", 1), updatedAt: now }))
    .where("id", "=", userId).where("companyId", "=", companyId)
    .returning("tokenVersion").executeTakeFirst();
  return row?.tokenVersion;
}

export async function setUserOnline(
  db: Database,
  companyId: number,
  userId: number,
  online: boolean,
  now: string,
) {
  await db.updateTable("users").set({ online: online ? 1 : 0, lastSeenAt: now })
    .where("id", "=", userId).where("companyId", "=", companyId).execute();
}
