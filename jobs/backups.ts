import { Cron } from "croner";
import type { AppDeps } from "../server/context.ts";
import { log } from "../server/log.ts";
import { countedJob } from "../server/metrics/registry.ts";
import { takeScheduledBackup } from "../server/ops/backup.ts";

/**
 * Scheduled backups (BACKUP_CRON; none when unset). The state is the backup files themselves:
 * each is named by its tick's moment (to the second: every process on the data folder ticks at
 * the same moments) and the first tick to reserve that name writes it, so a tick that runs twice,
 * here or in another process, writes one backup (server/ops/backup.ts takeScheduledBackup);
 * `protect` keeps two ticks of this process from overlapping, and a restart simply waits for the
 * next tick. A failure is logged and counted (balcao_job_failures_total{job="backup"}), and the
 * next tick tries again.
 */
export function startBackupJob(deps: AppDeps): () => Promise<void> {
  const pattern = deps.config.backupCron;
  if (!pattern) return () => Promise.resolve();
  const job = new Cron(pattern, { protect: true, catch: true }, async () => {
    const moment = new Date(Math.floor(deps.clock.now().getTime() / 1000) * 1000);
    await countedJob("backup", () => takeScheduledBackup(deps.config, moment))
      .catch((error) => log.error("scheduled backup failed", { error }));
  });
  return async () => {
    job.stop();
    while (job.isBusy()) await new Promise((resolve) => setTimeout(resolve, 50));
  };
}
