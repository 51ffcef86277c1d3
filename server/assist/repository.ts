import { type Insertable, sql } from "kysely";
import type { TicketSummariesTable } from "../../db/schema.ts";
import type { Database } from "../../db/client.ts";
import { isPostgres } from "../../db/engine.ts";
import { crossCompany } from "../../db/tenancy.ts";
import { MESSAGE_COLUMNS } from "../messages/repository.ts";
import type { MessageRow } from "../tickets/view.ts";

/** Issue 48: the assistant's SQL (jobs, meter, transcripts, summaries, what prompts read). */

/** Whether the company's current plan has useAssist (no plan: no). */
export async function companyPlanFlag(db: Database, companyId: number): Promise<boolean> {
  const row = await db.selectFrom("companies").innerJoin("plans", "plans.id", "companies.planId")
    .select("plans.useAssist").where("companies.id", "=", companyId).executeTakeFirst();
  return row?.useAssist === 1;
}

/**
 * Makes the company's writers of its assist notice take turns (issue 46). SQLite runs one writer
 * at a time; PostgreSQL runs two jobs' transactions side by side, both read no notice and both
 * told the admins. The company's row is locked (FOR UPDATE) and the next read, a new snapshot in
 * READ COMMITTED, sees what the previous holder wrote.
 */
export async function lockCompanyNotice(trx: Database, companyId: number) {
  if (!isPostgres(trx)) return;
  await trx.selectFrom("companies").select("id").where("id", "=", companyId).forUpdate()
    .execute();
}

export type UsageDelta = {
  calls: number;
  failures: number;
  tokens: number;
  seconds: number;
  costMicros: number;
};

export async function addUsage(
  db: Database,
  companyId: number,
  month: string,
  feature: string,
  d: UsageDelta,
) {
  await db.insertInto("assist_usage").values({ companyId, month, feature, ...d })
    .onConflict((oc) =>
      // The table's name on each column: PostgreSQL finds a bare name ambiguous between the
      // row and EXCLUDED.
      oc.columns(["companyId", "month", "feature"]).doUpdateSet({
        calls: sql`assist_usage.calls + ${d.calls}`,
        failures: sql`assist_usage.failures + ${d.failures}`,
        tokens: sql`assist_usage.tokens + ${d.tokens}`,
        seconds: sql`assist_usage.seconds + ${d.seconds}`,
        costMicros: sql`assist_usage.costMicros + ${d.costMicros}`,
      })
    ).execute();
}

export async function monthUsage(db: Database, companyId: number, month: string) {
  return await db.selectFrom("assist_usage")
    .select(["feature", "calls", "failures", "tokens", "seconds", "costMicros"])
    .where("companyId", "=", companyId).where("month", "=", month).orderBy("feature").execute();
}

export async function monthUsageCost(
  db: Database,
  companyId: number,
  month: string,
): Promise<number> {
  const row = await db.selectFrom("assist_usage")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("costMicros"), sql<number>`0`).as("cost"))
    .where("companyId", "=", companyId).where("month", "=", month).executeTakeFirstOrThrow();
  return Number(row.cost);
}

export type AssistJob = {
  id: number;
  companyId: number;
  kind: "transcription" | "summary";
  targetId: number;
  reason: string;
  attempts: number;
};

/**
 * Claims due jobs of every company (the worker serves them all): each row read is taken by an
 * UPDATE guarded by the status and runAfter that were read, which moves runAfter to `leaseUntil`;
 * a second tick (or process) finds it not due, and a claim whose process died is due again then.
 */
export async function claimDueJobs(
  db: Database,
  now: string,
  leaseUntil: string,
  limit: number,
): Promise<AssistJob[]> {
  const due = await crossCompany(db).selectFrom("assist_jobs")
    .select(["id", "companyId", "kind", "targetId", "reason", "attempts", "status", "runAfter"])
    .where("status", "in", ["pending", "running"]).where("runAfter", "<=", now)
    .orderBy("runAfter").orderBy("id").limit(limit).execute();
  const claimed: AssistJob[] = [];
  for (const job of due) {
    const result = await db.updateTable("assist_jobs")
      .set({ status: "running", runAfter: leaseUntil, updatedAt: now })
      .where("companyId", "=", job.companyId).where("id", "=", job.id)
      .where("status", "=", job.status).where("runAfter", "=", job.runAfter)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) {
      claimed.push({
        id: job.id,
        companyId: job.companyId,
        kind: job.kind,
        targetId: job.targetId,
        reason: job.reason,
        attempts: job.attempts,
      });
    }
  }
  return claimed;
}

/** Done, failed for good or skipped. */
export async function settleJob(
  db: Database,
  job: AssistJob,
  status: "done" | "failed" | "skipped",
  error: string | null,
  now: string,
) {
  await db.updateTable("assist_jobs").set({ status, error, updatedAt: now })
    .where("companyId", "=", job.companyId).where("id", "=", job.id).execute();
}

/** Due again at `runAfter`; `attempts` counts the calls that failed. */
export async function deferJob(
  db: Database,
  job: AssistJob,
  runAfter: string,
  attempts: number,
  error: string | null,
  now: string,
) {
  await db.updateTable("assist_jobs")
    .set({ status: "pending", runAfter, attempts, error, updatedAt: now })
    .where("companyId", "=", job.companyId).where("id", "=", job.id).execute();
}

export async function jobsOf(db: Database, companyId: number, kind: string, targetId: number) {
  return await db.selectFrom("assist_jobs").selectAll().where("companyId", "=", companyId)
    .where("kind", "=", kind as "summary").where("targetId", "=", targetId).orderBy("id")
    .execute();
}

/** The voice note a transcription job is about (undefined: gone). */
export async function audioMessage(db: Database, companyId: number, id: number) {
  return await db.selectFrom("messages")
    .select([
      "id",
      "ticketId",
      "mediaUrl",
      "mediaMimetype",
      "mediaName",
      "mediaPending",
      "isDeleted",
    ])
    .where("companyId", "=", companyId).where("id", "=", id).executeTakeFirst();
}

/** Writes a transcript (or why there is none); the message as views read it. */
export async function setTranscript(
  db: Database,
  companyId: number,
  id: number,
  values: { transcript: string | null; transcriptError: string | null },
): Promise<MessageRow | undefined> {
  return await db.updateTable("messages").set(values)
    .where("companyId", "=", companyId).where("id", "=", id)
    .returning(MESSAGE_COLUMNS).executeTakeFirst();
}

/**
 * The ticket's own messages for a prompt, oldest first: texts and transcripts only. Internal
 * notes live in ticket_notes and other tickets are never read here (issue 48: neither enters a
 * prompt).
 */
export async function promptMessages(
  db: Database,
  companyId: number,
  ticketId: number,
  limit: number,
) {
  const rows = await db.selectFrom("messages")
    .select(["id", "fromMe", "body", "transcript", "mediaType", "createdAt"])
    .where("companyId", "=", companyId).where("ticketId", "=", ticketId)
    .where("isDeleted", "=", 0)
    .orderBy("createdAt", "desc").orderBy("id", "desc").limit(limit).execute();
  return rows.reverse();
}

/** Quick answers the user may use: the company's general ones and their own. */
export async function promptQuickAnswers(
  db: Database,
  companyId: number,
  userId: number,
  limit: number,
) {
  return await db.selectFrom("quick_messages").select(["shortcode", "message"])
    .where("companyId", "=", companyId)
    .where((eb) => eb.or([eb("geral", "=", 1), eb("userId", "=", userId)]))
    .where("message", "<>", "").orderBy("id").limit(limit).execute();
}

export async function insertSummary(
  db: Database,
  values: Insertable<TicketSummariesTable>,
) {
  return await db.insertInto("ticket_summaries").values(values).returningAll()
    .executeTakeFirstOrThrow();
}

export async function latestSummary(db: Database, companyId: number, ticketId: number) {
  return await db.selectFrom("ticket_summaries").selectAll().where("companyId", "=", companyId)
    .where("ticketId", "=", ticketId).orderBy("id", "desc").limit(1).executeTakeFirst();
}

/** Every summary of a ticket, oldest first (its timeline in the transcript export). */
export async function ticketSummaries(db: Database, companyId: number, ticketId: number) {
  return await db.selectFrom("ticket_summaries").select(["reason", "summary", "createdAt"])
    .where("companyId", "=", companyId).where("ticketId", "=", ticketId).orderBy("id").execute();
}
