import { type Kysely, sql } from "kysely";

/**
 * Review of issue 48: a summary is for whoever receives the conversation, so a transfer queues
 * one only when it hands the ticket to another person (the timeline row's userId set and not its
 * fromUserId); a transfer between queues that keeps the attendant, or leaves the ticket waiting
 * in the new queue, queues none. A reopening still does. Same unique key as before
 * (assist_jobs_once: companyId, kind, targetId, reason).
 */
const statements = [
  `DROP TRIGGER IF EXISTS assist_summarise_handover`,
  `CREATE TRIGGER assist_summarise_handover AFTER INSERT ON ticket_events
     WHEN (new.kind = 'reopened' OR (new.kind = 'transfer' AND new.userId IS NOT NULL
         AND new.userId IS NOT new.fromUserId))
       AND EXISTS (SELECT 1 FROM settings s
       WHERE s.companyId = new.companyId AND s.key = 'assistSummary'
         AND s.value = 'enabled') BEGIN
     INSERT OR IGNORE INTO assist_jobs (companyId, kind, targetId, reason, runAfter, createdAt,
       updatedAt)
     VALUES (new.companyId, 'summary', new.ticketId, new.kind || ':' || new.id, new.at, new.at,
       new.at);
   END`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
