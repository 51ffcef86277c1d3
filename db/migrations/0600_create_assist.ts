import { type Kysely, sql } from "kysely";

/**
 * Issue 48: the attendant's assistant (server/assist/).
 *
 * - messages.transcript / transcriptError: a voice note's text, or why it has none (the bubble
 *   says so on hover). The message search (messages_fts) indexes the body and the transcript
 *   together, so the conversation search and the ticket list's search find what was said.
 * - assist_jobs: the queued work (transcriptions, summaries on transfer and reopen), its state in
 *   the database: a restart resumes what was due; a claimed row whose process died is due again
 *   at runAfter. The unique assist_jobs_once (companyId, kind, targetId, reason) stops a second
 *   job for one message (no doubled transcription) or one hand-over. A contact's voice note gets
 *   its job from a trigger, in the very statement that stores the message (the inbound pipeline
 *   never waits; nothing is lost between the commit and a listener); a transfer or a reopening
 *   gets its summary job from a trigger on its timeline row (ticket_events) the same way. Only
 *   where the company turned the feature on (its setting row): no rows for the others. The job
 *   still reads the plan, the switch and the cap when it runs (they may have changed).
 * - assist_usage: the monthly meter per company and feature (calls, tokens, estimated cost in
 *   millionths of a dollar), kept by the call that spent it.
 * - ticket_summaries: every summary made, on the ticket's timeline (transcript export).
 * - plans.useAssist: the plan flag (on by default, as the plan the first start creates).
 */
const statements = [
  `ALTER TABLE messages ADD COLUMN transcript TEXT`,
  `ALTER TABLE messages ADD COLUMN transcriptError TEXT`,
  `ALTER TABLE plans ADD COLUMN useAssist INTEGER NOT NULL DEFAULT 1`,
  `CREATE TABLE assist_jobs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    targetId INTEGER NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0,
    runAfter TEXT NOT NULL,
    error TEXT,
    createdAt TEXT NOT NULL,
    updatedAt TEXT NOT NULL
  )`,
  `CREATE UNIQUE INDEX assist_jobs_once ON assist_jobs (companyId, kind, targetId, reason)`,
  // The job's claim reads due rows of every company (the worker serves them all).
  `CREATE INDEX assist_jobs_due ON assist_jobs (status, runAfter)`,
  `CREATE TABLE assist_usage (
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    month TEXT NOT NULL,
    feature TEXT NOT NULL,
    calls INTEGER NOT NULL DEFAULT 0,
    failures INTEGER NOT NULL DEFAULT 0,
    tokens INTEGER NOT NULL DEFAULT 0,
    seconds INTEGER NOT NULL DEFAULT 0,
    costMicros INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (companyId, month, feature)
  )`,
  `CREATE TABLE ticket_summaries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    ticketId INTEGER NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
    reason TEXT NOT NULL,
    userId INTEGER REFERENCES users(id) ON DELETE SET NULL,
    summary TEXT NOT NULL,
    createdAt TEXT NOT NULL
  )`,
  `CREATE INDEX ticket_summaries_ticket ON ticket_summaries (companyId, ticketId, id)`,
  `CREATE INDEX ticket_summaries_user ON ticket_summaries (userId)`,
  // A contact's voice note, in a company that turned transcription on: one job, due at once.
  `CREATE TRIGGER assist_transcribe_audio AFTER INSERT ON messages
     WHEN new.fromMe = 0 AND new.mediaType = 'audio' AND EXISTS (SELECT 1 FROM settings s
       WHERE s.companyId = new.companyId AND s.key = 'assistTranscription'
         AND s.value = 'enabled') BEGIN
     INSERT OR IGNORE INTO assist_jobs (companyId, kind, targetId, reason, runAfter, createdAt,
       updatedAt)
     VALUES (new.companyId, 'transcription', new.id, '', new.createdAt, new.createdAt,
       new.createdAt);
   END`,
  // A hand-over (transfer) or a reopening: one summary job, told by the timeline's own row.
  `CREATE TRIGGER assist_summarise_handover AFTER INSERT ON ticket_events
     WHEN new.kind IN ('transfer', 'reopened') AND EXISTS (SELECT 1 FROM settings s
       WHERE s.companyId = new.companyId AND s.key = 'assistSummary'
         AND s.value = 'enabled') BEGIN
     INSERT OR IGNORE INTO assist_jobs (companyId, kind, targetId, reason, runAfter, createdAt,
       updatedAt)
     VALUES (new.companyId, 'summary', new.ticketId, new.kind || ':' || new.id, new.at, new.at,
       new.at);
   END`,
  // The search index holds the body and the transcript (same rowid rule as 0030).
  `DROP TRIGGER IF EXISTS messages_fts_insert`,
  `DROP TRIGGER IF EXISTS messages_fts_update`,
  `DROP TRIGGER IF EXISTS messages_fts_delete`,
  `CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages
     WHEN old.body <> '' OR coalesce(old.transcript, '') <> '' BEGIN
     DELETE FROM messages_fts WHERE rowid = old.ticketId * 4294967296 + old.id;
   END`,
  `CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages
     WHEN new.body <> '' OR coalesce(new.transcript, '') <> '' BEGIN
     INSERT INTO messages_fts(rowid, body) VALUES (new.ticketId * 4294967296 + new.id,
       trim(new.body || char(10) || coalesce(new.transcript, '')));
   END`,
  `CREATE TRIGGER messages_fts_update AFTER UPDATE OF body, ticketId, transcript ON messages BEGIN
     DELETE FROM messages_fts WHERE rowid = old.ticketId * 4294967296 + old.id;
     INSERT INTO messages_fts(rowid, body)
       SELECT new.ticketId * 4294967296 + new.id,
         trim(new.body || char(10) || coalesce(new.transcript, ''))
       WHERE new.body <> '' OR coalesce(new.transcript, '') <> '';
   END`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
