import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import { isPostgres } from "../../db/engine.ts";

/** The migrations this database has run, in name order (Kysely's own bookkeeping table). */
export async function appliedMigrations(db: Database): Promise<string[]> {
  const result = await sql<{ name: string }>`SELECT name FROM kysely_migration ORDER BY name`
    .execute(db);
  return result.rows.map((row) => row.name);
}

/** PRAGMA quick_check's answer: "ok", or what it found wrong (`balcao doctor`). */
export async function quickCheck(db: Database): Promise<string> {
  // PostgreSQL keeps its own pages' checksums; answering a statement is its health here.
  if (isPostgres(db)) {
    return (await sql`SELECT 1`.execute(db)).rows.length === 1 ? "ok" : "no answer";
  }
  const result = await sql<Record<string, string>>`PRAGMA quick_check`.execute(db);
  return result.rows.map((row) => Object.values(row)[0]).join("; ");
}

/** Whether Kysely's bookkeeping table exists: false on a database no release has migrated. */
export async function hasMigrationTable(db: Database): Promise<boolean> {
  if (isPostgres(db)) {
    const found = await sql<{ n: number }>`SELECT count(*) AS n FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_name = 'kysely_migration'`.execute(db);
    return Number(found.rows[0]?.n ?? 0) > 0;
  }
  const result = await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_master
    WHERE type = 'table' AND name = 'kysely_migration'`.execute(db);
  return Number(result.rows[0]?.n ?? 0) > 0;
}

/** SQLite's version, for `balcao doctor`'s engine line on a libSQL database. */
export async function sqliteVersion(db: Database): Promise<string> {
  return (await sql<{ v: string }>`SELECT sqlite_version() AS v`.execute(db)).rows[0]?.v ?? "?";
}
