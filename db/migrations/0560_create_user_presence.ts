import { type Kysely, sql } from "kysely";

/**
 * Issue 43 item 2a: who has a socket open, per process. users.online was written by each process
 * from its own sockets alone, so a user whose socket on one process closed went offline for
 * everyone while their socket on another process was still open. Each process now keeps one row
 * per user it holds a socket of, refreshed by the `presence` job (seenAt); users.online is
 * "some process has a row", recomputed in the same transaction as each row change. The rows of a
 * process that died stop being refreshed and are swept (server/users/presence_repository.ts).
 */
const statements = [
  `CREATE TABLE user_presence (
    companyId INTEGER NOT NULL REFERENCES companies(id) ON DELETE CASCADE,
    userId INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    instanceId TEXT NOT NULL,
    seenAt TEXT NOT NULL,
    PRIMARY KEY (companyId, userId, instanceId)
  )`,
  `CREATE INDEX user_presence_instance ON user_presence (instanceId, seenAt)`,
  `CREATE INDEX user_presence_seen ON user_presence (seenAt)`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
