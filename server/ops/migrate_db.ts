import type { Config } from "../config.ts";
import { isPostgresUrl, openDatabase } from "../../db/client.ts";
import { migrateToLatest } from "../../db/migrate.ts";
import {
  claimTarget,
  continueSequences,
  CopyRefused,
  copyTables,
  markFinished,
  sourceIdentity,
  tablesToCopy,
  verifyCopy,
} from "../../db/copy_database.ts";
import { databasePathOf } from "./backup.ts";
import { lockForRestore } from "./data_lock.ts";

/**
 * `balcao migrate-db --to postgres://…` (issue 46): moves a stopped installation's libSQL
 * database into an empty PostgreSQL database. The source is only read (migrated first if this
 * release has migrations it has not run, as a start would); the server's lock is held the whole
 * time so no server starts on it meanwhile. Afterwards the same DATA_DIR (media, WhatsApp
 * sessions, keys) with DATABASE_URL set to the new URL is the whole change.
 */
export type MigrateDbOptions = {
  to: string;
  /** Rows per batch (one PostgreSQL transaction each). */
  batch: number;
  /** Rows compared per table after the copy. */
  sample: number;
  appVersion: string;
  say: (line: string) => void;
  progress?: (table: string, copied: number, total: number) => void;
};

export { CopyRefused };

/** A URL with its password hidden, for printing. */
export function redactedUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return url;
  }
}

/** Exit code: 0 copied and verified, 1 a difference found. Refusals throw CopyRefused. */
export async function migrateDatabase(config: Config, options: MigrateDbOptions): Promise<number> {
  const { say } = options;
  if (!isPostgresUrl(options.to)) {
    throw new CopyRefused(`--to must be a postgres:// or postgresql:// URL, not ${options.to}`);
  }
  if (isPostgresUrl(config.databaseUrl)) {
    throw new CopyRefused("DATABASE_URL is already a PostgreSQL database: nothing to move");
  }
  const path = databasePathOf(config);
  if (!path) {
    throw new CopyRefused(`migrate-db copies a local libSQL file (DATABASE_URL=file:...)`);
  }
  try {
    await Deno.stat(path);
  } catch {
    throw new CopyRefused(`there is no database at ${path} (check DATA_DIR / DATABASE_URL)`);
  }
  const lock = await lockForRestore(config, { command: "migrate-db", verb: "moving its database" });
  try {
    const source = await openDatabase(config.databaseUrl, config.databaseAuthToken);
    try {
      const pending = await migrateToLatest(source, options.appVersion);
      if (pending.length > 0) say(`source: applied ${pending.length} pending migrations first`);
      const target = await openDatabase(options.to);
      try {
        await migrateToLatest(target, options.appVersion);
        const tables = await tablesToCopy(source, target);
        const identity = await sourceIdentity(source);
        const claim = await claimTarget(target, tables, identity);
        if (claim === "finished") {
          // A server may have run on the copy since: comparing again would only see its work.
          say(
            `${
              redactedUrl(options.to)
            } already holds the finished copy of ${path}: nothing done. ` +
              `Changes made to ${path} after that copy are not in it; to copy again, use an ` +
              `empty database.`,
          );
          return 0;
        }
        say(
          `${claim === "resumed" ? "resuming the copy" : "copying"} ${path} -> ${
            redactedUrl(options.to)
          } (${tables.length} tables, batches of ${options.batch})`,
        );
        const rows = await copyTables(source, target, tables, identity, {
          batch: options.batch,
          progress: options.progress,
        });
        await continueSequences(source, target);
        say(`copied ${rows} rows in this run`);
        const check = await verifyCopy(source, target, tables, options.sample);
        for (const difference of check.differences) say(`DIFFERENCE ${difference}`);
        if (check.differences.length > 0) {
          say(`verify: ${check.differences.length} differences; the copy is not usable as is`);
          return 1;
        }
        await markFinished(target);
        say(
          `verify: ${check.tables} tables, ${check.rows} rows: counts equal, ` +
            `${check.sampled} sampled rows equal`,
        );
        say("");
        say("Done. Stay stopped, then change the server's environment to:");
        say(`  DATABASE_URL=${redactedUrl(options.to)}`);
        say(
          `  DATA_DIR=${config.dataDir}   (unchanged: media, WhatsApp sessions and keys stay there)`,
        );
        say("and start it. Backups then use pg_dump (see README, 'Backups').");
        say(`${path} was left as it was: keep it until the new setup has proven itself.`);
        return 0;
      } finally {
        await target.destroy();
      }
    } finally {
      await source.destroy();
    }
  } finally {
    lock.close();
  }
}
