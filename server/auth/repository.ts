import type { Insertable } from "kysely";
import type { Database } from "../../db/client.ts";
import type { RefreshTokensTable } from "../../db/schema.ts";
import { randomSecret } from "./secrets.ts";

/** The row a token's `sid` names, when that session is live and belongs to the token's user. */
export type LiveSession = { id: number; publicId: string };

/** Starts a session for a user; its public id (24 random bytes) goes into the tokens. */
export async function createSession(
  db: Database,
  companyId: number,
  userId: number,
  now: string,
): Promise<LiveSession> {
  const publicId = randomSecret(24);
  const row = await db.insertInto("sessions").values({
    publicId,
    companyId,
    userId,
    createdAt: now,
    lastSeenAt: now,
    endedAt: null,
    endReason: null,
  }).returning("id").executeTakeFirstOrThrow();
  return { id: row.id, publicId };
}

/** One lookup through the unique index on publicId; undefined if ended, deleted or not theirs. */
export async function findLiveSession(
  db: Database,
  publicId: string,
  companyId: number,
  userId: number,
): Promise<LiveSession | undefined> {
  return await db.selectFrom("sessions").select(["id", "publicId"])
    .where("publicId", "=", publicId).where("companyId", "=", companyId)
    .where("userId", "=", userId).where("endedAt", "is", null).executeTakeFirst();
}

/** Ends every live session of a user; their tokens stop working at the next request. */
export async function endSessions(
  db: Database,
  companyId: number,
  userId: number,
  now: string,
  reason: string,
) {
  await db.updateTable("sessions").set({ endedAt: now, endReason: reason })
    .where("userId", "=", userId).where("companyId", "=", companyId)
    .where("endedAt", "is", null).execute();
}

/** Marks a session as used now (on each refresh, not on each request: no write per request). */
export async function touchSession(db: Database, companyId: number, id: number, now: string) {
  await db.updateTable("sessions").set({ lastSeenAt: now }).where("id", "=", id)
    .where("companyId", "=", companyId).execute();
}

export async function insertRefreshToken(db: Database, row: Insertable<RefreshTokensTable>) {
  await db.insertInto("refresh_tokens").values(row).execute();
}

/** Whether the user holds a refresh token that is neither revoked nor expired. */
export async function hasLiveRefreshToken(
  db: Database,
  companyId: number,
  userId: number,
  now: string,
): Promise<boolean> {
  const live = await db.selectFrom("refresh_tokens").select("id").where("userId", "=", userId)
    .where("companyId", "=", companyId).where("revokedAt", "is", null)
    .where("expiresAt", ">", now).limit(1).executeTakeFirst();
  return live !== undefined;
}

export async function findRefreshToken(
  db: Database,
  companyId: number,
  userId: number,
  id: string,
) {
  return await db.selectFrom("refresh_tokens").selectAll().where("id", "=", id)
    .where("userId", "=", userId).where("companyId", "=", companyId).executeTakeFirst();
}

/** Revokes one refresh token (rotation); a concurrent rotation that got there first wins. */
export async function revokeRefreshToken(
  db: Database,
  companyId: number,
  id: string,
  now: string,
) {
  await db.updateTable("refresh_tokens").set({ revokedAt: now }).where("id", "=", id)
    .where("companyId", "=", companyId).where("revokedAt", "is", null).execute();
}

/** Revokes every refresh token of a user (logout everywhere, password change, new login). */
export async function revokeRefreshTokens(
  db: Database,
  companyId: number,
  userId: number,
  now: string,
) {
  await db.updateTable("refresh_tokens").set({ revokedAt: now }).where("userId", "=", userId)
    .where("companyId", "=", companyId).where("revokedAt", "is", null).execute();
}

/** The user's queues as the session shows them. */
export async function queuesOfUser(db: Database, companyId: number, userId: number) {
  return await db.selectFrom("user_queues").innerJoin("queues", "queues.id", "user_queues.queueId")
    .select(["queues.id", "queues.name", "queues.color"])
    .where("user_queues.companyId", "=", companyId).where("user_queues.userId", "=", userId)
    .orderBy("queues.orderQueue").orderBy("queues.name").execute();
}
