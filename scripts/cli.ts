/**
 * The operator's commands of a release (`bin/balcao <command>`, issue 32), also reachable from a
 * checkout (`deno run -A scripts/cli.ts <command>`; `deno task backup` / `restore` call it).
 * Each command prints what it did (JSON where a script reads it) and exits 0 on success, 1 on a
 * refusal with one clear line, 2 on a usage error. `upgrade` and `rollback` live in upgrade.ts.
 */
import { systemClock } from "../server/clock.ts";
import { type Config, ConfigError, loadConfig } from "../server/config.ts";
import { AppError } from "../server/errors.ts";
import { databasePathOf, exists, takeBackup } from "../server/ops/backup.ts";
import { restoreBackup, RestoreError } from "../server/ops/restore.ts";
import { APP_VERSION } from "../server/ops/version.ts";
import { openDatabase } from "../db/client.ts";
import { knownMigrations, migrateToLatest, SchemaTooNewError } from "../db/migrate.ts";
import { appliedMigrations, hasMigrationTable } from "../server/ops/repository.ts";
import { doctor } from "./doctor.ts";
import { rollback, upgrade } from "./upgrade.ts";

// deno-lint-ignore no-console
const say = (line: string) => console.log(line);
// deno-lint-ignore no-console
const complain = (line: string) => console.error(line);

const HELP: Record<string, string> = {
  start: "start                 serve (PORT, DATA_DIR, ADMIN_EMAIL, ADMIN_PASSWORD, PUBLIC_URL...)",
  migrate: "migrate               apply this release's pending migrations (one transaction)",
  backup: "backup                an online backup of the database and media into BACKUP_DIR",
  restore: "restore <file>        bring a backup back (refused while the server runs)",
  version:
    "version               the release, the schema (this release's and the database's), the runtime",
  doctor:
    "doctor                check config, data folder, database, disk, port, clock (ok/warn/fail)",
  upgrade:
    "upgrade <archive>     install a release archive: backup, switch, migrate, start, or roll back",
  rollback: "rollback              go back to the release before the last upgrade, with its backup",
  "migrate-db":
    "migrate-db --to <postgres url> [--batch N] [--sample N]\n                        copy this installation's libSQL database into an empty PostgreSQL one (server stopped)",
  import:
    "import whaticket --from <postgres url> [--media <dir>] [--company ID|all] [--dry-run] [--verify]\n                        bring a Whaticket / ticketz database over (server stopped)",
};

export function usage(command?: string): string {
  if (command && HELP[command]) return `usage: balcao ${HELP[command]}`;
  return ["usage: balcao <command> [--help]", "", ...Object.values(HELP).map((l) => `  ${l}`)]
    .join("\n");
}

function config(): Config {
  return loadConfig(Deno.env.toObject());
}

/** The newest migration the database has run, or null when there is no database yet. */
async function databaseSchema(c: Config): Promise<string | null> {
  const path = databasePathOf(c);
  if (path && !await exists(path)) return null;
  const db = await openDatabase(c.databaseUrl, c.databaseAuthToken);
  try {
    return await hasMigrationTable(db) ? (await appliedMigrations(db)).at(-1) ?? null : null;
  } finally {
    await db.destroy();
  }
}

const COMMANDS: Record<string, (args: string[]) => Promise<number>> = {
  version: async () => {
    say(`balcao ${APP_VERSION}`);
    say(`schema ${knownMigrations().at(-1)}`);
    let database = "unknown (no configuration)";
    try {
      database = (await databaseSchema(config())) ?? "none yet";
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
    }
    say(`database ${database}`);
    say(`runtime deno ${Deno.version.deno}`);
    return 0;
  },
  migrate: async () => {
    const c = config();
    const db = await openDatabase(c.databaseUrl, c.databaseAuthToken);
    try {
      const applied = await migrateToLatest(db, APP_VERSION);
      say(JSON.stringify({ applied }));
      return 0;
    } finally {
      await db.destroy();
    }
  },
  backup: async () => {
    say(JSON.stringify(await takeBackup(config(), systemClock, { thread: "inline" })));
    return 0;
  },
  restore: async ([file]) => {
    if (!file) {
      complain(usage("restore"));
      return 2;
    }
    say(JSON.stringify(await restoreBackup(config(), file, systemClock)));
    return 0;
  },
  doctor: async () => await doctor(Deno.env.toObject(), say),
  upgrade: async ([archive]) => {
    if (!archive) {
      complain(usage("upgrade"));
      return 2;
    }
    return await upgrade(archive, say);
  },
  rollback: async () => await rollback(say),
  "migrate-db": async (rest) => await (await import("./migrate_db.ts")).migrateDb(rest),
  // Loaded only for this command: the PostgreSQL client is nobody else's business.
  import: async ([what, ...rest]) => {
    if (what !== "whaticket") {
      complain(usage("import"));
      return 2;
    }
    return await (await import("./import_whaticket.ts")).importWhaticket(rest);
  },
};

/** Runs one command; the exit code. Refusals are one line on stderr, not a stack. */
export async function runCommand(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (!command || command === "help" || command === "--help" || command === "-h") {
    say(usage());
    return command ? 0 : 2;
  }
  const run = COMMANDS[command];
  if (!run) {
    complain(`balcao: unknown command '${command}'\n${usage()}`);
    return 2;
  }
  if (rest.includes("--help") || rest.includes("-h")) {
    say(usage(command));
    return 0;
  }
  try {
    return await run(rest);
  } catch (error) {
    if (error instanceof AppError) complain(`${command} refused: ${error.code}: ${error.message}`);
    else if (
      error instanceof ConfigError || error instanceof RestoreError ||
      error instanceof SchemaTooNewError
    ) complain(`${command} refused: ${error.message}`);
    else throw error;
    return 1;
  }
}

if (import.meta.main) Deno.exit(await runCommand(Deno.args));
