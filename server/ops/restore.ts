import {
  BackupFileError,
  checkBackupFile,
  extractBackupFile,
  extractDumpBackupFile,
} from "../../db/backup_file.ts";
import { isPostgresUrl } from "../../db/client.ts";
import { knownMigrations } from "../../db/migrate.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { databasePathOf, exists, postgresBackup } from "./backup.ts";
import { DataLockError, lockForRestore } from "./data_lock.ts";

export type RestoreResult = {
  backup: string;
  info: Record<string, string>;
  /** The database file, or (PostgreSQL) the database's name. */
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
  config: Pick<Config, "dataDir" | "mediaDir" | "databaseUrl">,
  backupPath: string,
  clock: Clock,
): Promise<RestoreResult> {
  if (isPostgresUrl(config.databaseUrl)) {
    return await restorePostgresBackup(config, backupPath, clock);
  }
  let lock: Deno.FsFile;
  try {
    lock = await lockForRestore(config);
  } catch (error) {
    if (error instanceof DataLockError) throw new RestoreError(error.message);
    throw error;
  }
  try {
    const database = databasePathOf(config)!;
    const info = checkedInfo(backupPath, "sqlite");
    const media = config.mediaDir;
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

/** The backup's info once the file is checked: sound, ours, a schema we know, this engine's. */
function checkedInfo(backupPath: string, engine: "sqlite" | "postgres"): Record<string, string> {
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
  const from = info.engine === "postgres" ? "postgres" : "sqlite";
  if (from !== engine) {
    throw new RestoreError(
      from === "postgres"
        ? "this is a PostgreSQL installation's backup: restore it with DATABASE_URL set to a PostgreSQL database"
        : "this is a libSQL installation's backup: restore it into a libSQL file (DATABASE_URL unset), then copy it with migrate-db",
    );
  }
  return info;
}

/**
 * The PostgreSQL drill (issue 46): the same checks of the file, then pg_restore into a new
 * database that takes the live one's name; the live database is kept aside under
 * `<name>_before_restore_<time>`, the media folder as on libSQL. Refused while a server is
 * connected (db/postgres_backup.ts); nothing is changed until pg_restore has finished.
 */
async function restorePostgresBackup(
  config: Pick<Config, "dataDir" | "mediaDir" | "databaseUrl">,
  backupPath: string,
  clock: Clock,
): Promise<RestoreResult> {
  const info = checkedInfo(backupPath, "postgres");
  const tools = await postgresBackup();
  const media = config.mediaDir;
  const stagedMedia = `${media}.restoring`;
  const work = await Deno.makeTempDir({ prefix: "balcao-restore-" });
  const dump = `${work}/backup.dump`;
  const stamp = clock.now().toISOString().replace(/[:.]/g, "-");
  try {
    await Deno.remove(stagedMedia, { recursive: true }).catch(() => {});
    try {
      extractDumpBackupFile(backupPath, dump, stagedMedia);
    } catch (error) {
      throw new RestoreError(`the backup could not be unpacked: ${String(error)}`, {
        cause: error,
      });
    }
    let keptDatabase: string | undefined;
    try {
      // PostgreSQL folds names to lower case: the stamp goes in as lower-case letters.
      keptDatabase = await tools.restorePostgres(
        config.databaseUrl,
        dump,
        `before_restore_${stamp.toLowerCase().replaceAll("-", "_")}`,
      );
    } catch (error) {
      if (error instanceof tools.PostgresBackupError) {
        throw new RestoreError(error.message, { cause: error });
      }
      throw error;
    }
    const keptAside = keptDatabase ? [keptDatabase] : [];
    if (await exists(media)) {
      await Deno.rename(media, `${media}.before-restore-${stamp}`);
      keptAside.push(`${media}.before-restore-${stamp}`);
    }
    await Deno.rename(stagedMedia, media);
    return {
      backup: backupPath,
      info,
      database: decodeURIComponent(new URL(config.databaseUrl).pathname.slice(1)),
      keptAside,
    };
  } finally {
    await Deno.remove(stagedMedia, { recursive: true }).catch(() => {});
    await Deno.remove(work, { recursive: true }).catch(() => {});
  }
}
