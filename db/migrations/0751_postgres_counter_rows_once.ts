import { type Kysely, sql } from "kysely";
import { isPostgres } from "../engine.ts";

/**
 * Issue 46: on PostgreSQL, a trigger that makes a counter row on first use (INSERT … WHERE NOT
 * EXISTS, then UPDATE n = n + 1) raced with another transaction doing the same: both saw no row,
 * the second insert failed on the key, and the request answered 500. Triggers are now created
 * with ON CONFLICT DO NOTHING there (db/postgres_sql.ts); this adds it to the trigger functions a
 * PostgreSQL database already has. Nothing to do on SQLite (one writer), nor on a database
 * created since.
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql.raw(`DO $fix$ DECLARE r record; BEGIN
    FOR r IN SELECT p.oid FROM pg_proc p JOIN pg_type t ON t.oid = p.prorettype
      WHERE t.typname = 'trigger' AND p.pronamespace = current_schema()::regnamespace
        AND p.prosrc ~ 'WHERE NOT EXISTS' AND p.prosrc !~ 'ON CONFLICT' LOOP
      EXECUTE regexp_replace(pg_get_functiondef(r.oid),
        '(INSERT INTO [^;]*WHERE NOT EXISTS [^;]*);', '\\1 ON CONFLICT DO NOTHING;', 'g');
    END LOOP;
  END $fix$`).execute(db);
}
