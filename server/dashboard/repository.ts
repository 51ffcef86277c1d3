import { sql } from "kysely";
import type { Database } from "../../db/client.ts";

/**
 * The dashboard aggregates, in SQL, over the covering indexes of migration 0040
 * (tickets_created, tickets_accepted, tickets_closed, contacts_created, user_ratings_user).
 * Durations use unixepoch(x, 'subsec'): exact to the millisecond, in seconds.
 * See server/dashboard/service.ts for what each number means.
 */
type Range = { startUtc: string; endUtc: string };

export async function counters(db: Database, companyId: number, r: Range) {
  const result = await sql<{
    supportPending: number;
    supportHappening: number;
    supportFinished: number;
    leads: number;
    supportSeconds: number | null;
    waitSeconds: number | null;
  }>`
    SELECT
      (SELECT count(*) FROM tickets WHERE companyId = ${companyId} AND status = 'pending'
         AND createdAt >= ${r.startUtc} AND createdAt < ${r.endUtc}) AS supportPending,
      (SELECT count(*) FROM tickets WHERE companyId = ${companyId} AND status = 'open'
         AND createdAt >= ${r.startUtc} AND createdAt < ${r.endUtc}) AS supportHappening,
      (SELECT count(*) FROM tickets INDEXED BY tickets_closed WHERE companyId = ${companyId}
         AND closedAt >= ${r.startUtc} AND closedAt < ${r.endUtc} AND status = 'closed')
         AS supportFinished,
      (SELECT avg(unixepoch(closedAt, 'subsec') - unixepoch(acceptedAt, 'subsec'))
         FROM tickets INDEXED BY tickets_closed WHERE companyId = ${companyId}
         AND closedAt >= ${r.startUtc} AND closedAt < ${r.endUtc} AND status = 'closed'
         AND acceptedAt IS NOT NULL) AS supportSeconds,
      (SELECT avg(unixepoch(acceptedAt, 'subsec') - unixepoch(createdAt, 'subsec'))
         FROM tickets INDEXED BY tickets_accepted WHERE companyId = ${companyId}
         AND acceptedAt >= ${r.startUtc} AND acceptedAt < ${r.endUtc}) AS waitSeconds,
      (SELECT count(*) FROM contacts c WHERE c.companyId = ${companyId} AND c.isGroup = 0
         AND c.createdAt >= ${r.startUtc} AND c.createdAt < ${r.endUtc}
         AND EXISTS (SELECT 1 FROM tickets t WHERE t.contactId = c.id)) AS leads
  `.execute(db);
  return result.rows[0];
}

/** Per user: tickets they closed in the range and the average support seconds of those. */
export async function supportByUser(db: Database, companyId: number, r: Range) {
  const result = await sql<{ userId: number; finished: number; supportSeconds: number | null }>`
    SELECT userId, count(*) AS finished,
      avg(CASE WHEN acceptedAt IS NOT NULL
               THEN unixepoch(closedAt, 'subsec') - unixepoch(acceptedAt, 'subsec') END)
        AS supportSeconds
    FROM tickets INDEXED BY tickets_closed
    WHERE companyId = ${companyId} AND closedAt >= ${r.startUtc} AND closedAt < ${r.endUtc}
      AND status = 'closed' AND userId IS NOT NULL
    GROUP BY userId
  `.execute(db);
  return result.rows;
}

/** Per user: the average rate (1..3) of the ratings given in the range. */
export async function ratingsByUser(db: Database, companyId: number, r: Range) {
  const result = await sql<{ userId: number; rating: number }>`
    SELECT userId, avg(rate) AS rating FROM user_ratings
    WHERE companyId = ${companyId} AND createdAt >= ${r.startUtc} AND createdAt < ${r.endUtc}
      AND userId IS NOT NULL
    GROUP BY userId
  `.execute(db);
  return result.rows;
}

export async function companyUsers(db: Database, companyId: number) {
  return await db.selectFrom("users").select(["id", "name", "online"])
    .where("companyId", "=", companyId).orderBy(sql`name COLLATE NOCASE`).orderBy("id").execute();
}

/** Tickets created in [start, start + 24h) counted by whole hours since start. */
export async function ticketsByHour(db: Database, companyId: number, startUtc: string) {
  const startSeconds = Math.floor(Date.parse(startUtc) / 1000);
  const endUtc = new Date(Date.parse(startUtc) + 86_400_000).toISOString();
  const result = await sql<{ hour: number; count: number }>`
    SELECT (unixepoch(createdAt) - ${startSeconds}) / 3600 AS hour, count(*) AS count
    FROM tickets INDEXED BY tickets_created
    WHERE companyId = ${companyId} AND createdAt >= ${startUtc} AND createdAt < ${endUtc}
    GROUP BY hour
  `.execute(db);
  return result.rows;
}
