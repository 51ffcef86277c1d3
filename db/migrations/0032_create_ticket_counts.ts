import { type Kysely, sql } from "kysely";

/**
 * How many tickets a company has per (status, queue, user), kept by triggers, so that the ticket
 * lists' counts (the open/pending badges, GET /api/tickets `count`) are a sum over a few rows
 * instead of a walk over every matching ticket: counting 92,000 closed tickets of one company
 * through an index cost ~8 ms of CPU, and a user's own tickets filtered by queue ~12 ms
 * (tests/bench/tickets_bench.ts). Lists with other filters (dates, tags, users, search, unread)
 * still count with a query (server/tickets/list_repository.ts).
 *
 * Rows are created with NOT EXISTS rather than INSERT OR IGNORE: a trigger's conflict clause
 * gives way to the firing statement's (an UPSERT or a foreign-key action).
 * A missing queue or user is 0 (a primary key with NULLs would not be unique). Deleting a user or
 * a queue sets tickets' ids to NULL through their foreign keys, which fires the update trigger.
 */
const statements = [
  `CREATE TABLE ticket_counts (
    companyId INTEGER NOT NULL,
    status TEXT NOT NULL,
    queueId INTEGER NOT NULL,
    userId INTEGER NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (companyId, status, queueId, userId)
  ) WITHOUT ROWID`,
  `INSERT INTO ticket_counts (companyId, status, queueId, userId, n)
     SELECT companyId, status, ifnull(queueId, 0), ifnull(userId, 0), count(*) FROM tickets
     GROUP BY 1, 2, 3, 4`,
  `CREATE TRIGGER ticket_counts_insert AFTER INSERT ON tickets BEGIN
     INSERT INTO ticket_counts
       SELECT new.companyId, new.status, ifnull(new.queueId, 0), ifnull(new.userId, 0), 0
       WHERE NOT EXISTS (SELECT 1 FROM ticket_counts WHERE companyId = new.companyId
         AND status = new.status AND queueId = ifnull(new.queueId, 0)
         AND userId = ifnull(new.userId, 0));
     UPDATE ticket_counts SET n = n + 1 WHERE companyId = new.companyId AND status = new.status
       AND queueId = ifnull(new.queueId, 0) AND userId = ifnull(new.userId, 0);
   END`,
  `CREATE TRIGGER ticket_counts_delete AFTER DELETE ON tickets BEGIN
     UPDATE ticket_counts SET n = n - 1 WHERE companyId = old.companyId AND status = old.status
       AND queueId = ifnull(old.queueId, 0) AND userId = ifnull(old.userId, 0);
   END`,
  `CREATE TRIGGER ticket_counts_update AFTER UPDATE OF companyId, status, queueId, userId ON tickets
   WHEN old.companyId IS NOT new.companyId OR old.status IS NOT new.status
     OR old.queueId IS NOT new.queueId OR old.userId IS NOT new.userId
   BEGIN
     UPDATE ticket_counts SET n = n - 1 WHERE companyId = old.companyId AND status = old.status
       AND queueId = ifnull(old.queueId, 0) AND userId = ifnull(old.userId, 0);
     INSERT INTO ticket_counts
       SELECT new.companyId, new.status, ifnull(new.queueId, 0), ifnull(new.userId, 0), 0
       WHERE NOT EXISTS (SELECT 1 FROM ticket_counts WHERE companyId = new.companyId
         AND status = new.status AND queueId = ifnull(new.queueId, 0)
         AND userId = ifnull(new.userId, 0));
     UPDATE ticket_counts SET n = n + 1 WHERE companyId = new.companyId AND status = new.status
       AND queueId = ifnull(new.queueId, 0) AND userId = ifnull(new.userId, 0);
   END`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
