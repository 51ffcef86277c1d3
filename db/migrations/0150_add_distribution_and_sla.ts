import { type Kysely, sql } from "kysely";

/**
 * Issue 26: automatic distribution per queue and service-level targets.
 * - queues.distribution: "off" | "round_robin" | "least_busy"; distributionCursor: the user the
 *   round-robin gave the last ticket to (kept here so that a restart resumes after them);
 *   firstResponseMinutes / resolutionMinutes: the targets (NULL: none).
 * - users.maxOpenTickets: how many pending/open tickets distribution gives them (NULL: no limit).
 * - tickets: the due instants computed when the ticket entered a queue with targets, the instant
 *   a breach was recorded (once: the job's UPDATE requires it NULL), and distributedAt (the
 *   distribution gave it; the offline job only takes back what it gave and nobody touched).
 */
const STATEMENTS = [
  `ALTER TABLE queues ADD COLUMN distribution TEXT NOT NULL DEFAULT 'off'`,
  `ALTER TABLE queues ADD COLUMN distributionCursor INTEGER`,
  `ALTER TABLE queues ADD COLUMN firstResponseMinutes INTEGER`,
  `ALTER TABLE queues ADD COLUMN resolutionMinutes INTEGER`,
  `ALTER TABLE users ADD COLUMN maxOpenTickets INTEGER`,
  `ALTER TABLE tickets ADD COLUMN firstResponseDueAt TEXT`,
  `ALTER TABLE tickets ADD COLUMN resolutionDueAt TEXT`,
  `ALTER TABLE tickets ADD COLUMN slaBreachedAt TEXT`,
  `ALTER TABLE tickets ADD COLUMN distributedAt TEXT`,
  // The breach job's scans: only tickets with a target and no breach yet are in them.
  `CREATE INDEX tickets_first_response_due ON tickets (firstResponseDueAt)
    WHERE slaBreachedAt IS NULL AND firstResponseDueAt IS NOT NULL`,
  `CREATE INDEX tickets_resolution_due ON tickets (resolutionDueAt)
    WHERE slaBreachedAt IS NULL AND resolutionDueAt IS NOT NULL`,
  // The offline job's scan: tickets the distribution gave.
  `CREATE INDEX tickets_distributed ON tickets (companyId, userId, distributedAt)
    WHERE distributedAt IS NOT NULL`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}
