import { type Insertable, sql } from "kysely";
import { dropSessionSubscriptions } from "../push/repository.ts";
import type { Database } from "../../db/client.ts";
import type { Company, Plan, RefreshTokensTable, User } from "../../db/schema.ts";
import { randomSecret } from "./secrets.ts";

/** The row a token's `sid` names, when that session is live and belongs to the token's user. */
export type LiveSession = { id: number; publicId: string; enrolling: number };

/** What every authenticated request reads about its caller, in one statement (issue 33). */
export type Caller = {
  user: User;
  company: Company;
  plan: Plan | null;
  /** The token's session when it is live and the user's; undefined otherwise. */
  session: LiveSession | undefined;
  /** The user's own queues (ticket visibility). */
  queueIds: number[];
  /** The two-factor requirements as set now: the company's, and the platform's for super users. */
  twoFactorRule: TwoFactorRule;
};

/** Settings twoFactorRequired of the user's company and superTwoFactor (challenges.ts). */
export type TwoFactorRule = { company: string | undefined; platform: string | undefined };

/** A table's columns as they are after this start's migrations, and their select list. */
type TablePart = { alias: string; columns: string[]; keys: string[]; select: string };

/**
 * Read once per database: the columns of users, companies and plans, and the select list naming
 * each as "alias.column". Built as one text instead of a Kysely node per column, which cost
 * every request a fifth of its CPU (issue 33's profile).
 */
const partsByDb = new WeakMap<Database, Promise<TablePart[]>>();

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

function partsOf(db: Database): Promise<TablePart[]> {
  let parts = partsByDb.get(db);
  if (!parts) {
    parts = (async () => {
      const out: TablePart[] = [];
      for (const [alias, table] of [["u", "users"], ["c", "companies"], ["p", "plans"]]) {
        const rows = await sql<{ name: string }>`SELECT name FROM pragma_table_info(${table})`
          .execute(db);
        const columns = rows.rows.map((r) => r.name);
        const keys = columns.map((c) => `${alias}.${c}`);
        const select = columns.map((c, i) => `${quoted(alias)}.${quoted(c)} AS ${quoted(keys[i])}`)
          .join(", ");
        out.push({ alias, columns, keys, select });
      }
      return out;
    })();
    partsByDb.set(db, parts);
  }
  return parts;
}

/**
 * The user (of that company), their company and its plan, the token's session if live, and the
 * user's queues: one statement instead of five round trips to the database thread, each request
 * still reading the rows as they are now (a deleted user, an ended session or a changed plan
 * count at once). Undefined when the user or the company is gone.
 */
export async function findCaller(
  db: Database,
  companyId: number,
  userId: number,
  sessionPublicId: string,
): Promise<Caller | undefined> {
  const [users, companies, plans] = await partsOf(db);
  const result = await sql<Record<string, unknown>>`
    SELECT ${sql.raw(`${users.select}, ${companies.select}, ${plans.select}`)},
      s.id AS "s.id", s.publicId AS "s.publicId", s.enrolling AS "s.enrolling",
      (SELECT json_group_array(uq.queueId) FROM user_queues uq
        WHERE uq.companyId = u.companyId AND uq.userId = u.id) AS "queueIds",
      (SELECT st.value FROM settings st WHERE st.companyId = u.companyId
        AND st.key = 'twoFactorRequired') AS "twoFactorRequired",
      (SELECT st.value FROM settings st WHERE st.companyId = u.companyId
        AND st.key = 'superTwoFactor') AS "superTwoFactor"
    FROM users u
    JOIN companies c ON c.id = u.companyId
    LEFT JOIN plans p ON p.id = c.planId
    LEFT JOIN sessions s ON s.publicId = ${sessionPublicId} AND s.companyId = u.companyId
      AND s.userId = u.id AND s.endedAt IS NULL
    WHERE u.id = ${userId} AND u.companyId = ${companyId}`.execute(db);
  const row = result.rows[0];
  if (!row) return undefined;
  const part = ({ columns, keys }: TablePart) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i < columns.length; i++) out[columns[i]] = row[keys[i]];
    return out;
  };
  return {
    user: part(users) as User,
    company: part(companies) as Company,
    plan: row["p.id"] === null ? null : part(plans) as Plan,
    session: row["s.id"] === null ? undefined : {
      id: row["s.id"] as number,
      publicId: row["s.publicId"] as string,
      enrolling: row["s.enrolling"] as number,
    },
    queueIds: JSON.parse(row.queueIds as string) as number[],
    twoFactorRule: {
      company: (row.twoFactorRequired as string | null) ?? undefined,
      platform: (row.superTwoFactor as string | null) ?? undefined,
    },
  };
}

/** Starts a session for a user; its public id (24 random bytes) goes into the tokens. */
export async function createSession(
  db: Database,
  companyId: number,
  userId: number,
  now: string,
  client: { ip: string; userAgent: string | null; enrolling: boolean },
): Promise<LiveSession> {
  const publicId = randomSecret(24);
  const enrolling = client.enrolling ? 1 : 0;
  const row = await db.insertInto("sessions").values({
    publicId,
    companyId,
    userId,
    createdAt: now,
    lastSeenAt: now,
    endedAt: null,
    endReason: null,
    ip: client.ip,
    userAgent: client.userAgent,
    enrolling,
  }).returning("id").executeTakeFirstOrThrow();
  return { id: row.id, publicId, enrolling };
}

/**
 * Why the user's session (by its public id) was ended, or undefined while it lives or when it
 * is not theirs. Read only when a token is refused, to say why (issue 50 item 14).
 */
export async function endedSessionReason(
  db: Database,
  publicId: string,
  companyId: number,
  userId: number,
): Promise<string | undefined> {
  const row = await db.selectFrom("sessions").select(["endReason"])
    .where("publicId", "=", publicId).where("companyId", "=", companyId)
    .where("userId", "=", userId).where("endedAt", "is not", null).executeTakeFirst();
  return row?.endReason ?? undefined;
}

/** One lookup through the unique index on publicId; undefined if ended, deleted or not theirs. */
export async function findLiveSession(
  db: Database,
  publicId: string,
  companyId: number,
  userId: number,
): Promise<LiveSession | undefined> {
  return await db.selectFrom("sessions").select(["id", "publicId", "enrolling"])
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
  // Issue 42: the devices of the ended sessions stop hearing the user.
  await dropSessionSubscriptions(db, companyId, { userId });
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
    .select(["queues.id", "queues.name", "queues.color", "user_queues.supervisor"])
    .where("user_queues.companyId", "=", companyId).where("user_queues.userId", "=", userId)
    .orderBy("queues.orderQueue").orderBy("queues.name").execute();
}

/** Live sessions of a user, or of every user of the company (admins), newest first. */
export async function listLiveSessions(db: Database, companyId: number, userId?: number) {
  let query = db.selectFrom("sessions").innerJoin("users", "users.id", "sessions.userId")
    .select([
      "sessions.id",
      "sessions.userId",
      "users.name as userName",
      "sessions.userAgent",
      "sessions.ip",
      "sessions.createdAt",
      "sessions.lastSeenAt",
      "users.super as userSuper",
    ])
    .where("sessions.companyId", "=", companyId).where("sessions.endedAt", "is", null);
  if (userId !== undefined) query = query.where("sessions.userId", "=", userId);
  return await query.orderBy("sessions.createdAt", "desc").orderBy("sessions.id", "desc")
    .limit(200).execute();
}

/** Ends one live session and revokes its refresh tokens; false when it was not live. */
export async function endOneSession(
  db: Database,
  companyId: number,
  id: number,
  now: string,
  reason: string,
): Promise<boolean> {
  const result = await db.updateTable("sessions").set({ endedAt: now, endReason: reason })
    .where("id", "=", id).where("companyId", "=", companyId).where("endedAt", "is", null)
    .executeTakeFirst();
  await db.updateTable("refresh_tokens").set({ revokedAt: now }).where("sessionId", "=", id)
    .where("companyId", "=", companyId).where("revokedAt", "is", null).execute();
  await dropSessionSubscriptions(db, companyId, { sessionId: id });
  return Number(result.numUpdatedRows) === 1;
}
