import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import { crossCompany } from "../../db/tenancy.ts";

/**
 * The scrape's two small queries. Metrics describe the whole process, so both cross companies on
 * purpose: the outbox's waiting rows through their partial index (migration 0130) and
 * connections grouped by status.
 */
export async function outboxWaiting(db: Database) {
  return await crossCompany(db).selectFrom("outbox")
    .select([sql<number>`count(*)`.as("depth"), sql<string | null>`min(createdAt)`.as("oldest")])
    .where("status", "in", ["pending", "sending"]).executeTakeFirstOrThrow();
}

export async function connectionsByStatus(db: Database) {
  return await crossCompany(db).selectFrom("whatsapps")
    .select(["status", sql<number>`count(*)`.as("count")]).groupBy("status").execute();
}
