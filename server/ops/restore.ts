import { BackupFileError, checkBackupFile, extractBackupFile } from "../../db/backup_file.ts";
import { knownMigrations } from "../../db/migrate.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { databasePathOf, exists } from "./backup.ts";
import { DataLockError, lockForRestore } from "./data_lock.ts";

export type RestoreResult = {
  backup: string;
  info: Record<string, string>;
  database: string;
  /** What was there before, kept aside rather than deleted (delete once the restore is checked). */
  keptAside: string[];
};

export class RestoreError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "RestoreError";
  }
}

/**
 * Brings a backup back: refuses while a server runs on the database (its lock), checks the file
 * (integrity, our marker, a schema this release knows), unpacks it next to the live files, then
 * moves the live database (with its WAL) and media aside and the restored ones into place.
 * Nothing is changed until the backup has been checked and unpacked.
 */
export async function restoreBackup(
  config: Pick<Config, "dataDir" | "databaseUrl">,
  backupPath: string,
  clock: Clock,
): Promise<RestoreResult> {
  let lock: Deno.FsFile;
  try {
    lock = await lockForRestore(config);
  } catch (error) {
    if (error instanceof DataLockError) throw new RestoreError(error.message);
    throw error;
  }
  try {
    const database = databasePathOf(config)!;
    let info: Record<string, string>;
    try {
      info = checkBackupFile(backupPath);
    } catch (error) {
      if (error instanceof BackupFileError) throw new RestoreError(error.message, { cause: error });
      throw error;
    }
    if (info.migration && !knownMigrations().includes(info.migration)) {
      throw new RestoreError(
        `the backup's schema (${info.migration}) is newer than this release knows: restore it with the release that wrote it (${info.version})`,
      );
    }
    const media = `${config.dataDir}/media`;
    const stagedDb = `${database}.restoring`;
    const stagedMedia = `${media}.restoring`;
    for (const path of [stagedDb, stagedMedia]) {
      await Deno.remove(path, { recursive: true }).catch(() => {});
    }
    try {
      extractBackupFile(backupPath, stagedDb, stagedMedia);
    } catch (error) {
      for (const path of [stagedDb, stagedMedia]) {
        await Deno.remove(path, { recursive: true }).catch(() => {});
      }
      throw new RestoreError(`the backup could not be unpacked: ${String(error)}`, {
        cause: error,
      });
    }

    const aside = `before-restore-${clock.now().toISOString().replace(/[:.]/g, "-")}`;
    const keptAside: string[] = [];
    for (const path of [database, `${database}-wal`, `${database}-shm`, media]) {
      if (!(await exists(path))) continue;
      await Deno.rename(path, `${path}.${aside}`);
      keptAside.push(`${path}.${aside}`);
    }
    await Deno.rename(stagedDb, database);
    await Deno.rename(stagedMedia, media);
    return { backup: backupPath, info, database, keptAside };
  } finally {
    lock.close();
  }
}
