import { type Kysely, sql } from "kysely";

/**
 * Issue 33: the notifications list (GET /api/tickets?withUnreadMessages=true) counted its tickets
 * with a query on every request: every unread ticket of the caller and of their queues walked
 * through tickets_unread, about half the database thread's time for that request. This table
 * keeps, for tickets that are not groups (notifications never include groups), how many there are
 * per (status, queue, user, unread), by triggers as ticket_counts does (migration 0032), so the
 * count is a sum over a few rows (server/tickets/list_repository.ts countNotifications).
 * `unread` is 1 when unreadMessages > 0. A missing queue or user is 0. An inbound message changes
 * a row only when the ticket goes from read to unread (the triggers' WHEN), not on every message.
 */
const KEY_CHANGED = `old.companyId IS NOT new.companyId OR old.status IS NOT new.status
  OR old.queueId IS NOT new.queueId OR old.userId IS NOT new.userId
  OR old.isGroup IS NOT new.isGroup
  OR (old.unreadMessages > 0) IS NOT (new.unreadMessages > 0)`;

/** 1 or 0 (a comparison's value is an integer in SQLite, a boolean in PostgreSQL). */
const unread = (row: "new" | "old") => `(CASE WHEN ${row}.unreadMessages > 0 THEN 1 ELSE 0 END)`;

const add = (row: "new" | "old") => `
     INSERT INTO ticket_notification_counts
       SELECT ${row}.companyId, ${row}.status, ifnull(${row}.queueId, 0), ifnull(${row}.userId, 0),
         ${unread(row)}, 0
       WHERE NOT EXISTS (SELECT 1 FROM ticket_notification_counts WHERE companyId = ${row}.companyId
         AND status = ${row}.status AND queueId = ifnull(${row}.queueId, 0)
         AND userId = ifnull(${row}.userId, 0) AND unread = ${unread(row)});
     UPDATE ticket_notification_counts SET n = n + 1 WHERE companyId = ${row}.companyId
       AND status = ${row}.status AND queueId = ifnull(${row}.queueId, 0)
       AND userId = ifnull(${row}.userId, 0) AND unread = ${unread(row)};`;

const remove = `
     UPDATE ticket_notification_counts SET n = n - 1 WHERE companyId = old.companyId
       AND status = old.status AND queueId = ifnull(old.queueId, 0)
       AND userId = ifnull(old.userId, 0) AND unread = ${unread("old")};`;

const statements = [
  `CREATE TABLE ticket_notification_counts (
    companyId INTEGER NOT NULL,
    status TEXT NOT NULL,
    queueId INTEGER NOT NULL,
    userId INTEGER NOT NULL,
    unread INTEGER NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (companyId, status, queueId, userId, unread)
  ) WITHOUT ROWID`,
  `INSERT INTO ticket_notification_counts (companyId, status, queueId, userId, unread, n)
     SELECT companyId, status, ifnull(queueId, 0), ifnull(userId, 0),
       CASE WHEN unreadMessages > 0 THEN 1 ELSE 0 END, count(*)
     FROM tickets WHERE isGroup = 0 GROUP BY 1, 2, 3, 4, 5`,
  `CREATE TRIGGER ticket_notification_counts_insert AFTER INSERT ON tickets
   WHEN new.isGroup = 0 BEGIN ${add("new")}
   END`,
  `CREATE TRIGGER ticket_notification_counts_delete AFTER DELETE ON tickets
   WHEN old.isGroup = 0 BEGIN ${remove}
   END`,
  // Two triggers for an update: the old key leaves (if it was counted) and the new one arrives
  // (if it is counted); their order does not matter, each changes its own row.
  `CREATE TRIGGER ticket_notification_counts_update_old
   AFTER UPDATE OF companyId, status, queueId, userId, isGroup, unreadMessages ON tickets
   WHEN old.isGroup = 0 AND (${KEY_CHANGED}) BEGIN ${remove}
   END`,
  `CREATE TRIGGER ticket_notification_counts_update_new
   AFTER UPDATE OF companyId, status, queueId, userId, isGroup, unreadMessages ON tickets
   WHEN new.isGroup = 0 AND (${KEY_CHANGED}) BEGIN ${add("new")}
   END`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
