import { type Insertable, sql, type Updateable } from "kysely";
import type { Database } from "../../db/client.ts";
import { crossCompany } from "../../db/tenancy.ts";
import type { Company, Plan, User, UsersTable } from "../../db/schema.ts";
import { likePattern } from "../paging.ts";

export type UserWithCompany = { user: User; company: Company; plan: Plan | null };

/** Login looks a user up by email across companies: emails are unique platform-wide. */
export async function findUserByEmail(db: Database, email: string): Promise<User | undefined> {
  return await crossCompany(db).selectFrom("users").selectAll()
    .where("email", "=", email.trim().toLowerCase()).executeTakeFirst();
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

/**
 * The queues the user supervises (issue 26: a mark on their queue membership, not a profile):
 * they hear those queues' breaches. Reports scope a supervisor's figures by it too.
 */
export async function supervisedQueueIds(
  db: Database,
  companyId: number,
  userId: number,
): Promise<number[]> {
  const rows = await db.selectFrom("user_queues").select("queueId")
    .where("companyId", "=", companyId).where("userId", "=", userId)
    .where("supervisor", "=", 1).orderBy("queueId").execute();
  return rows.map((r) => r.queueId);
}

/** Who supervises the queue (issue 26): the users its breaches are told to, with the admins. */
export async function queueSupervisorIds(
  db: Database,
  companyId: number,
  queueId: number,
): Promise<number[]> {
  const rows = await db.selectFrom("user_queues").select("userId")
    .where("companyId", "=", companyId).where("queueId", "=", queueId)
    .where("supervisor", "=", 1).orderBy("userId").execute();
  return rows.map((r) => r.userId);
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

export type QueueRef = { id: number; name: string; color: string; supervisor: boolean };

/** A company's users by name, optionally filtered by name or email, with the total. */
export async function listUsers(
  db: Database,
  companyId: number,
  options: { search?: string; limit: number; offset: number },
): Promise<{ rows: User[]; count: number }> {
  let query = db.selectFrom("users").where("companyId", "=", companyId);
  const term = options.search?.trim();
  if (term) {
    const like = likePattern(term);
    query = query.where((eb) =>
      eb.or([
        eb(sql`name`, "like", sql`${like} ESCAPE '\\'`),
        eb(sql`email`, "like", sql`${like} ESCAPE '\\'`),
      ])
    );
  }
  const [rows, total] = await Promise.all([
    query.selectAll().orderBy(sql`name COLLATE NOCASE`).orderBy("id").limit(options.limit)
      .offset(options.offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.count) };
}

export async function findUser(
  db: Database,
  companyId: number,
  id: number,
): Promise<User | undefined> {
  return await db.selectFrom("users").selectAll().where("companyId", "=", companyId)
    .where("id", "=", id).executeTakeFirst();
}

/** Queues of several users in one query, keyed by user id. */
export async function queuesOfUsers(
  db: Database,
  companyId: number,
  userIds: readonly number[],
): Promise<Map<number, QueueRef[]>> {
  const byUser = new Map<number, QueueRef[]>();
  if (userIds.length === 0) return byUser;
  const rows = await db.selectFrom("user_queues as uq").innerJoin(
    "queues as q",
    "q.id",
    "uq.queueId",
  )
    .select(["uq.userId", "uq.supervisor", "q.id", "q.name", "q.color"])
    .where("uq.companyId", "=", companyId).where("uq.userId", "in", userIds)
    .orderBy("q.orderQueue").orderBy("q.name").execute();
  for (const r of rows) {
    const list = byUser.get(r.userId) ?? [];
    list.push({ id: r.id, name: r.name, color: r.color, supervisor: r.supervisor === 1 });
    byUser.set(r.userId, list);
  }
  return byUser;
}

/** Connection names of several ids in one query. */
export async function whatsappNames(
  db: Database,
  companyId: number,
  ids: readonly number[],
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom("whatsapps").select(["id", "name"])
    .where("companyId", "=", companyId).where("id", "in", ids).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

export async function countUsers(db: Database, companyId: number): Promise<number> {
  const row = await db.selectFrom("users").select((eb) => eb.fn.countAll<number>().as("count"))
    .where("companyId", "=", companyId).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Is the email used by another user of any company (emails log in platform-wide)? */
export async function emailTaken(db: Database, email: string, exceptId?: number) {
  let query = crossCompany(db).selectFrom("users").select("id")
    .where("email", "=", email.trim().toLowerCase());
  if (exceptId !== undefined) query = query.where("id", "<>", exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertUser(db: Database, values: Insertable<UsersTable>): Promise<User> {
  return await db.insertInto("users").values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateUserRow(
  db: Database,
  companyId: number,
  id: number,
  values: Updateable<UsersTable>,
): Promise<User | undefined> {
  return await db.updateTable("users").set(values).where("companyId", "=", companyId)
    .where("id", "=", id).returningAll().executeTakeFirst();
}

/** The user's queues, those in `supervised` marked as supervised by them (issue 26). */
export async function setUserQueues(
  db: Database,
  companyId: number,
  userId: number,
  queueIds: readonly number[],
  supervised: readonly number[],
) {
  await db.deleteFrom("user_queues").where("companyId", "=", companyId).where("userId", "=", userId)
    .execute();
  if (queueIds.length) {
    await db.insertInto("user_queues").values(
      queueIds.map((queueId) => ({
        companyId,
        userId,
        queueId,
        supervisor: supervised.includes(queueId) ? 1 : 0,
      })),
    ).execute();
  }
}

/**
 * Puts a user's pending and open tickets back to pending with no user (the user is leaving).
 * Answers the tickets with their placement before the change, for the realtime lists.
 */
export async function releaseUserTickets(
  db: Database,
  companyId: number,
  userId: number,
  now: string,
) {
  const before = await db.selectFrom("tickets").select(["id", "status", "queueId", "userId"])
    .where("companyId", "=", companyId).where("userId", "=", userId)
    .where("status", "in", ["pending", "open"]).execute();
  if (before.length) {
    await db.updateTable("tickets").set({ status: "pending", userId: null, updatedAt: now })
      .where("companyId", "=", companyId).where("id", "in", before.map((t) => t.id)).execute();
  }
  return before;
}

export async function deleteUserRow(db: Database, companyId: number, id: number) {
  await db.deleteFrom("users").where("companyId", "=", companyId).where("id", "=", id).execute();
}
