import type { Database } from "../../db/client.ts";
import { crossCompany } from "../../db/tenancy.ts";
import type { PushPreferences } from "../../contract/push_types.ts";
import { DEFAULT_PUSH_PREFERENCES, PUSH_KINDS } from "../../contract/push_types.ts";

/**
 * SQL of the push subscriptions (one browser of one user, bound to its session) and of the users'
 * push choices. Every function names the company; `takeOverEndpoint` alone crosses companies.
 */

export type NewSubscription = {
  userId: number;
  sessionId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  language: string;
  userAgent: string | null;
};

/**
 * The row of this endpoint for this session, made or refreshed; returns its id. An endpoint is one
 * browser's own: when it is held by another user or session (even of another company: a shared
 * computer where someone else signed in), that row and its queued pushes go first, so the device
 * never hears the previous user again.
 */
export async function saveSubscription(
  db: Database,
  companyId: number,
  sub: NewSubscription,
  now: string,
): Promise<number> {
  return await db.transaction().execute(async (trx) => {
    const held = await trx.selectFrom("push_subscriptions").select("id")
      .where("companyId", "=", companyId).where("endpoint", "=", sub.endpoint)
      .where("userId", "=", sub.userId).where("sessionId", "=", sub.sessionId).executeTakeFirst();
    if (held) {
      await trx.updateTable("push_subscriptions")
        .set({ p256dh: sub.p256dh, auth: sub.auth, language: sub.language })
        .where("id", "=", held.id).where("companyId", "=", companyId).execute();
      return held.id;
    }
    await takeOverEndpoint(trx, sub.endpoint);
    const row = await trx.insertInto("push_subscriptions").values({
      companyId,
      ...sub,
      createdAt: now,
      lastSentAt: null,
    }).returning("id").executeTakeFirstOrThrow();
    return row.id;
  });
}

/** The endpoint's previous holder, whoever it was (see saveSubscription). */
async function takeOverEndpoint(db: Database, endpoint: string) {
  await crossCompany(db).deleteFrom("push_subscriptions").where("endpoint", "=", endpoint)
    .execute();
}

/** A user's devices, newest first. */
export async function listDevices(db: Database, companyId: number, userId: number) {
  return await db.selectFrom("push_subscriptions")
    .select(["id", "sessionId", "userAgent", "createdAt", "lastSentAt"])
    .where("companyId", "=", companyId).where("userId", "=", userId)
    .orderBy("createdAt", "desc").orderBy("id", "desc").limit(100).execute();
}

/** One of the user's own devices removed (with its queued pushes); false when not theirs. */
export async function deleteDevice(
  db: Database,
  companyId: number,
  userId: number,
  id: number,
): Promise<boolean> {
  const result = await db.deleteFrom("push_subscriptions").where("id", "=", id)
    .where("companyId", "=", companyId).where("userId", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The push service answered 404/410: the browser unsubscribed, the row goes. */
export async function dropSubscription(db: Database, companyId: number, id: number) {
  await db.deleteFrom("push_subscriptions").where("id", "=", id)
    .where("companyId", "=", companyId).execute();
}

/** A session ended (logout, an admin, a newer login): its devices stop hearing the user. */
export async function dropSessionSubscriptions(
  db: Database,
  companyId: number,
  ended: { sessionId: number } | { userId: number },
) {
  let query = db.deleteFrom("push_subscriptions").where("companyId", "=", companyId);
  query = "sessionId" in ended
    ? query.where("sessionId", "=", ended.sessionId)
    : query.where("userId", "=", ended.userId);
  await query.execute();
}

export async function markSent(db: Database, companyId: number, id: number, now: string) {
  await db.updateTable("push_subscriptions").set({ lastSentAt: now }).where("id", "=", id)
    .where("companyId", "=", companyId).execute();
}

/** A stored row of choices as the contract's type (unknown kinds dropped). */
function preferencesOf(
  row: { kinds: string; showText: number; quietStart: string | null; quietEnd: string | null },
): PushPreferences {
  let kinds: unknown = [];
  try {
    kinds = JSON.parse(row.kinds);
  } catch { /* an unreadable row: no kind */ }
  return {
    kinds: PUSH_KINDS.filter((k) => Array.isArray(kinds) && kinds.includes(k)),
    showText: row.showText === 1,
    quietStart: row.quietStart,
    quietEnd: row.quietEnd,
  };
}

export async function findPreferences(
  db: Database,
  companyId: number,
  userId: number,
): Promise<PushPreferences> {
  const row = await db.selectFrom("push_preferences")
    .select(["kinds", "showText", "quietStart", "quietEnd"])
    .where("companyId", "=", companyId).where("userId", "=", userId).executeTakeFirst();
  return row ? preferencesOf(row) : { ...DEFAULT_PUSH_PREFERENCES };
}

export async function savePreferences(
  db: Database,
  companyId: number,
  userId: number,
  prefs: PushPreferences,
  now: string,
) {
  const values = {
    kinds: JSON.stringify(prefs.kinds),
    showText: prefs.showText ? 1 : 0,
    quietStart: prefs.quietStart,
    quietEnd: prefs.quietEnd,
    updatedAt: now,
  };
  await db.insertInto("push_preferences").values({ companyId, userId, ...values })
    .onConflict((oc) => oc.columns(["companyId", "userId"]).doUpdateSet(values)).execute();
}

/** A user who may be pushed to: what the audience rule reads, their choices and devices. */
export type PushRecipient = {
  userId: number;
  profile: string;
  allTicket: boolean;
  queueIds: number[];
  supervisedQueueIds: number[];
  prefs: PushPreferences;
  devices: { id: number; language: string }[];
};

/**
 * The company's users with a device whose session is live (`userIds`: only those), each with
 * their queues and choices: three indexed reads, whatever the number of users.
 */
export async function pushRecipients(
  db: Database,
  companyId: number,
  userIds?: readonly number[],
): Promise<PushRecipient[]> {
  if (userIds && userIds.length === 0) return [];
  let devices = db.selectFrom("push_subscriptions as s")
    .innerJoin("sessions as ss", "ss.id", "s.sessionId")
    .innerJoin("users as u", "u.id", "s.userId")
    .select(["s.id", "s.userId", "s.language", "u.profile", "u.allTicket"])
    .where("s.companyId", "=", companyId).where("ss.endedAt", "is", null);
  if (userIds) devices = devices.where("s.userId", "in", [...userIds]);
  const rows = await devices.execute();
  if (rows.length === 0) return [];
  const ids = [...new Set(rows.map((r) => r.userId))];
  const [queues, prefs] = await Promise.all([
    db.selectFrom("user_queues").select(["userId", "queueId", "supervisor"])
      .where("companyId", "=", companyId).where("userId", "in", ids).execute(),
    db.selectFrom("push_preferences")
      .select(["userId", "kinds", "showText", "quietStart", "quietEnd"])
      .where("companyId", "=", companyId).where("userId", "in", ids).execute(),
  ]);
  const byUser = new Map<number, PushRecipient>();
  for (const r of rows) {
    let recipient = byUser.get(r.userId);
    if (!recipient) {
      const own = prefs.find((p) => p.userId === r.userId);
      recipient = {
        userId: r.userId,
        profile: r.profile,
        allTicket: r.allTicket === "enable",
        queueIds: queues.filter((q) => q.userId === r.userId).map((q) => q.queueId),
        supervisedQueueIds: queues.filter((q) => q.userId === r.userId && q.supervisor === 1)
          .map((q) => q.queueId),
        prefs: own ? preferencesOf(own) : { ...DEFAULT_PUSH_PREFERENCES },
        devices: [],
      };
      byUser.set(r.userId, recipient);
    }
    recipient.devices.push({ id: r.id, language: r.language });
  }
  return [...byUser.values()];
}
