import { writeBackupFile, writeDumpBackupFile } from "../../db/backup_file.ts";
import { isPostgresUrl } from "../../db/client.ts";
import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import { AppError } from "../errors.ts";
import { log } from "../log.ts";
import { diskSpace } from "../storage/health.ts";
import { APP_VERSION } from "./version.ts";

export type BackupConfig = Pick<
  Config,
  "dataDir" | "mediaDir" | "databaseUrl" | "backupDir" | "backupKeep"
>;

export type BackupView = { name: string; size: number; createdAt: string };
export type BackupResult = BackupView & {
  integrity: "ok";
  mediaFiles: number;
  mediaBytes: number;
  /** Older backups deleted to keep BACKUP_KEEP. */
  removed: string[];
};

const NAME = /^balcao-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)\.db$/;

/** The database file of a `file:` URL; undefined for a libSQL server (it has its own backups). */
export function databasePathOf(config: Pick<Config, "databaseUrl">): string | undefined {
  const url = config.databaseUrl;
  if (!url.startsWith("file:")) return undefined;
  const path = url.slice("file:".length);
  return path === ":memory:" ? undefined : path;
}

/**
 * db/postgres_backup.ts (and `pg`) by a computed URL: a libSQL installation loads nothing of
 * PostgreSQL (tests/pages/startup_imports_test.ts).
 */
const POSTGRES_BACKUP = new URL("../../db/postgres_backup.ts", import.meta.url).href;

/** PostgreSQL's backup tools, for a PostgreSQL DATABASE_URL (restore.ts too). */
export async function postgresBackup(): Promise<typeof import("../../db/postgres_backup.ts")> {
  return await import(POSTGRES_BACKUP);
}

/** The backups in BACKUP_DIR, newest first, with their size. */
export async function listBackups(config: BackupConfig): Promise<BackupView[]> {
  const found: BackupView[] = [];
  try {
    for await (const entry of Deno.readDir(config.backupDir)) {
      const match = NAME.exec(entry.name);
      if (!entry.isFile || !match) continue;
      const { size } = await Deno.stat(`${config.backupDir}/${entry.name}`);
      found.push({ name: entry.name, size, createdAt: isoOfStamp(match[1]) });
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return found.sort((a, b) => b.name.localeCompare(a.name));
}

/**
 * Takes a verified backup now (seeds nothing, changes nothing in the live database): VACUUM INTO
 * a hidden `.partial` file (on PostgreSQL: pg_dump's archive put inside it), the media added,
 * PRAGMA integrity_check, then renamed to its final name, so a file named `balcao-*.db` is always
 * complete. Its name is the time to the
 * millisecond. Then the oldest beyond BACKUP_KEEP are deleted.
 *
 * `thread`: run the copy on a worker (the server), or on this thread (the CLI task).
 */
export async function takeBackup(
  config: BackupConfig,
  clock: Clock,
  options: { thread: "worker" | "inline" },
): Promise<BackupResult> {
  const result = await writeBackup(config, clock.now(), options.thread);
  if (!result) {
    throw new AppError(409, "ERR_BACKUP_FAILED", "Um backup deste mesmo instante já foi feito");
  }
  return result;
}

/**
 * The backup of a scheduled tick (jobs/backups.ts), named by `moment`: every process on the data
 * folder ticks at the same moments, and only the first to reserve a moment's name takes it; the
 * others get undefined (a tick that runs twice writes one backup).
 */
export async function takeScheduledBackup(
  config: BackupConfig,
  moment: Date,
): Promise<BackupResult | undefined> {
  const result = await writeBackup(config, moment, "worker");
  if (!result) log.info("backup of this moment taken by another tick", { moment });
  return result;
}

/**
 * Writes the backup of `now`, or returns undefined when its name is taken. The `.partial` file is
 * created first with createNew (VACUUM INTO accepts an empty file): that reservation, and the
 * final name checked after it, stop a second tick or process from writing the same backup, or
 * from deleting a partial file that is not its own.
 */
async function writeBackup(
  config: BackupConfig,
  now: Date,
  thread: "worker" | "inline",
): Promise<BackupResult | undefined> {
  const source = databasePathOf(config);
  const postgres = isPostgresUrl(config.databaseUrl) ? await postgresBackup() : undefined;
  if (!source && !postgres) {
    throw new AppError(
      400,
      "ERR_BACKUP_UNAVAILABLE",
      "Backups need a local database file (DATABASE_URL=file:...) or PostgreSQL; a libSQL server keeps its own",
    );
  }
  if (postgres) {
    try {
      postgres.postgresTool("pg_dump");
    } catch (error) {
      throw new AppError(400, "ERR_BACKUP_UNAVAILABLE", (error as Error).message);
    }
  }
  await ensureWritable(config.backupDir);
  const described = postgres ? await postgres.describePostgres(config.databaseUrl) : undefined;
  await assertRoomForBackup(config, described ? described.bytes : await databaseBytes(source!));
  const name = `balcao-${stampOf(now)}.db`;
  const final = `${config.backupDir}/${name}`;
  const partial = `${config.backupDir}/.${name}.partial`;
  if (!await reserve(partial)) return undefined;
  // Reserved after another finished (its rename freed the partial name): the backup exists.
  if (await exists(final)) {
    await Deno.remove(partial);
    return undefined;
  }
  const info = { createdAt: now.toISOString(), version: APP_VERSION };
  let result;
  const dump = `${config.backupDir}/.${name}.dump.partial`;
  try {
    const media = config.mediaDir;
    if (postgres) {
      await postgres.dumpPostgres(config.databaseUrl, dump);
      const withLevel = { ...info, migration: described!.migration };
      result = thread === "worker"
        ? await inWorker({
          sourcePath: dump,
          kind: "dump",
          targetPath: partial,
          mediaDir: media,
          info: withLevel,
        })
        : writeDumpBackupFile(dump, partial, media, withLevel);
    } else {
      result = thread === "worker"
        ? await inWorker({
          sourcePath: source!,
          kind: "sqlite",
          targetPath: partial,
          mediaDir: media,
          info,
        })
        : writeBackupFile(source!, partial, media, info);
    }
    // A backup holds password hashes and the token signing secrets: owner-only.
    await Deno.chmod(partial, 0o600);
    await Deno.rename(partial, final);
    await Deno.remove(dump).catch(() => {});
  } catch (error) {
    await Deno.remove(partial).catch(() => {});
    await Deno.remove(dump).catch(() => {});
    log.error("backup failed", { name, error });
    throw new AppError(500, "ERR_BACKUP_FAILED", "O backup falhou; nada foi gravado", {
      cause: error,
    });
  }
  const { size } = await Deno.stat(final);
  const removed = await prune(config);
  log.info("backup written", { name, size, mediaFiles: result.mediaFiles, removed });
  return {
    name,
    size,
    createdAt: now.toISOString(),
    integrity: "ok",
    mediaFiles: result.mediaFiles,
    mediaBytes: result.mediaBytes,
    removed,
  };
}

/** Creates `path` empty, owner-only; false when it exists already. */
async function reserve(path: string): Promise<boolean> {
  try {
    (await Deno.open(path, { write: true, createNew: true, mode: 0o600 })).close();
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return false;
    throw new AppError(500, "ERR_BACKUP_FAILED", "O backup falhou; nada foi gravado", {
      cause: error,
    });
  }
}

/** Whether anything is at `path` (restore.ts too). */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

/** Creates the folder if needed and proves it takes a file; a clear error otherwise. */
async function ensureWritable(dir: string) {
  const probe = `${dir}/.write-test-${crypto.randomUUID()}`;
  try {
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    await Deno.writeFile(probe, new Uint8Array(), { createNew: true });
    await Deno.remove(probe);
  } catch (error) {
    throw new AppError(
      500,
      "ERR_BACKUP_DIR_NOT_WRITABLE",
      `A pasta de backups não pode ser gravada: ${dir}`,
      { cause: error },
    );
  }
}

async function prune(config: BackupConfig): Promise<string[]> {
  const old = (await listBackups(config)).slice(config.backupKeep);
  for (const backup of old) await Deno.remove(`${config.backupDir}/${backup.name}`);
  return old.map((backup) => backup.name);
}

function inWorker(job: {
  sourcePath: string;
  kind: "sqlite" | "dump";
  targetPath: string;
  mediaDir: string;
  info: Record<string, string>;
}) {
  const worker = new Worker(new URL("../../db/backup_worker.ts", import.meta.url).href, {
    type: "module",
  });
  return new Promise<{ mediaFiles: number; mediaBytes: number }>((resolve, reject) => {
    worker.onmessage = (event) => {
      const reply = event.data as
        | { ok: true; result: { mediaFiles: number; mediaBytes: number } }
        | { ok: false; message: string };
      if (reply.ok) resolve(reply.result);
      else reject(new Error(reply.message));
    };
    worker.onerror = (event) => {
      event.preventDefault();
      reject(new Error(`backup thread failed: ${event.message}`));
    };
    worker.postMessage(job);
  }).finally(() => worker.terminate());
}

/** 2026-11-24T18:30:00.123Z -> 2026-11-24T18-30-00-123Z (a file name, sorted by time). */
function stampOf(date: Date): string {
  return date.toISOString().replace(/[:.]/g, "-");
}

function isoOfStamp(stamp: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z$/.exec(stamp)!;
  return `${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`;
}

/** Kept free beyond a backup's own size: the server must still write after it (issue 34). */
export const BACKUP_MARGIN_BYTES = 64 * 1024 * 1024;

/** A libSQL database's bytes on disk, its WAL included. */
async function databaseBytes(database: string): Promise<number> {
  return await sizeOf(database) + await sizeOf(`${database}-wal`);
}

/**
 * A backup refuses, instead of filling the disk, when the backup folder's free space is under what
 * it will write (the database: `databaseBytes`, the media it copies) plus BACKUP_MARGIN_BYTES.
 */
async function assertRoomForBackup(config: BackupConfig, databaseBytes: number) {
  let needed = BACKUP_MARGIN_BYTES + databaseBytes;
  needed += await folderSize(config.mediaDir);
  const { free } = await diskSpace(config.backupDir);
  if (free >= needed) return;
  const mb = (bytes: number) => Math.ceil(bytes / 1024 / 1024);
  log.warn("backup refused: not enough free space", { needed, free, dir: config.backupDir });
  throw new AppError(
    507,
    "ERR_STORAGE_FULL",
    `Espaço livre insuficiente para o backup: são necessários ${mb(needed)} MB e há ${
      mb(free)
    } MB livres em ${config.backupDir}`,
  );
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await Deno.stat(path)).size;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return 0;
    throw error;
  }
}

async function folderSize(dir: string): Promise<number> {
  let total = 0;
  try {
    for await (const entry of Deno.readDir(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) total += await folderSize(path);
      else if (entry.isFile) total += await sizeOf(path);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return total;
}
