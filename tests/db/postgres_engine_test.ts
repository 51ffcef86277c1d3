import assert from "node:assert/strict";
import { sql } from "kysely";
import { openDatabase } from "../../db/client.ts";
import { engineOf } from "../../db/engine.ts";
import { knownMigrations, migrateToLatest, SchemaTooNewError } from "../../db/migrate.ts";
import * as m0750 from "../../db/migrations/0750_order_postgres_triggers.ts";
import * as m0751 from "../../db/migrations/0751_postgres_counter_rows_once.ts";
import { testCluster, testPostgresDatabase } from "../helpers/engine.ts";
import { startPostgres } from "../helpers/postgres_server.ts";
import { eventually } from "../helpers/eventually.ts";

// Issue 46: DATABASE_URL=postgres://… (or postgresql://) runs the one migration history on
// PostgreSQL, with schema_versions and the schema guard; a file stays libSQL.
Deno.test("postgres engine - a postgres URL opens PostgreSQL and the whole migration history runs on it", async () => {
  const server = await startPostgres();
  try {
    const url = await server.createDatabase();
    const db = await openDatabase(url);
    try {
      assert.equal(engineOf(db), "postgres");
      const applied = await migrateToLatest(db, "1.0.0");
      assert.deepEqual(applied, knownMigrations());
      const versions = (await sql<{ migration: string; appVersion: string }>`
        SELECT migration, appVersion FROM schema_versions ORDER BY migration`.execute(db)).rows;
      assert.deepEqual(versions.map((v) => v.migration), knownMigrations());
      assert.ok(versions.every((v) => v.appVersion === "1.0.0"));
      assert.deepEqual(await migrateToLatest(db, "1.0.1"), [], "a second start applies nothing");
      // Names keep their case (quoted), and ids come from identity columns.
      const plan = await db.insertInto("plans").values({
        name: "P",
        createdAt: "2026-11-22T12:00:00.000Z",
        updatedAt: "2026-11-22T12:00:00.000Z",
      }).returning(["id", "useCampaigns"]).executeTakeFirstOrThrow();
      assert.equal(typeof plan.id, "number");
      assert.equal(plan.useCampaigns, 1);
      const n = await sql<{ n: number }>`SELECT count(*) AS n FROM plans`.execute(db);
      assert.equal(n.rows[0].n, 1, "counts come back as numbers, as on SQLite");
      // A release that does not know a migration refuses the database, naming the newer one.
      await sql`INSERT INTO kysely_migration (name, timestamp) VALUES ('9999_future', 'x')`
        .execute(db);
      await sql`INSERT INTO schema_versions (migration, appVersion, appliedAt)
        VALUES ('9999_future', '9.9.9', 'x')`.execute(db);
      await assert.rejects(migrateToLatest(db, "1.0.1"), (error: Error) => {
        assert.ok(error instanceof SchemaTooNewError);
        assert.match(error.message, /9\.9\.9/);
        return true;
      });
    } finally {
      await db.destroy();
    }
    const other = await openDatabase(url.replace(/^postgres:/, "postgresql:"));
    assert.equal(engineOf(other), "postgres");
    await other.destroy();
  } finally {
    await server.stop();
  }
});

Deno.test("postgres engine - a file URL stays libSQL", async () => {
  const dir = await Deno.makeTempDir();
  const db = await openDatabase(`file:${dir}/b.db`);
  try {
    assert.equal(engineOf(db), "sqlite");
  } finally {
    await db.destroy();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postgres engine - a database made before 0750/0751: triggers renamed into SQLite's firing order, counter rows made once", async () => {
  const url = await testPostgresDatabase();
  const name = new URL(url).pathname.slice(1);
  const psql = async (text: string) => (await (await testCluster()).psql(name, text)).trim();
  const db = await openDatabase(url);
  try {
    await migrateToLatest(db, "1.0.0");
    // As such a database was: plain trigger names, counter rows without ON CONFLICT.
    await psql(`DO $old$ DECLARE r record; BEGIN
      FOR r IN SELECT tgname, tgrelid::regclass AS tab FROM pg_trigger WHERE NOT tgisinternal
        AND tgname ~ '^o[0-9]{9}_' LOOP
        EXECUTE format('ALTER TRIGGER %I ON %s RENAME TO %I', r.tgname, r.tab, substr(r.tgname, 12));
      END LOOP;
      FOR r IN SELECT oid FROM pg_proc WHERE prosrc ~ 'ON CONFLICT DO NOTHING' AND proname ~ '_fn$'
      LOOP
        EXECUTE replace(pg_get_functiondef(r.oid), ' ON CONFLICT DO NOTHING;', ';');
      END LOOP;
    END $old$`);
    const counter = `SELECT prosrc ~ 'ON CONFLICT DO NOTHING' FROM pg_proc
      WHERE proname = 'ticket_notification_counts_insert_fn'`;
    assert.equal(await psql(counter), "f");
    const order = `SELECT string_agg(substr(tgname, 12), ',' ORDER BY tgname) FROM pg_trigger
      WHERE tgname ~ '^o[0-9]{9}_ticket_events_(accepted|handover|queued|transfer)$'`;
    assert.equal(await psql(order), "");

    await m0750.up(db);
    await m0751.up(db);
    // Newest first, as SQLite fires them (0400 created queued, transfer, accepted, handover).
    assert.equal(
      await psql(order),
      "ticket_events_handover,ticket_events_accepted,ticket_events_transfer,ticket_events_queued",
    );
    assert.equal(await psql(counter), "t");
  } finally {
    await db.destroy();
  }
});

// The crash two processes met under a PostgreSQL restart: a connection checked out for a
// transaction, its session ended by the server between two statements. node-postgres emits an
// 'error' the pool does not listen to for a checked-out client; unheard, it ended the process.
Deno.test("postgres engine - a session ended by the server inside a transaction fails that transaction, not the process", async () => {
  const url = await testPostgresDatabase();
  const database = new URL(url).pathname.slice(1);
  const pg = await testCluster();
  const db = await openDatabase(url);
  try {
    const failed = db.transaction().execute(async (trx) => {
      const pid = (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(trx))
        .rows[0].pid;
      await pg.psql(database, `SELECT pg_terminate_backend(${pid})`);
      // Between the two statements the client receives the server's FATAL notice and errors.
      await eventually(
        async () =>
          (await pg.psql(database, `SELECT count(*) FROM pg_stat_activity WHERE pid = ${pid}`))
            .trim() === "0",
        { what: "the session is gone" },
      );
      await sql`SELECT 1`.execute(trx);
    });
    await assert.rejects(failed);
    // The pool dropped the dead client: the next statement gets a live session.
    const n = await sql<{ n: number }>`SELECT 1 AS n`.execute(db);
    assert.equal(n.rows[0].n, 1);
  } finally {
    await db.destroy();
  }
});
