/**
 * A backup is ONE SQLite file: the database as `VACUUM INTO` wrote it (a consistent snapshot taken
 * inside a read transaction, while the server keeps writing through WAL), plus two tables of our
 * own added to the copy: `_backup_media` (every file under the media folder, as blobs) and
 * `_backup_info` (when, which release, which schema). One file is one thing to verify
 * (`PRAGMA integrity_check` covers the media too), to copy off the machine and to restore.
 * On PostgreSQL the file is the same, with pg_dump's archive inside instead of the tables
 * (writeDumpBackupFile).
 *
 * Synchronous on purpose (libsql's native API): the server calls it on a worker thread
 * (backup_worker.ts), the CLI tasks directly.
 */
import Database from "libsql";

export const BACKUP_FORMAT = "balcao-backup-1";

export type BackupFileResult = {
  integrity: string;
  mediaFiles: number;
  mediaBytes: number;
};

export class BackupFileError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "BackupFileError";
  }
}

/** Every file under `dir`, as paths relative to it (none when it does not exist). */
function filesUnder(dir: string, prefix = ""): string[] {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(prefix ? `${dir}/${prefix}` : dir)];
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  const files: string[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory) files.push(...filesUnder(dir, relative));
    else if (entry.isFile) files.push(relative);
  }
  return files;
}

/**
 * Writes a verified backup of `sourcePath` and `mediaDir` to `targetPath` (which must not exist:
 * VACUUM INTO refuses to overwrite, so two runs never write the same file).
 */
export function writeBackupFile(
  sourcePath: string,
  targetPath: string,
  mediaDir: string,
  info: Record<string, string>,
): BackupFileResult {
  const source = new Database(sourcePath);
  try {
    source.exec("PRAGMA busy_timeout = 5000");
    source.prepare("VACUUM INTO ?").run([targetPath]);
  } finally {
    source.close();
  }
  // The database first, then the media: media files are written once under new names, so a file
  // added meanwhile is an unreferenced extra; only one deleted in between would be missing.
  const copy = new Database(targetPath);
  try {
    // The schema level travels with the copy: restore and the operator can read it.
    const level = copy.prepare("SELECT max(name) FROM kysely_migration").raw(true).get() as
      | unknown[]
      | undefined;
    return addMediaAndInfo(copy, mediaDir, { ...info, migration: String(level?.[0] ?? "") });
  } finally {
    copy.close();
  }
}

/** pg_dump's archive is kept in parts of this size (a blob is at most 1 GB in SQLite). */
const DUMP_PART_BYTES = 16 * 1024 * 1024;

/**
 * A PostgreSQL installation's backup (issue 46): the same one file, with pg_dump's archive in
 * `_backup_dump` (in parts) where a libSQL backup has the tables themselves, and `engine`
 * 'postgres' in its info. `targetPath` is an empty file the caller reserved.
 */
export function writeDumpBackupFile(
  dumpPath: string,
  targetPath: string,
  mediaDir: string,
  info: Record<string, string>,
): BackupFileResult {
  const copy = new Database(targetPath);
  try {
    copy.exec("CREATE TABLE _backup_dump (part INTEGER PRIMARY KEY, data BLOB NOT NULL)");
    const put = copy.prepare("INSERT INTO _backup_dump (part, data) VALUES (?, ?)");
    const file = Deno.openSync(dumpPath, { read: true });
    copy.exec("BEGIN");
    try {
      const buffer = new Uint8Array(DUMP_PART_BYTES);
      for (let part = 0;; part++) {
        let filled = 0;
        while (filled < buffer.length) {
          const n = file.readSync(buffer.subarray(filled));
          if (n === null) break;
          filled += n;
        }
        if (filled === 0) break;
        put.run([part, buffer.slice(0, filled)]);
        if (filled < buffer.length) break;
      }
      copy.exec("COMMIT");
    } finally {
      file.close();
    }
    return addMediaAndInfo(copy, mediaDir, { ...info, engine: "postgres" });
  } finally {
    copy.close();
  }
}

/** Adds `_backup_info` and `_backup_media` to a backup being written, then checks its integrity. */
function addMediaAndInfo(
  copy: Database.Database,
  mediaDir: string,
  info: Record<string, string>,
): BackupFileResult {
  copy.exec(`CREATE TABLE _backup_info (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE _backup_media (path TEXT PRIMARY KEY, size INTEGER NOT NULL, data BLOB NOT NULL);`);
  const putInfo = copy.prepare("INSERT INTO _backup_info (key, value) VALUES (?, ?)");
  const putMedia = copy.prepare("INSERT INTO _backup_media (path, size, data) VALUES (?, ?, ?)");
  let mediaFiles = 0;
  let mediaBytes = 0;
  copy.exec("BEGIN");
  for (const [key, value] of Object.entries({ ...info, format: BACKUP_FORMAT })) {
    putInfo.run([key, value]);
  }
  for (const path of filesUnder(mediaDir)) {
    let data: Uint8Array;
    try {
      data = Deno.readFileSync(`${mediaDir}/${path}`);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) continue; // deleted while we copied
      throw error;
    }
    putMedia.run([path, data.byteLength, data]);
    mediaFiles++;
    mediaBytes += data.byteLength;
  }
  copy.exec("COMMIT");
  const integrity = integrityOf(copy);
  if (integrity !== "ok") throw new BackupFileError(`integrity check failed: ${integrity}`);
  return { integrity, mediaFiles, mediaBytes };
}

function integrityOf(db: Database.Database): string {
  const rows = db.prepare("PRAGMA integrity_check").raw(true).all() as unknown[][];
  return rows.map((row) => String(row[0])).join("; ");
}

/** Checks a backup file: SQLite's integrity check and our marker. Returns its info. */
export function checkBackupFile(path: string): Record<string, string> {
  // libsql ignores the readonly and fileMustExist options: check, then open, then forbid writes.
  let stat: Deno.FileInfo;
  try {
    stat = Deno.statSync(path);
  } catch (error) {
    throw new BackupFileError(`cannot read ${path}`, { cause: error });
  }
  if (!stat.isFile) throw new BackupFileError(`${path} is not a file`);
  let db: Database.Database;
  try {
    db = new Database(path);
    db.exec("PRAGMA query_only = 1");
  } catch (error) {
    throw new BackupFileError(`cannot open ${path} as a database`, { cause: error });
  }
  try {
    let integrity: string;
    try {
      integrity = integrityOf(db);
    } catch (error) {
      throw new BackupFileError(`${path} is not a database`, { cause: error });
    }
    if (integrity !== "ok") throw new BackupFileError(`integrity check failed: ${integrity}`);
    let rows: unknown[][];
    try {
      rows = db.prepare("SELECT key, value FROM _backup_info").raw(true).all() as unknown[][];
    } catch (error) {
      throw new BackupFileError(`${path} is not a Balcão backup`, { cause: error });
    }
    const info = Object.fromEntries(rows.map(([k, v]) => [String(k), String(v)]));
    if (info.format !== BACKUP_FORMAT) {
      throw new BackupFileError(`${path} is not a Balcão backup (format ${info.format})`);
    }
    return info;
  } finally {
    db.close();
  }
}

/**
 * Unpacks a checked backup: the database (without our two tables) to `databasePath` and the media
 * under `mediaDir`. Both targets must not exist yet; the caller swaps them into place.
 */
export function extractBackupFile(backupPath: string, databasePath: string, mediaDir: string) {
  Deno.copyFileSync(backupPath, databasePath);
  Deno.chmodSync(databasePath, 0o600);
  const db = new Database(databasePath);
  try {
    extractMedia(db, mediaDir);
    db.exec("DROP TABLE _backup_media; DROP TABLE _backup_info; VACUUM");
  } finally {
    db.close();
  }
}

/**
 * Unpacks a checked PostgreSQL backup (writeDumpBackupFile): pg_dump's archive to `dumpPath` and
 * the media under `mediaDir` (which must not exist yet).
 */
export function extractDumpBackupFile(backupPath: string, dumpPath: string, mediaDir: string) {
  const db = new Database(backupPath);
  try {
    db.exec("PRAGMA query_only = 1");
    const file = Deno.openSync(dumpPath, { write: true, createNew: true, mode: 0o600 });
    try {
      const parts = db.prepare("SELECT data FROM _backup_dump ORDER BY part").iterate();
      for (const row of parts as Iterable<{ data: Uint8Array }>) {
        const data = new Uint8Array(row.data);
        for (let written = 0; written < data.length;) {
          written += file.writeSync(data.subarray(written));
        }
      }
    } finally {
      file.close();
    }
    extractMedia(db, mediaDir);
  } finally {
    db.close();
  }
}

function extractMedia(db: Database.Database, mediaDir: string) {
  // Owner-only, as the server makes them (issue 35).
  Deno.mkdirSync(mediaDir, { recursive: true, mode: 0o700 });
  const rows = db.prepare("SELECT path, data FROM _backup_media ORDER BY path").iterate();
  for (const row of rows as Iterable<{ path: string; data: Uint8Array }>) {
    // Paths came from our own walk of the media folder; refuse anything that climbs out.
    if (row.path.split("/").some((part) => part === ".." || part === "") || row.path[0] === "/") {
      throw new BackupFileError(`unsafe media path in backup: ${row.path}`);
    }
    const target = `${mediaDir}/${row.path}`;
    Deno.mkdirSync(target.slice(0, target.lastIndexOf("/")), { recursive: true, mode: 0o700 });
    Deno.writeFileSync(target, new Uint8Array(row.data), { mode: 0o600 });
  }
}
