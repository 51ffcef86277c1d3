import { type Kysely, sql } from "kysely";

/**
 * The timeline of each ticket (issue 27): one row per fact, written by triggers inside the very
 * statement that changes the ticket, the message or the rating, so every path (the tickets
 * service, the inbound pipeline and its bots, distribution, the inactivity job, the send API) is
 * recorded in the same transaction as its change, and none can forget it. Reports
 * (server/reports/) count and rank these rows; nothing is guessed from a ticket's current columns.
 *
 * Kinds, with the instant (`at`, the row's own timestamps, never SQLite's clock: the test clock
 * and imports keep their times) and the duration each closes (`seconds`):
 * - created        a ticket that is a conversation (not one created closed to carry a send)
 * - queued         it entered a queue (at creation too); fromQueueId: the queue it left
 * - handover       a bot (menu, integration, prompt) gave it to people
 * - accepted       a person took it (accept, reopen, transfer to a person, distribution);
 *                  seconds: the wait since it was created, reopened or entered its queue, only
 *                  when nobody held it (a transfer between people is not a wait)
 * - first_response the first message a person sent in this cycle (created or reopened);
 *                  seconds: since the cycle started
 * - transfer       to another queue or person while not closed; fromQueueId / fromUserId
 * - resolved       closed; seconds: since the cycle started
 * - reopened       closed -> open or pending (starts a new cycle)
 * - rated          a rating arrived; value: 1..3; userId: the rated attendant
 * - sla_breached   the service-level target was missed (slaBreachedAt set)
 * userId, queueId, whatsappId: the ticket's after the change (what the reports filter on).
 * Durations are whole seconds: the reports read a year of them as text lists, and integers turn
 * to text 2.5 times faster than reals (75 -> 30 ms of CPU for 300,000 on the bench).
 *
 * Messages are too many to keep one row each (1,000,000 a year on the bench): report_message_hours
 * keeps counts per (company, UTC hour, ticket's user, queue, connection); 0 stands for none, as in
 * ticket_counts (a primary key with NULLs would not be unique). Rows are created with NOT EXISTS
 * then updated, not INSERT OR IGNORE/UPSERT: a trigger's conflict clause gives way to the firing
 * statement's (0032). Whole UTC hours serve any time zone with whole-hour offsets (the product's).
 *
 * report_days keeps the counts per (company, local day, user, queue, connection), one row each,
 * kept by a trigger on the timeline (its primary key is that tuple): a year of reports sums at most
 * a few tens of thousands of rows. The durations (medians, p90) are ranked from the timeline's
 * indexes, which hold them sorted per kind and day, attendant or queue.
 *
 * Existing data is backfilled from what the tickets, ratings and messages already say
 * (BACKFILL, also used by the reports bench after it generates its data).
 */
/**
 * Local days are the product's time zone's (America/Sao_Paulo, server/dashboard/range.ts): UTC-3
 * all year since 2019. `day` is computed once, in the row, so that reports seek it in an index.
 */
export const LOCAL_OFFSET = "-3 hours";

/** An acceptance's instant: acceptedAt when this change set it, else the change's time. */
const ACCEPTED_AT =
  "coalesce(CASE WHEN new.acceptedAt IS NOT old.acceptedAt THEN new.acceptedAt END, new.updatedAt)";

export const CYCLE_START = (ticket: string) =>
  `coalesce((SELECT max(e.at) FROM ticket_events e WHERE e.ticketId = ${ticket}.id
     AND e.kind = 'reopened'), ${ticket}.createdAt)`;
export const SECONDS = (to: string, from: string) =>
  `CAST(round(unixepoch(${to}, 'subsec') - unixepoch(${from}, 'subsec')) AS INTEGER)`;
const EVENT_COLUMNS =
  "companyId, ticketId, kind, at, userId, queueId, whatsappId, fromUserId, fromQueueId, seconds, value";

const schema = [
  `CREATE TABLE ticket_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    ticketId INTEGER NOT NULL REFERENCES tickets(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    at TEXT NOT NULL,
    userId INTEGER,
    queueId INTEGER,
    whatsappId INTEGER,
    fromUserId INTEGER,
    fromQueueId INTEGER,
    seconds INTEGER,
    value INTEGER,
    day TEXT NOT NULL
  )`,
  // Facts are written through this view, which adds the local day: a generated column would do
  // it too, but SQLite then reads no index as covering (a table lookup per row: 2-3x the cost).
  `CREATE VIEW ticket_event_facts AS SELECT ${EVENT_COLUMNS} FROM ticket_events`,
  `CREATE TRIGGER ticket_event_facts_insert INSTEAD OF INSERT ON ticket_event_facts BEGIN
     INSERT INTO ticket_events (${EVENT_COLUMNS}, day) VALUES (new.companyId, new.ticketId,
       new.kind, new.at, new.userId, new.queueId, new.whatsappId, new.fromUserId, new.fromQueueId,
       new.seconds, new.value, date(new.at, '${LOCAL_OFFSET}'));
   END`,
  // Reports' durations, each index in the order one table ranks them (SQLite reads the seconds
  // already sorted per group, no sorting step): per day (and the filtered and tagged
  // questions: every column they read is here), per attendant, per queue.
  `CREATE INDEX ticket_events_report ON ticket_events
    (companyId, kind, day, seconds, userId, queueId, whatsappId, at, value, ticketId)`,
  `CREATE INDEX ticket_events_user ON ticket_events (companyId, kind, userId, seconds, day)`,
  `CREATE INDEX ticket_events_queue ON ticket_events (companyId, kind, queueId, seconds, day)`,
  // A ticket's timeline, the triggers' "when did this cycle start", and the tags' reports (which
  // reach the timeline through their tickets: what they read is here).
  `CREATE INDEX ticket_events_ticket ON ticket_events
    (ticketId, kind, at, day, seconds, value, userId, queueId, whatsappId, companyId)`,
  `CREATE TABLE report_message_hours (
    companyId INTEGER NOT NULL,
    hour TEXT NOT NULL,
    userId INTEGER NOT NULL,
    queueId INTEGER NOT NULL,
    whatsappId INTEGER NOT NULL,
    inbound INTEGER NOT NULL,
    outbound INTEGER NOT NULL,
    PRIMARY KEY (companyId, hour, userId, queueId, whatsappId)
  ) WITHOUT ROWID`,
  `CREATE TABLE report_days (
    companyId INTEGER NOT NULL,
    day TEXT NOT NULL,
    userId INTEGER NOT NULL,
    queueId INTEGER NOT NULL,
    whatsappId INTEGER NOT NULL,
    created INTEGER NOT NULL DEFAULT 0,
    queued INTEGER NOT NULL DEFAULT 0,
    accepted INTEGER NOT NULL DEFAULT 0,
    resolved INTEGER NOT NULL DEFAULT 0,
    reopened INTEGER NOT NULL DEFAULT 0,
    transfers INTEGER NOT NULL DEFAULT 0,
    slaBreaches INTEGER NOT NULL DEFAULT 0,
    rated1 INTEGER NOT NULL DEFAULT 0,
    rated2 INTEGER NOT NULL DEFAULT 0,
    rated3 INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (companyId, day, userId, queueId, whatsappId)
  ) WITHOUT ROWID`,
];

/** The columns of report_days each event kind adds one to. */
const ROLLUP_COLUMNS = `
  (kind = 'created') AS created, (kind = 'queued') AS queued, (kind = 'accepted') AS accepted,
  (kind = 'resolved') AS resolved, (kind = 'reopened') AS reopened,
  (kind = 'transfer') AS transfers, (kind = 'sla_breached') AS slaBreaches,
  (kind = 'rated' AND value = 1) AS rated1, (kind = 'rated' AND value = 2) AS rated2,
  (kind = 'rated' AND value = 3) AS rated3`;

/** Rebuilds report_days from the timeline (the migration's backfill, the reports bench). */
export const ROLLUP = [
  `DELETE FROM report_days`,
  `INSERT INTO report_days SELECT companyId, day, ifnull(userId, 0), ifnull(queueId, 0),
     ifnull(whatsappId, 0), sum(created), sum(queued), sum(accepted), sum(resolved), sum(reopened),
     sum(transfers), sum(slaBreaches), sum(rated1), sum(rated2), sum(rated3)
   FROM (SELECT companyId, day, userId, queueId, whatsappId, ${ROLLUP_COLUMNS}
     FROM ticket_events WHERE kind <> 'first_response' AND kind <> 'handover')
   GROUP BY 1, 2, 3, 4, 5`,
];

const triggers = [
  // report_days: the counts per local day, kept with every timeline row (not the durations: the
  // reports rank those from the timeline's indexes).
  `CREATE TRIGGER report_days_insert AFTER INSERT ON ticket_events
   WHEN new.kind NOT IN ('first_response', 'handover') BEGIN
     INSERT INTO report_days (companyId, day, userId, queueId, whatsappId)
       SELECT new.companyId, new.day, ifnull(new.userId, 0), ifnull(new.queueId, 0),
         ifnull(new.whatsappId, 0)
       WHERE NOT EXISTS (SELECT 1 FROM report_days d WHERE d.companyId = new.companyId
         AND d.day = new.day AND d.userId = ifnull(new.userId, 0)
         AND d.queueId = ifnull(new.queueId, 0) AND d.whatsappId = ifnull(new.whatsappId, 0));
     UPDATE report_days SET created = created + (new.kind = 'created'),
       queued = queued + (new.kind = 'queued'), accepted = accepted + (new.kind = 'accepted'),
       resolved = resolved + (new.kind = 'resolved'), reopened = reopened + (new.kind = 'reopened'),
       transfers = transfers + (new.kind = 'transfer'),
       slaBreaches = slaBreaches + (new.kind = 'sla_breached'),
       rated1 = rated1 + (new.kind = 'rated' AND new.value = 1),
       rated2 = rated2 + (new.kind = 'rated' AND new.value = 2),
       rated3 = rated3 + (new.kind = 'rated' AND new.value = 3)
     WHERE companyId = new.companyId AND day = new.day AND userId = ifnull(new.userId, 0)
       AND queueId = ifnull(new.queueId, 0) AND whatsappId = ifnull(new.whatsappId, 0);
   END`,
  `CREATE TRIGGER ticket_events_insert AFTER INSERT ON tickets WHEN new.status <> 'closed' BEGIN
     INSERT INTO ticket_event_facts (${EVENT_COLUMNS})
       VALUES (new.companyId, new.id, 'created', new.createdAt, new.userId, new.queueId,
         new.whatsappId, NULL, NULL, NULL, NULL);
     INSERT INTO ticket_event_facts (${EVENT_COLUMNS})
       SELECT new.companyId, new.id, 'queued', new.createdAt, new.userId, new.queueId,
         new.whatsappId, NULL, NULL, NULL, NULL WHERE new.queueId IS NOT NULL;
     INSERT INTO ticket_event_facts (${EVENT_COLUMNS})
       SELECT new.companyId, new.id, 'accepted', coalesce(new.acceptedAt, new.createdAt),
         new.userId, new.queueId, new.whatsappId, NULL, NULL, NULL, NULL
       WHERE new.userId IS NOT NULL AND new.status = 'open';
   END`,
  `CREATE TRIGGER ticket_events_reopened AFTER UPDATE OF status ON tickets
   WHEN old.status = 'closed' AND new.status <> 'closed' BEGIN
     INSERT INTO ticket_event_facts (${EVENT_COLUMNS})
       VALUES (new.companyId, new.id, 'reopened', new.updatedAt, new.userId, new.queueId,
         new.whatsappId, old.userId, old.queueId, NULL, NULL);
   END`,
  `CREATE TRIGGER ticket_events_resolved AFTER UPDATE OF status ON tickets
   WHEN old.status <> 'closed' AND new.status = 'closed' BEGIN
     INSERT INTO ticket_event_facts (${EVENT_COLUMNS})
       VALUES (new.companyId, new.id, 'resolved', coalesce(new.closedAt, new.updatedAt),
         new.userId, new.queueId, new.whatsappId, old.userId, old.queueId,
         ${SECONDS("coalesce(new.closedAt, new.updatedAt)", CYCLE_START("new"))}, NULL);
   END`,
  `CREATE TRIGGER ticket_events_queued AFTER UPDATE OF queueId ON tickets
   WHEN new.queueId IS NOT NULL AND new.queueId IS NOT old.queueId AND new.status <> 'closed' BEGIN
     INSERT INTO ticket_event_facts (${EVENT_COLUMNS})
       VALUES (new.companyId, new.id, 'queued', new.updatedAt, new.userId, new.queueId,
         new.whatsappId, old.userId, old.queueId, NULL, NULL);
   END`,
  `CREATE TRIGGER ticket_events_transfer AFTER UPDATE OF queueId, userId ON tickets
   WHEN old.status <> 'closed' AND new.status <> 'closed' AND (
     (old.queueId IS NOT NULL AND new.queueId IS NOT old.queueId)
     OR (old.userId IS NOT NULL AND new.userId IS NOT NULL AND new.userId IS NOT old.userId)) BEGIN
     INSERT INTO ticket_event_facts (${EVENT_COLUMNS})
       VALUES (new.companyId, new.id, 'transfer', new.updatedAt, new.userId, new.queueId,
         new.whatsappId, old.userId, old.queueId, NULL, NULL);
   END`,
  `CREATE TRIGGER ticket_events_accepted AFTER UPDATE OF status, userId ON tickets
   WHEN new.status = 'open' AND new.userId IS NOT NULL
     AND (old.status <> 'open' OR new.userId IS NOT old.userId) BEGIN
     INSERT INTO ticket_event_facts (${EVENT_COLUMNS})
       SELECT new.companyId, new.id, 'accepted', ${ACCEPTED_AT},
         new.userId, new.queueId, new.whatsappId, old.userId, old.queueId,
         CASE WHEN old.userId IS NULL AND old.status <> 'closed' THEN ${
    SECONDS(
      ACCEPTED_AT,
      `coalesce((SELECT max(e.at) FROM ticket_events e WHERE e.ticketId = new.id
         AND e.kind IN ('reopened', 'queued')), new.createdAt)`,
    )
  } END, NULL;
   END`,
  `CREATE TRIGGER ticket_events_handover AFTER UPDATE OF chatbot, useIntegration ON tickets
   WHEN new.status <> 'closed' AND ((old.chatbot = 1 AND new.chatbot = 0)
     OR (old.useIntegration = 1 AND new.useIntegration = 0)) BEGIN
     INSERT INTO ticket_event_facts (${EVENT_COLUMNS})
       VALUES (new.companyId, new.id, 'handover', new.updatedAt, new.userId, new.queueId,
         new.whatsappId, NULL, NULL, NULL, NULL);
   END`,
  `CREATE TRIGGER ticket_events_sla AFTER UPDATE OF slaBreachedAt ON tickets
   WHEN old.slaBreachedAt IS NULL AND new.slaBreachedAt IS NOT NULL BEGIN
     INSERT INTO ticket_event_facts (${EVENT_COLUMNS})
       VALUES (new.companyId, new.id, 'sla_breached', new.slaBreachedAt, new.userId, new.queueId,
         new.whatsappId, NULL, NULL, NULL, NULL);
   END`,
  `CREATE TRIGGER ticket_events_rated AFTER INSERT ON user_ratings BEGIN
     INSERT INTO ticket_event_facts (${EVENT_COLUMNS})
       SELECT t.companyId, t.id, 'rated', new.createdAt, new.userId, t.queueId, t.whatsappId,
         NULL, NULL, NULL, new.rate FROM tickets t WHERE t.id = new.ticketId;
   END`,
  // A person's first message of the cycle: the ticket is open with a user (bots write while it
  // has none, or while pending).
  `CREATE TRIGGER ticket_events_first_response AFTER INSERT ON messages WHEN new.fromMe = 1 BEGIN
     INSERT INTO ticket_event_facts (${EVENT_COLUMNS})
       SELECT t.companyId, t.id, 'first_response', new.createdAt, t.userId, t.queueId,
         t.whatsappId, NULL, NULL, ${SECONDS("new.createdAt", CYCLE_START("t"))}, NULL
       FROM tickets t WHERE t.id = new.ticketId AND t.status = 'open' AND t.userId IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM ticket_events f WHERE f.ticketId = t.id
           AND f.kind = 'first_response' AND f.at >= ${CYCLE_START("t")});
   END`,
  `CREATE TRIGGER report_message_hours_insert AFTER INSERT ON messages BEGIN
     INSERT INTO report_message_hours
       SELECT t.companyId, substr(new.createdAt, 1, 13), ifnull(t.userId, 0), ifnull(t.queueId, 0),
         ifnull(t.whatsappId, 0), 0, 0 FROM tickets t WHERE t.id = new.ticketId
         AND NOT EXISTS (SELECT 1 FROM report_message_hours h WHERE h.companyId = t.companyId
           AND h.hour = substr(new.createdAt, 1, 13) AND h.userId = ifnull(t.userId, 0)
           AND h.queueId = ifnull(t.queueId, 0) AND h.whatsappId = ifnull(t.whatsappId, 0));
     UPDATE report_message_hours SET inbound = inbound + (new.fromMe = 0),
       outbound = outbound + (new.fromMe = 1)
       WHERE (companyId, hour, userId, queueId, whatsappId) = (SELECT t.companyId,
         substr(new.createdAt, 1, 13), ifnull(t.userId, 0), ifnull(t.queueId, 0),
         ifnull(t.whatsappId, 0) FROM tickets t WHERE t.id = new.ticketId);
   END`,
];

/** Not a ticket created closed to carry a send (its closedAt is its createdAt). */
const CONVERSATION = "(status <> 'closed' OR closedAt IS NULL OR closedAt > createdAt)";

/** Rebuilds the timeline and the message counts from the tickets, ratings and messages. */
export const BACKFILL = [
  `DELETE FROM ticket_events`,
  `DELETE FROM report_message_hours`,
  `INSERT INTO ticket_event_facts (${EVENT_COLUMNS})
     SELECT companyId, id, 'created', createdAt, userId, queueId, whatsappId,
       CAST(NULL AS INTEGER), CAST(NULL AS INTEGER), CAST(NULL AS INTEGER), CAST(NULL AS INTEGER)
       FROM tickets WHERE ${CONVERSATION}
     UNION ALL
     SELECT companyId, id, 'queued', createdAt, userId, queueId, whatsappId, NULL, NULL, NULL,
       NULL FROM tickets WHERE queueId IS NOT NULL AND ${CONVERSATION}
     UNION ALL
     SELECT companyId, id, 'accepted', acceptedAt, userId, queueId, whatsappId, NULL, NULL,
       ${SECONDS("acceptedAt", "createdAt")}, NULL FROM tickets
       WHERE acceptedAt IS NOT NULL AND userId IS NOT NULL
     UNION ALL
     SELECT companyId, id, 'resolved', closedAt, userId, queueId, whatsappId, NULL, NULL,
       ${SECONDS("closedAt", "createdAt")}, NULL FROM tickets
       WHERE status = 'closed' AND closedAt > createdAt
     UNION ALL
     SELECT companyId, id, 'sla_breached', slaBreachedAt, userId, queueId, whatsappId, NULL, NULL,
       NULL, NULL FROM tickets WHERE slaBreachedAt IS NOT NULL
     UNION ALL
     SELECT r.companyId, r.ticketId, 'rated', r.createdAt, r.userId, t.queueId, t.whatsappId,
       NULL, NULL, NULL, r.rate FROM user_ratings r JOIN tickets t ON t.id = r.ticketId`,
  `INSERT INTO ticket_event_facts (${EVENT_COLUMNS})
     SELECT companyId, id, 'first_response', f, userId, queueId, whatsappId, NULL, NULL,
       ${SECONDS("f", "createdAt")}, NULL FROM (
       SELECT t.*, (SELECT min(m.createdAt) FROM messages m WHERE m.ticketId = t.id
         AND m.fromMe = 1 AND m.createdAt >= t.acceptedAt) AS f
       FROM tickets t WHERE t.acceptedAt IS NOT NULL AND t.userId IS NOT NULL
     ) AS firsts WHERE f IS NOT NULL`,
  `INSERT INTO report_message_hours
     SELECT t.companyId, substr(m.createdAt, 1, 13), ifnull(t.userId, 0), ifnull(t.queueId, 0),
       ifnull(t.whatsappId, 0), sum(m.fromMe = 0), sum(m.fromMe = 1)
     FROM messages m JOIN tickets t ON t.id = m.ticketId GROUP BY 1, 2, 3, 4, 5`,
  ...ROLLUP,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of [...schema, ...BACKFILL, ...triggers]) {
    await sql.raw(statement).execute(db);
  }
}
