import type { Database } from "../../db/client.ts";
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
export async function touchSession(db: Database, id: number, now: string) {
  await db.updateTable("sessions").set({ lastSeenAt: now }).where("id", "=", id).execute();
}
