import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import { crossCompany } from "../../db/tenancy.ts";
import { DEFAULT_OFFLINE_MINUTES } from "../../contract/queue_types.ts";

/**
 * The distribution job's scans (issue 26): they look at every company's tickets on purpose; each
 * ticket found is then changed with its company named (repository.ts).
 */

/**
 * Tickets distribution gave to a user who has been offline (no socket) for the company's
 * `distributionOfflineMinutes` setting (0: never), and that nobody answered since.
 */
export async function untouchedOfOffline(db: Database, now: string, limit: number) {
  const minutes = sql<number>`COALESCE((SELECT CAST(s.value AS INTEGER) FROM settings s
    WHERE s.companyId = t.companyId AND s.key = 'distributionOfflineMinutes'),
    ${DEFAULT_OFFLINE_MINUTES})`;
  const rows = await crossCompany(db).selectFrom("tickets as t")
    .innerJoin("users as u", "u.id", "t.userId")
    .select(["t.id", "t.companyId", "t.userId", "t.distributedAt"])
    .where("t.distributedAt", "is not", null).where("t.status", "=", "open")
    .where("u.online", "=", 0)
    .where(sql<boolean>`${minutes} > 0`)
    .where(sql<boolean>`COALESCE(u.lastSeenAt, '') <
      strftime('%Y-%m-%dT%H:%M:%fZ', ${now}, '-' || ${minutes} || ' minutes')`)
    .where(sql<boolean>`NOT EXISTS (SELECT 1 FROM messages m WHERE m.ticketId = t.id
      AND m.fromMe = 1 AND m.createdAt >= t.distributedAt)`)
    .limit(limit).execute();
  return rows as { id: number; companyId: number; userId: number; distributedAt: string }[];
}

/** Companies with a ticket waiting in a distributing queue (the job's safety net). */
export async function companiesWithWaiting(db: Database, limit: number): Promise<number[]> {
  const rows = await crossCompany(db).selectFrom("tickets as t")
    .innerJoin("queues as q", "q.id", "t.queueId")
    .select("t.companyId").distinct()
    .where("t.status", "=", "pending").where("t.userId", "is", null)
    .where("q.distribution", "<>", "off").limit(limit).execute();
  return rows.map((r) => r.companyId);
}

/**
 * Records breaches of the service-level targets: the first response is late (no message of ours
 * since a person took it) or the resolution is (its clock running: not paused waiting on the
 * customer). The UPDATE requires slaBreachedAt NULL, so each
 * ticket's breach is recorded once: a second tick, or another process, finds it set and the
 * RETURNING rows (what this tick recorded) are the ones to notify.
 */
export async function recordBreaches(db: Database, now: string, limit: number) {
  const late = sql<boolean>`(
    (t.resolutionDueAt IS NOT NULL AND t.resolutionPausedAt IS NULL
      AND t.resolutionDueAt <= ${now})
    OR (t.firstResponseDueAt IS NOT NULL AND t.firstResponseDueAt <= ${now}
      AND (t.acceptedAt IS NULL OR NOT EXISTS (SELECT 1 FROM messages m
        WHERE m.ticketId = t.id AND m.fromMe = 1 AND m.createdAt >= t.acceptedAt))))`;
  const ids = crossCompany(db).selectFrom("tickets as t").select("t.id")
    .where("t.slaBreachedAt", "is", null).where("t.status", "<>", "closed").where(late)
    .limit(limit);
  const rows = await crossCompany(db).updateTable("tickets").set({ slaBreachedAt: now })
    .where("id", "in", ids).where("slaBreachedAt", "is", null)
    .returning(["id", "companyId", "firstResponseDueAt", "resolutionDueAt", "resolutionPausedAt"])
    .execute();
  return rows;
}
