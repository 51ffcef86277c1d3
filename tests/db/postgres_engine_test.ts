import assert from "node:assert/strict";
import { sql } from "kysely";
import { openDatabase } from "../../db/client.ts";
import { engineOf } from "../../db/engine.ts";
import { knownMigrations, migrateToLatest, SchemaTooNewError } from "../../db/migrate.ts";
import { startPostgres } from "../helpers/postgres_server.ts";

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
