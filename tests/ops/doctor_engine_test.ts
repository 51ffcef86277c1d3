import assert from "node:assert/strict";
import { backupToolsCheck, doctor, postgresChecks } from "../../scripts/doctor.ts";
import { openDatabase } from "../../db/client.ts";
import { migrateToLatest } from "../../db/migrate.ts";
import { startPostgres } from "../helpers/postgres_server.ts";

/**
 * Issue 46: `balcao doctor` names the engine and its version, and on PostgreSQL checks the
 * version (15 or newer) and the extensions the app needs (unaccent, pg_trgm).
 */

async function run(env: Record<string, string>) {
  const lines: string[] = [];
  const code = await doctor({ PORT: "1", ...env }, (line) => lines.push(line));
  return { code, text: lines.join("\n") };
}

Deno.test("doctor: PostgreSQL's version and extensions, before and after the first start", async () => {
  const pg = await startPostgres();
  const dir = await Deno.makeTempDir({ prefix: "balcao-doctor-" });
  try {
    const url = await pg.createDatabase();
    const fresh = await run({ DATA_DIR: dir, DATABASE_URL: url });
    assert.match(fresh.text, /ok {3}engine: PostgreSQL 1[5-9]\.\d+.* \(15 or newer\)/);
    assert.match(
      fresh.text,
      /warn extensions: unaccent, pg_trgm made at the next start \(its user must be allowed to CREATE EXTENSION\)/,
    );
    assert.match(fresh.text, /warn database: not prepared yet/);
    // Backups on PostgreSQL need its client tools (Debian's wrapper or the server's folder).
    assert.match(fresh.text, /ok {3}backup tools: \/\S+\/pg_dump, \/\S+\/pg_restore/);
    assert.equal(fresh.code, 0);

    const db = await openDatabase(url);
    await migrateToLatest(db);
    await db.destroy();
    const started = await run({ DATA_DIR: dir, DATABASE_URL: url });
    assert.match(started.text, /ok {3}extensions: unaccent, pg_trgm installed/);
    assert.match(started.text, /ok {3}database: integrity ok/);
    assert.match(started.text, /ok {3}schema: up to date/);

    // A server that does not answer: one failing line, exit 1.
    await pg.stopOnly();
    const down = await run({ DATA_DIR: dir, DATABASE_URL: url });
    assert.equal(down.code, 1);
    // Without them on PATH nor in Debian's folders: a warning, not a failure.
    const saved = Deno.env.get("PATH")!;
    Deno.env.set("PATH", dir);
    try {
      const check = await backupToolsCheck([]);
      assert.equal(check.level, "warn");
      assert.match(check.detail, /pg_dump was not found.*backups and restores will be refused/);
    } finally {
      Deno.env.set("PATH", saved);
    }
    assert.match(
      down.text,
      /fail engine: PostgreSQL at postgres:\/\/postgres@127\.0\.0\.1:\d+\/\w+ does not answer/,
    );
  } finally {
    await pg.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});

Deno.test("doctor: PostgreSQL older than 15, or without contrib's extensions, fails", () => {
  const old = postgresChecks({
    version: "14.11",
    versionNum: 140011,
    extensions: [
      { name: "unaccent", available: true, installed: true },
      { name: "pg_trgm", available: true, installed: true },
    ],
  });
  assert.deepEqual(old.map((c) => [c.name, c.level]), [["engine", "fail"], ["extensions", "ok"]]);
  assert.match(old[0].detail, /PostgreSQL 14\.11: Balcão needs PostgreSQL 15 or newer/);
  const bare = postgresChecks({
    version: "16.4",
    versionNum: 160004,
    extensions: [
      { name: "unaccent", available: false, installed: false },
      { name: "pg_trgm", available: true, installed: false },
    ],
  });
  assert.deepEqual(bare.map((c) => c.level), ["ok", "fail"]);
  assert.match(bare[1].detail, /unaccent not available on the server: install postgresql-contrib/);
});

Deno.test("doctor: a libSQL database names its engine", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-doctor-" });
  try {
    const db = await openDatabase(`file:${dir}/balcao.db`);
    await migrateToLatest(db);
    await db.destroy();
    const out = await run({ DATA_DIR: dir });
    assert.match(out.text, /ok {3}engine: libSQL \(SQLite 3\.\d+\.\d+\)/);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
});
