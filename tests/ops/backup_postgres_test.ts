import assert from "node:assert/strict";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createCompany,
  createTestApp,
  login,
  type TestApp,
  type TestCompany,
} from "../helpers/app.ts";
import { testCluster, testPostgresDatabase } from "../helpers/engine.ts";
import { closeDeps } from "../../server/deps.ts";
import { connectSimulator, phoneSends } from "../whatsapp/helpers.ts";
import { restoreBackup, RestoreError } from "../../server/ops/restore.ts";
import { checkBackupFile } from "../../db/backup_file.ts";

/**
 * Issue 46 item 4: on PostgreSQL, backups are pg_dump's archive inside the usual backup file (with
 * the media), taken while the server serves; the restore is refused while a server is connected,
 * then pg_restores into a new database that takes the live one's name, the live one kept aside.
 * Against a real PostgreSQL (tests/helpers/postgres_server.ts), whatever BALCAO_TEST_ENGINE says.
 */

const PHONE = "5511977776655";
const ROOT = new URL("../../", import.meta.url).pathname;

async function say(t: TestApp, company: TestCompany, wid: number, body: string, media = false) {
  const sent = await phoneSends(t, company.user.token, wid, {
    from: PHONE,
    body,
    ...(media
      ? { media: { base64: btoa(`bytes of ${body}`), mimetype: "image/png", filename: "a.png" } }
      : {}),
  });
  assert.equal(sent.stored, true, JSON.stringify(sent));
  return sent;
}

/** The message bodies of the database `name` in the test cluster, straight from PostgreSQL. */
async function bodiesIn(name: string): Promise<string[]> {
  const out = await (await testCluster()).psql(name, `SELECT body FROM messages ORDER BY id`);
  return out.split("\n").filter(Boolean);
}

function task(script: string, env: Record<string, string>, args: string[] = []) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", script, ...args],
    cwd: ROOT,
    env: { ...env, LOG_LEVEL: "warn" },
    stdout: "piped",
    stderr: "piped",
  }).output();
}

Deno.test("postgres backup drill - backup while serving, more traffic, restore refused while running, then restored: the backup's moment, the live database kept aside", async () => {
  const url = await testPostgresDatabase();
  const database = new URL(url).pathname.slice(1);
  let t = await createTestApp({ DATABASE_URL: url });
  let running = true;
  try {
    const company = await createCompany(t, "Drill PG");
    const wid = await connectSimulator(t, company);
    const before = await say(t, company, wid, "antes do backup", true);
    const token = (await login(t, ADMIN_EMAIL, ADMIN_PASSWORD)).token;

    // Messages keep arriving while pg_dump runs: its snapshot is consistent anyway.
    const during = Array.from({ length: 10 }, (_, i) => say(t, company, wid, `durante ${i}`));
    const res = await t.request("POST", "/api/backups", { token });
    assert.equal(res.status, 201, await res.clone().text());
    const backup = await res.json() as { name: string; integrity: string; mediaFiles: number };
    await Promise.all(during);
    t.clock.advance(1000);
    assert.equal(backup.integrity, "ok");
    assert.equal(backup.mediaFiles, 1);
    const file = `${t.config.backupDir}/${backup.name}`;
    const info = checkBackupFile(file);
    assert.equal(info.engine, "postgres");
    assert.match(info.migration, /^\d{4}_/);
    assert.equal((await Deno.stat(file)).mode! & 0o777, 0o600);

    const after = await say(t, company, wid, "depois do backup", true);
    const atBackupBodies = await bodiesIn(database);
    assert.ok(atBackupBodies.includes("depois do backup"));

    // The release's commands, as an operator runs them: backup works beside the server, restore
    // is refused while it is connected, and nothing changes.
    const env = { DATA_DIR: t.dir, DATABASE_URL: url, BACKUP_DIR: t.config.backupDir };
    const cliBackup = await task("scripts/backup.ts", env);
    assert.equal(cliBackup.code, 0, new TextDecoder().decode(cliBackup.stderr));
    const printed = JSON.parse(new TextDecoder().decode(cliBackup.stdout));
    assert.equal(checkBackupFile(`${t.config.backupDir}/${printed.name}`).engine, "postgres");
    const refused = await task("scripts/restore.ts", env, [file]);
    assert.equal(refused.code, 1);
    assert.match(new TextDecoder().decode(refused.stderr), /restore refused: .*server is running/);
    await assert.rejects(
      () => restoreBackup(t.config, file, t.clock),
      (error) => error instanceof RestoreError && /server is running/.test(error.message),
    );
    assert.deepEqual(await bodiesIn(database), atBackupBodies);

    await closeDeps(t.deps);
    running = false;
    const restored = await restoreBackup(t.config, file, t.clock);
    const kept = restored.keptAside.find((name) => name.startsWith(`${database}_before_restore_`));
    assert.ok(kept, JSON.stringify(restored.keptAside));
    // The live database is kept whole under its new name; the restored one is the backup's.
    assert.deepEqual(await bodiesIn(kept), atBackupBodies);
    const bodies = await bodiesIn(database);
    assert.ok(bodies.includes("antes do backup"));
    assert.ok(!bodies.includes("depois do backup"));
    const leftovers = await (await testCluster()).psql(
      "postgres",
      `SELECT datname FROM pg_database WHERE datname LIKE '%\\_restoring'`,
    );
    assert.equal(leftovers.trim(), "");

    // The app starts on the restored database, with the backup's media and not the later one's.
    t = await createTestApp({ DATA_DIR: t.dir, DATABASE_URL: url }, t.clock);
    running = true;
    const admin = await login(t, company.admin.email, company.admin.password);
    const media = await t.request("GET", `/api/messages/${before.id}/media`, {
      token: admin.token,
    });
    assert.equal(media.status, 200);
    assert.equal(await media.text(), "bytes of antes do backup");
    const gone = await t.request("GET", `/api/messages/${after.id}/media`, {
      token: admin.token,
    });
    assert.equal(gone.status, 404);
    await gone.body?.cancel();
  } finally {
    if (running) await closeDeps(t.deps);
    await Deno.remove(t.dir, { recursive: true }).catch(() => {});
  }
});

Deno.test("postgres restore - a libSQL installation's backup is refused with what to do instead", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-test-" });
  const lite = await createTestApp({ DATA_DIR: dir, DATABASE_URL: `file:${dir}/balcao.db` });
  const url = await testPostgresDatabase();
  try {
    const token = (await login(lite, ADMIN_EMAIL, ADMIN_PASSWORD)).token;
    const res = await lite.request("POST", "/api/backups", { token });
    assert.equal(res.status, 201, await res.clone().text());
    const file = `${lite.config.backupDir}/${(await res.json()).name}`;
    await closeDeps(lite.deps);
    await assert.rejects(
      () =>
        restoreBackup(
          { dataDir: lite.dir, mediaDir: `${lite.dir}/media`, databaseUrl: url },
          file,
          lite.clock,
        ),
      (error) =>
        error instanceof RestoreError && /libSQL installation's backup/.test(error.message),
    );
  } finally {
    await Deno.remove(lite.dir, { recursive: true }).catch(() => {});
  }
});
