import assert from "node:assert/strict";
import { sql } from "kysely";
import { openDatabase } from "../../db/client.ts";
import { knownMigrations, migrateToLatest, SchemaTooNewError } from "../../db/migrate.ts";

/** Issue 32 item 5: each migration recorded with the release that applied it; a newer schema refused. */
Deno.test("schema guard - migrations are recorded with their release; an older release refuses a newer database by name", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-schema-" });
  const db = await openDatabase(`file:${dir}/balcao.db`);
  try {
    const applied = await migrateToLatest(db, "1.0.0");
    assert.deepEqual(applied, knownMigrations());
    const recorded = await sql<{ migration: string; appVersion: string }>`
      SELECT migration, appVersion FROM schema_versions ORDER BY migration`.execute(db);
    assert.deepEqual(recorded.rows.map((r) => r.migration), knownMigrations());
    assert.ok(recorded.rows.every((r) => r.appVersion === "1.0.0"));
    assert.deepEqual(await migrateToLatest(db, "1.0.0"), [], "a second run applies nothing");

    // What a newer release leaves behind: a migration this build does not know.
    await sql`INSERT INTO kysely_migration (name, timestamp) VALUES ('9999_future', '2027-01-01')`
      .execute(db);
    await sql`INSERT INTO schema_versions VALUES ('9999_future', '9.9.9', '2027-01-01')`.execute(
      db,
    );
    await assert.rejects(
      () => migrateToLatest(db, "1.0.0"),
      (error: Error) => {
        assert.ok(error instanceof SchemaTooNewError);
        assert.match(error.message, /migrated by Balcão 9\.9\.9 \(migration 9999_future\)/);
        assert.match(error.message, /this is Balcão 1\.0\.0/);
        return true;
      },
    );
  } finally {
    db.destroy();
  }
  // The real process says so and exits, without serving.
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "main.ts"],
    env: { PORT: "0", DATA_DIR: dir, ADMIN_EMAIL: "root@example.com", ADMIN_PASSWORD: "secret12" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(run.code, 1);
  const said = new TextDecoder().decode(run.stderr);
  assert.match(said, /migrated by Balcão 9\.9\.9 \(migration 9999_future\); this is Balcão/);
  assert.doesNotMatch(new TextDecoder().decode(run.stdout), /"listening"/);
  await Deno.remove(dir, { recursive: true });
});
