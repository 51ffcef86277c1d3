import { type Kysely, sql } from "kysely";
import { isPostgres } from "../engine.ts";

/**
 * Issue 46: on PostgreSQL a table's triggers fire in the order of their names, on SQLite the
 * newest first; the timeline's events were written in another order on PostgreSQL ('accepted'
 * before 'handover'). Triggers are now created under a name that sorts the newest first
 * (db/postgres_sql.ts, postgresTrigger); this renames those a PostgreSQL database already has, in
 * the order they were created. Nothing to do on SQLite, nor on a database created since.
 */
// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql.raw(`DO $rename$ DECLARE r record; BEGIN
    FOR r IN SELECT t.tgname, t.tgrelid::regclass AS tab FROM pg_trigger t
      JOIN pg_class c ON c.oid = t.tgrelid
      WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace
        AND t.tgname !~ '^o[0-9]{9}_' ORDER BY t.oid LOOP
      EXECUTE format('ALTER TRIGGER %I ON %s RENAME TO %I', r.tgname, r.tab,
        'o' || lpad((999999999 - nextval('balcao_trigger_order'))::text, 9, '0') || '_' || r.tgname);
    END LOOP;
  END $rename$`).execute(db);
}
