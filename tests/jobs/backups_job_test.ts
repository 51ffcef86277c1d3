import assert from "node:assert/strict";
import Database from "libsql";
import { createCompany, createTestApp, restartTestApp, type TestApp } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { checkBackupFile } from "../../db/backup_file.ts";
import { closeDeps } from "../../server/deps.ts";
import { jobFailures, jobRuns } from "../../server/metrics/registry.ts";
import { listBackups } from "../../server/ops/backup.ts";
import { JOBS, startJobs } from "../../jobs/registry.ts";
import type { AppDeps } from "../../server/context.ts";

/** The `backup` job of jobs/registry.ts, started as main.ts starts every job. */
const startBackupJob = (deps: AppDeps) =>
  startJobs(deps, JOBS.filter((job) => job.name === "backup"));

/**
 * the `backup` job (jobs/registry.ts): BACKUP_CRON runs takeBackup (server/ops/backup.ts, tested through the API in
 * tests/ops/backup_test.ts). Here the job itself ticks, every second. Its state is the files in
 * BACKUP_DIR, each named by the moment of its tick.
 */
const ENV = { BACKUP_CRON: "* * * * * *", BACKUP_KEEP: "2" };

async function counted(counter: typeof jobRuns): Promise<number> {
  return (await counter.get()).values.find((v) => v.labels.job === "backup")?.value ?? 0;
}

/**
 * What a backup file holds: a sound Balcão backup (integrity ok, its info table) and our
 * companies' names (the platform's own company, seeded, aside).
 */
function companiesIn(path: string): string[] {
  checkBackupFile(path);
  const db = new Database(path);
  try {
    const rows = db.prepare("SELECT name FROM companies WHERE id > 1 ORDER BY name").raw(true)
      .all() as string[][];
    return rows.map(([name]) => name);
  } finally {
    db.close();
  }
}

const stampOf = (t: TestApp) => t.clock.now().toISOString().replace(/[:.]/g, "-");

Deno.test("backups job - each tick writes a sound backup named by its moment, holding the data; BACKUP_KEEP keeps the newest", async () => {
  const t = await createTestApp(ENV);
  const stop = startBackupJob(t.deps);
  try {
    await createCompany(t, "Alpha");
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      // The job names a backup by the test clock: move it, and wait for that moment's file.
      t.clock.advance(3_600_000);
      const name = `balcao-${stampOf(t)}.db`;
      names.push(name);
      await eventually(async () => (await listBackups(t.config)).some((b) => b.name === name), {
        what: name,
      });
      if (i === 0) await createCompany(t, "Beta");
    }
    await stop();
    const kept = await listBackups(t.config);
    assert.deepEqual(kept.map((b) => b.name), [names[2], names[1]], "the newest two");
    assert.deepEqual(companiesIn(`${t.config.backupDir}/${names[2]}`), ["Alpha", "Beta"]);
    const entries = [];
    for await (const entry of Deno.readDir(t.config.backupDir)) entries.push(entry.name);
    assert.deepEqual(entries.sort(), [names[1], names[2]].sort(), "no partial file left behind");
  } finally {
    await stop();
    await t.close();
  }
});

Deno.test("backups job - two processes on one data folder tick at the same moment: one backup of it, no failure", async () => {
  const t = await createTestApp(ENV);
  // A second process on the same data folder and the same clock: their ticks meet each second.
  const other = await createTestApp({ ...t.env, DATA_DIR: t.dir }, t.clock);
  const failuresBefore = await counted(jobFailures);
  const stops = [startBackupJob(t.deps), startBackupJob(other.deps)];
  try {
    await createCompany(t, "Alpha");
    const file = `${t.config.backupDir}/balcao-${stampOf(t)}.db`;
    const { ino } = await eventually(() => Deno.stat(file));
    // Both processes tick again at this moment (the clock stands still): they leave it as it is.
    const runs = await counted(jobRuns);
    await eventually(async () => await counted(jobRuns) >= runs + 4, { what: "4 more ticks" });
    for (const stop of stops) await stop();
    assert.equal((await Deno.stat(file)).ino, ino, "written once, never replaced");
    const backups = await listBackups(t.config);
    assert.deepEqual(backups.map((b) => b.name), [`balcao-${stampOf(t)}.db`]);
    assert.deepEqual(companiesIn(`${t.config.backupDir}/${backups[0].name}`), ["Alpha"]);
    assert.equal(await counted(jobFailures), failuresBefore, "no tick failed");
    const entries = [];
    for await (const entry of Deno.readDir(t.config.backupDir)) entries.push(entry.name);
    assert.deepEqual(entries, [backups[0].name], "no partial file left behind");
  } finally {
    for (const stop of stops) await stop();
    // Not other.close(): it would delete the data folder the first app still uses.
    await closeDeps(other.deps);
    await t.close();
  }
});

Deno.test("backups job - a restart resumes at the next tick; the backups of before stay", async () => {
  let t = await createTestApp(ENV);
  let stop = startBackupJob(t.deps);
  try {
    await createCompany(t, "Alpha");
    const before = `balcao-${stampOf(t)}.db`;
    await eventually(async () => (await listBackups(t.config)).some((b) => b.name === before));
    await stop();
    t = await restartTestApp(t);
    t.clock.advance(60_000);
    stop = startBackupJob(t.deps);
    const after = `balcao-${stampOf(t)}.db`;
    await eventually(async () => (await listBackups(t.config)).some((b) => b.name === after));
    await stop();
    assert.deepEqual((await listBackups(t.config)).map((b) => b.name), [after, before]);
    for (const name of [before, after]) {
      assert.deepEqual(companiesIn(`${t.config.backupDir}/${name}`), ["Alpha"]);
    }
  } finally {
    await stop();
    await t.close();
  }
});
