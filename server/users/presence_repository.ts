import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import { crossCompany } from "../../db/tenancy.ts";

/**
 * Presence across processes (user_presence, migration 0560): one row per (user, process holding a
 * socket of theirs); users.online is whether any row is left, recomputed in the transaction that
 * changes the rows, so no process decides it from its own sockets alone.
 */

/** users.online from the rows, for the users named; answers each one's value. */
async function recompute(db: Database, companyId: number, userId: number, now: string) {
  const row = await db.updateTable("users").set({
    // CASE: an integer on both engines (PostgreSQL's EXISTS is a boolean).
    online: sql<number>`CASE WHEN EXISTS (SELECT 1 FROM user_presence p
      WHERE p.companyId = users.companyId AND p.userId = users.id) THEN 1 ELSE 0 END`,
    lastSeenAt: now,
  }).where("companyId", "=", companyId).where("id", "=", userId).returning("online")
    .executeTakeFirst();
  return row?.online === 1;
}

/**
 * This process's first socket of the user opened (`here`) or its last one closed: its row is
 * written or removed, and users.online recomputed. Answers whether the user is online anywhere.
 */
export async function markPresence(
  db: Database,
  key: { companyId: number; userId: number; instanceId: string },
  here: boolean,
  now: string,
): Promise<boolean> {
  return await db.transaction().execute(async (trx) => {
    if (here) {
      await trx.insertInto("user_presence").values({ ...key, seenAt: now })
        .onConflict((oc) =>
          oc.columns(["companyId", "userId", "instanceId"]).doUpdateSet({
            seenAt: now,
          })
        ).execute();
    } else {
      await trx.deleteFrom("user_presence").where("companyId", "=", key.companyId)
        .where("userId", "=", key.userId).where("instanceId", "=", key.instanceId).execute();
    }
    return await recompute(trx, key.companyId, key.userId, now);
  });
}

/**
 * The `presence` job: this process's rows (the users whose sockets it `held`) are refreshed, and
 * rows no process refreshed since
 * `staleBefore` (their process died, or started again under the same INSTANCE_ID: `restarted`)
 * are removed, their users' online recomputed. Crosses companies: a process holds sockets of
 * every company. Answers the users whose rows went.
 */
export async function refreshPresence(
  db: Database,
  instanceId: string,
  held: { companyId: number; userId: number }[],
  now: string,
  staleBefore: string,
): Promise<{ companyId: number; userId: number; online: boolean }[]> {
  const any = crossCompany(db);
  // Written again rather than only touched: a row swept while this process was paused returns.
  for (let i = 0; i < held.length; i += 200) {
    await any.insertInto("user_presence")
      .values(held.slice(i, i + 200).map((u) => ({ ...u, instanceId, seenAt: now })))
      .onConflict((oc) =>
        oc.columns(["companyId", "userId", "instanceId"]).doUpdateSet({ seenAt: now })
      ).execute();
  }
  const gone = await any.deleteFrom("user_presence").where("seenAt", "<", staleBefore)
    .returning(["companyId", "userId"]).execute();
  const out = [];
  for (const { companyId, userId } of gone) {
    out.push({ companyId, userId, online: await recompute(db, companyId, userId, now) });
  }
  return out;
}

/**
 * At start: rows this INSTANCE_ID left before a restart are no sockets any more (none is open
 * yet); their users' online is recomputed.
 */
export async function clearInstancePresence(db: Database, instanceId: string, now: string) {
  const gone = await crossCompany(db).deleteFrom("user_presence")
    .where("instanceId", "=", instanceId).returning(["companyId", "userId"]).execute();
  for (const { companyId, userId } of gone) await recompute(db, companyId, userId, now);
}
