import { sql } from "kysely";
import type { Database } from "../../db/client.ts";

/**
 * The dashboard aggregates, in SQL, over the indexes of migration 0040. Durations are
 * unixepoch(x, 'subsec') differences (seconds, exact to the millisecond) written exactly as the
 * expressions of tickets_accepted and tickets_user_closed, so that SQLite reads them from those
 * indexes instead of parsing two timestamps per ticket. A support duration is NULL for a ticket
 * never accepted; count() and total() of the expression skip NULLs, which is how never-accepted
 * tickets stay out of the support average while still counting as finished.
 * Per-user numbers are correlated subqueries over (companyId, userId, closedAt, ...): one
 * range seek per user, no sorting. See server/dashboard/service.ts for what each number means.
 */
type Range = { startUtc: string; endUtc: string };

export async function counters(db: Database, companyId: number, r: Range) {
  const result = await sql<{
    supportPending: number;
    supportHappening: number;
    leads: number;
    waitSeconds: number | null;
  }>`
    SELECT
      (SELECT count(*) FROM tickets WHERE companyId = ${companyId} AND status = 'pending'
         AND createdAt >= ${r.startUtc} AND createdAt < ${r.endUtc}) AS supportPending,
      (SELECT count(*) FROM tickets WHERE companyId = ${companyId} AND status = 'open'
         AND createdAt >= ${r.startUtc} AND createdAt < ${r.endUtc}) AS supportHappening,
      (SELECT avg(unixepoch(acceptedAt, 'subsec') - unixepoch(createdAt, 'subsec'))
         FROM tickets WHERE companyId = ${companyId}
         AND acceptedAt >= ${r.startUtc} AND acceptedAt < ${r.endUtc}) AS waitSeconds,
      (SELECT count(*) FROM contacts c WHERE c.companyId = ${companyId}
         AND c.createdAt >= ${r.startUtc} AND c.createdAt < ${r.endUtc} AND c.isGroup = 0
         AND EXISTS (SELECT 1 FROM tickets t WHERE t.contactId = c.id)) AS leads
  `.execute(db);
  return result.rows[0];
}

export type UserStats = {
  /** null: tickets closed without a user. */
  userId: number | null;
  finished: number;
  /** Number of finished tickets that were accepted (have a support duration). */
  supported: number;
  supportSeconds: number;
  ratingAverage: number | null;
};

/**
 * For every user of the company, and for "no user": tickets finished in the range, how many of
 * them were accepted, the sum of their support seconds, and the average rating in the range.
 */
export async function statsByUser(
  db: Database,
  companyId: number,
  r: Range,
): Promise<UserStats[]> {
  const result = await sql<
    { userId: number | null; support: string; ratingAverage: number | null }
  >`
    WITH people(userId) AS (
      SELECT id FROM users WHERE companyId = ${companyId} UNION ALL SELECT NULL
    )
    SELECT p.userId,
      (SELECT json_array(count(*), count(d), total(d)) FROM (
         SELECT unixepoch(closedAt, 'subsec') - unixepoch(acceptedAt, 'subsec') AS d
         FROM tickets t WHERE t.companyId = ${companyId} AND t.userId IS p.userId
           AND t.closedAt >= ${r.startUtc} AND t.closedAt < ${r.endUtc} AND t.status = 'closed'
      )) AS support,
      (SELECT avg(rate) FROM user_ratings u WHERE u.companyId = ${companyId}
         AND u.userId = p.userId AND u.createdAt >= ${r.startUtc} AND u.createdAt < ${r.endUtc})
        AS ratingAverage
    FROM people p
  `.execute(db);
  return result.rows.map((row) => {
    const [finished, supported, seconds] = JSON.parse(row.support) as number[];
    return {
      userId: row.userId,
      finished,
      supported,
      supportSeconds: seconds,
      ratingAverage: row.ratingAverage,
    };
  });
}

export async function companyUsers(db: Database, companyId: number) {
  return await db.selectFrom("users").select(["id", "name", "online"])
    .where("companyId", "=", companyId).orderBy(sql`name COLLATE NOCASE`).orderBy("id").execute();
}

/** Tickets created in [start, end), counted per UTC hour. */
export async function ticketsByHour(
  db: Database,
  companyId: number,
  startUtc: string,
  endUtc: string,
) {
  // Per UTC hour ('YYYY-MM-DDTHH'): the service puts each on the company's clock.
  const result = await sql<{ hour: string; count: number }>`
    SELECT substr(createdAt, 1, 13) AS hour, count(*) AS count
    FROM tickets
    WHERE companyId = ${companyId} AND createdAt >= ${startUtc} AND createdAt < ${endUtc}
    GROUP BY hour
  `.execute(db);
  return result.rows;
}

/** Messages of a company created in the range (messages_company (companyId, createdAt)). */
export async function countMessages(
  db: Database,
  companyId: number,
  r: Range,
  fromMe: boolean | undefined,
): Promise<number> {
  let q = db.selectFrom("messages").where("companyId", "=", companyId)
    .where("createdAt", ">=", r.startUtc).where("createdAt", "<", r.endUtc);
  if (fromMe !== undefined) q = q.where("fromMe", "=", fromMe ? 1 : 0);
  const row = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}
