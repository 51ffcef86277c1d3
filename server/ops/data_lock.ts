import type { Config } from "../config.ts";
import { databasePathOf } from "./backup.ts";

/**
 * A lock file next to a local database (`balcao.db.lock`): every server process holds a SHARED
 * lock on it while it runs (several processes may share one database, see docs/scaling.md), and
 * `deno task restore` needs it EXCLUSIVE. The operating system drops a process's lock when it
 * exits, even killed, so a crashed server never blocks a restore and a live one always does.
 */
function lockPathOf(config: Pick<Config, "databaseUrl">): string | undefined {
  const path = databasePathOf(config);
  return path ? `${path}.lock` : undefined;
}

export class DataLockError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "DataLockError";
  }
}

async function openLockFile(path: string): Promise<Deno.FsFile> {
  const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : ".";
  await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
  return await Deno.open(path, { read: true, write: true, create: true, mode: 0o600 });
}

/** The running server's shared lock; undefined for a remote database. Throws during a restore. */
export async function holdServerLock(
  config: Pick<Config, "databaseUrl">,
): Promise<Deno.FsFile | undefined> {
  const path = lockPathOf(config);
  if (!path) return undefined;
  const file = await openLockFile(path);
  if (!(await file.tryLock(false))) {
    file.close();
    throw new DataLockError(
      `a restore is running on ${databasePathOf(config)}: start again after it`,
    );
  }
  return file;
}

/**
 * The restore's exclusive lock (also `migrate-db`'s: `doing` names the command in the refusal);
 * refuses (DataLockError) while any server holds its lock.
 */
export async function lockForRestore(
  config: Pick<Config, "databaseUrl">,
  doing: { command: string; verb: string } = { command: "restore", verb: "restoring" },
): Promise<Deno.FsFile> {
  const path = lockPathOf(config);
  if (!path) {
    throw new DataLockError(`${doing.command} needs a local database file (DATABASE_URL=file:...)`);
  }
  const file = await openLockFile(path);
  if (!(await file.tryLock(true))) {
    file.close();
    throw new DataLockError(
      `a Balcão server is running on ${databasePathOf(config)}: stop it before ${doing.verb}`,
    );
  }
  return file;
}
