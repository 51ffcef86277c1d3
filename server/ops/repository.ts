import { sql } from "kysely";
import type { Database } from "../../db/client.ts";

/** The migrations this database has run, in name order (Kysely's own bookkeeping table). */
export async function appliedMigrations(db: Database): Promise<string[]> {
  const result = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`
    .execute(db);
  return result.rows.map((row) => row.name);
}
