import { sql } from "kysely";
import type { Database } from "../../db/client.ts";

/** The migrations this database has run, in name order (Kysely's own bookkeeping table). */
export async function appliedMigrations(db: Database): Promise<string[]> {
  const result = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`
    .execute(db);
  return result.rows.map((row) => row.name);
}

/** PRAGMA quick_check's answer: "ok", or what it found wrong (`balcao doctor`). */
export async function quickCheck(db: Database): Promise<string> {
  const result = await sql<Record<string, string>>`PRAGMA quick_check`.execute(db);
  return result.rows.map((row) => Object.values(row)[0]).join("; ");
}

/** Whether Kysely's bookkeeping table exists: false on a database no release has migrated. */
export async function hasMigrationTable(db: Database): Promise<boolean> {
  const result = await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_master
    WHERE type = 'table' AND name = 'kysely_migration'`.execute(db);
  return Number(result.rows[0]?.n ?? 0) > 0;
}
