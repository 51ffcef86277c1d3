/**
 * Backup and restore of the tickets benchmark's company (100,000 tickets, 1,000,000 messages,
 * 50,000 contacts): how long `deno task backup` and `deno task restore` take and how large the
 * file is, for the README's production section. Reuses the tickets bench's generated database
 * when present (BENCH_DIR, default /tmp/balcao-bench), on a copy.
 */
import { systemClock } from "../../server/clock.ts";
import { loadConfig } from "../../server/config.ts";
import { buildDeps, closeDeps } from "../../server/deps.ts";
import { takeBackup } from "../../server/ops/backup.ts";
import { restoreBackup } from "../../server/ops/restore.ts";
import { DATA_VERSION, generate } from "./tickets_data.ts";

const encoder = new TextEncoder();
function print(line: string) {
  Deno.stdout.writeSync(encoder.encode(`${line}\n`));
}

const root = Deno.env.get("BENCH_DIR") ?? "/tmp/balcao-bench";
const dir = `${root}/backup-v${DATA_VERSION}`;
const config = loadConfig({
  DATA_DIR: dir,
  ADMIN_EMAIL: "root@bench.test",
  ADMIN_PASSWORD: "root-password",
  BCRYPT_COST: "4",
  BACKUP_KEEP: "1",
});
const generated = await Deno.stat(`${dir}/generated`).then(() => true, () => false);
if (!generated) {
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  const { deps } = await buildDeps(config, systemClock);
  await generate(deps.db, new Date());
  await closeDeps(deps);
  await Deno.writeTextFile(`${dir}/generated`, "");
}
const { size: dbSize } = await Deno.stat(`${dir}/balcao.db`);
const t0 = performance.now();
const backup = await takeBackup(config, systemClock, { thread: "inline" });
const backupSeconds = (performance.now() - t0) / 1000;
const t1 = performance.now();
await restoreBackup(config, `${config.backupDir}/${backup.name}`, systemClock);
const restoreSeconds = (performance.now() - t1) / 1000;
for await (const entry of Deno.readDir(dir)) {
  if (entry.name.includes("before-restore")) {
    await Deno.remove(`${dir}/${entry.name}`, { recursive: true });
  }
}
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
print(`database ${mb(dbSize)} MB, backup ${mb(backup.size)} MB (integrity ok)`);
print(`backup  ${backupSeconds.toFixed(1)} s (VACUUM INTO + integrity_check)`);
print(`restore ${restoreSeconds.toFixed(1)} s (check + unpack + swap)`);
