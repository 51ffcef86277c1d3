import assert from "node:assert/strict";
import Database from "libsql";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createCompany,
  createTestApp,
  login,
  restartTestApp,
  type TestApp,
  type TestCompany,
  withApp,
} from "../helpers/app.ts";
import { closeDeps } from "../../server/deps.ts";
import { connectSimulator, phoneSends } from "../whatsapp/helpers.ts";
import { restoreBackup, RestoreError } from "../../server/ops/restore.ts";
import { listBackups } from "../../server/ops/backup.ts";
import { checkBackupFile } from "../../db/backup_file.ts";
import { openDatabase } from "../../db/client.ts";
import { migrateUpTo } from "../../db/migrate.ts";

const PHONE = "5511977776666";

async function superToken(t: TestApp): Promise<string> {
  return (await login(t, ADMIN_EMAIL, ADMIN_PASSWORD)).token;
}

async function backupNow(t: TestApp, token: string) {
  const res = await t.request("POST", "/api/backups", { token });
  assert.equal(res.status, 201, await res.clone().text());
  t.clock.advance(1000); // the next backup gets another name
  return await res.json() as { name: string; size: number; integrity: string; mediaFiles: number };
}

/** Every row of every table of ours, as JSON text per table (the database's content). */
function dump(path: string): Map<string, string> {
  const db = new Database(path);
  try {
    const tables = db.prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
         AND name NOT LIKE '\\_backup\\_%' ESCAPE '\\' AND name NOT LIKE '%fts%' ORDER BY name`,
    ).raw(true).all() as string[][];
    return new Map(tables.map(([name]) => [
      name,
      JSON.stringify(db.prepare(`SELECT * FROM "${name}" ORDER BY 1`).raw(true).all()),
    ]));
  } finally {
    db.close();
  }
}

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

Deno.test("backup drill - traffic, backup while serving, more traffic, restore: the database and media are the backup's moment, and the app starts on it", async () => {
  let t = await createTestApp();
  try {
    const company = await createCompany(t, "Drill");
    const wid = await connectSimulator(t, company);
    const before = await say(t, company, wid, "antes do backup", true);
    const token = await superToken(t);

    // The backup runs while messages keep arriving: it must be a consistent snapshot anyway.
    // (Fewer than a page of messages in all: the check below reads the newest page.)
    const during = Array.from({ length: 10 }, (_, i) => say(t, company, wid, `durante ${i}`));
    const backup = await backupNow(t, token);
    await Promise.all(during);
    assert.equal(backup.integrity, "ok");
    assert.equal(backup.mediaFiles, 1);
    assert.match(backup.name, /^balcao-\d{4}-\d{2}-\d{2}T[\d-]+Z\.db$/);
    const file = `${t.config.backupDir}/${backup.name}`;
    const stat = await Deno.stat(file);
    assert.equal(stat.size, backup.size);
    assert.equal(stat.mode! & 0o777, 0o600, "only the owner reads a backup");

    const list = await t.request("GET", "/api/backups", { token });
    assert.deepEqual((await list.json()).backups.map((b: { name: string }) => b.name), [
      backup.name,
    ]);

    const after = await say(t, company, wid, "depois do backup", true);
    // What the backup holds, read from the file itself.
    const atBackup = dump(file);

    await closeDeps(t.deps);
    const restored = await restoreBackup(t.config, file, t.clock);
    assert.equal(restored.info.format, "balcao-backup-1");
    assert.ok(restored.keptAside.some((path) => path.includes("balcao.db.before-restore-")));
    assert.deepEqual(dump(`${t.dir}/balcao.db`), atBackup);

    t = await createTestApp({ DATA_DIR: t.dir }, t.clock);
    const admin = await login(t, company.admin.email, company.admin.password);
    const kept = await t.request("GET", `/api/messages/${before.ticketId}`, {
      token: admin.token,
    });
    const bodies = (await kept.json()).messages.map((m: { body: string }) => m.body);
    assert.ok(bodies.includes("antes do backup"));
    assert.ok(!bodies.includes("depois do backup"));
    // The media came back with the database, and the later one did not.
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
    await t.close();
  }
});

Deno.test("restore - refused while a server runs on the database, and over a file that is not a sound backup; nothing changes", async () => {
  const t = await createTestApp();
  let running = true;
  try {
    const token = await superToken(t);
    const backup = await backupNow(t, token);
    const file = `${t.config.backupDir}/${backup.name}`;
    const live = dump(`${t.dir}/balcao.db`);

    await assert.rejects(
      () => restoreBackup(t.config, file, t.clock),
      (error) => error instanceof RestoreError && /server is running/.test(error.message),
    );

    // `deno task backup` works beside the running server (its own connection, online).
    const backupTask = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "scripts/backup.ts"],
      env: { DATA_DIR: t.dir, LOG_LEVEL: "warn" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(backupTask.code, 0, new TextDecoder().decode(backupTask.stderr));
    const printed = JSON.parse(new TextDecoder().decode(backupTask.stdout));
    assert.equal(printed.integrity, "ok");
    assert.equal(
      checkBackupFile(`${t.config.backupDir}/${printed.name}`).format,
      "balcao-backup-1",
    );

    // The restore task, as an operator would run it, is refused.
    const task = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "scripts/restore.ts", file],
      env: { DATA_DIR: t.dir, LOG_LEVEL: "warn" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.equal(task.code, 1);
    assert.match(new TextDecoder().decode(task.stderr), /restore refused: .*server is running/);

    await closeDeps(t.deps);
    running = false;
    const garbage = `${t.dir}/garbage.db`;
    await Deno.writeTextFile(garbage, "not a database at all");
    const truncated = `${t.dir}/truncated.db`;
    const bytes = await Deno.readFile(file);
    await Deno.writeFile(truncated, bytes.slice(0, Math.floor(bytes.length / 2)));
    for (const bad of [garbage, truncated, `${t.dir}/missing.db`]) {
      await assert.rejects(
        () => restoreBackup(t.config, bad, t.clock),
        (error) => error instanceof RestoreError,
        bad,
      );
    }
    assert.deepEqual(dump(`${t.dir}/balcao.db`), live);
    const leftovers = [...Deno.readDirSync(t.dir)].map((e) => e.name)
      .filter((name) => /restoring|before-restore/.test(name));
    assert.deepEqual(leftovers, []);
  } finally {
    if (running) await closeDeps(t.deps);
    await Deno.remove(t.dir, { recursive: true });
  }
});

Deno.test("backups - super users only; an unwritable folder is a clear error and writes nothing; BACKUP_KEEP keeps the newest", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-backups-" });
  const blocker = `${dir}/a-file`;
  await Deno.writeTextFile(blocker, "x");
  try {
    await withApp(async (t) => {
      const company = await createCompany(t, "Outra");
      const refused = await t.request("POST", "/api/backups", { token: company.admin.token });
      assert.equal(refused.status, 403);
      assert.equal((await refused.json()).error, "ERR_NO_PERMISSION");
      const listed = await t.request("GET", "/api/backups", { token: company.admin.token });
      assert.equal(listed.status, 403);
      await listed.body?.cancel();

      const res = await t.request("POST", "/api/backups", { token: await superToken(t) });
      assert.equal(res.status, 500);
      const body = await res.json();
      assert.equal(body.error, "ERR_BACKUP_DIR_NOT_WRITABLE");
      assert.match(body.message, /a-file\/backups/);
      assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["a-file"]);
    }, { BACKUP_DIR: `${blocker}/backups` });

    await withApp(async (t) => {
      const token = await superToken(t);
      const names = [];
      for (let i = 0; i < 3; i++) names.push((await backupNow(t, token)).name);
      const list = await (await t.request("GET", "/api/backups", { token })).json();
      assert.deepEqual(list.backups.map((b: { name: string }) => b.name), [names[2], names[1]]);
      for (const backup of list.backups) assert.ok(backup.size > 0);
      assert.deepEqual(
        [...Deno.readDirSync(`${dir}/kept`)].map((e) => e.name).sort(),
        [names[1], names[2]].sort(),
      );
    }, { BACKUP_DIR: `${dir}/kept`, BACKUP_KEEP: "2" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("upgrade - a database with pending migrations is backed up before they run", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-upgrade-" });
  const old = await openDatabase(`file:${dir}/balcao.db`);
  await migrateUpTo(old, "0051_create_sessions");
  await old.destroy();
  let t = await createTestApp({ DATA_DIR: dir });
  try {
    const backups = await listBackups(t.config);
    assert.equal(backups.length, 1);
    const info = checkBackupFile(`${t.config.backupDir}/${backups[0].name}`);
    assert.equal(info.migration, "0051_create_sessions");
    // A restart with nothing to migrate takes none.
    t = await restartTestApp(t);
    assert.equal((await listBackups(t.config)).length, 1);
  } finally {
    await t.close();
  }
});
