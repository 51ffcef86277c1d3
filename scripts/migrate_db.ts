/**
 * `deno task migrate-db -- --to <postgres url> [--batch N] [--sample N]` in a checkout;
 * `balcao migrate-db --to <url>` in a release (scripts/cli.ts). Copies the libSQL database of
 * DATA_DIR / DATABASE_URL (server stopped) into an empty PostgreSQL database, verifies it and
 * prints what to change. A rerun after a kill goes on where the copy stopped.
 * Exit 0 on success, 1 on a refusal or a difference, 2 on a usage error.
 */
import { ConfigError, loadConfig } from "../server/config.ts";
import { APP_VERSION } from "../server/ops/version.ts";
import { CopyRefused, migrateDatabase } from "../server/ops/migrate_db.ts";
import { DataLockError } from "../server/ops/data_lock.ts";
import { SchemaTooNewError } from "../db/migrate.ts";

// deno-lint-ignore no-console
const say = (line: string) => console.log(line);
// deno-lint-ignore no-console
const complain = (line: string) => console.error(line);

export const MIGRATE_DB_USAGE =
  "usage: balcao migrate-db --to <postgres url> [--batch N] [--sample N]";

type Args = { to: string; batch: number; sample: number };

export function parseMigrateDbArgs(argv: string[]): Args | string {
  const args = argv.filter((a) => a !== "--");
  let to: string | undefined;
  let batch = 1000;
  let sample = 20;
  for (let i = 0; i < args.length; i++) {
    const [flag, inline] = args[i].split(/=(.*)/s, 2);
    const value = inline ?? args[++i];
    if (!["--to", "--batch", "--sample"].includes(flag)) return `unknown argument ${args[i]}`;
    if (value === undefined) return `${flag} needs a value`;
    if (flag === "--to") to = value;
    else if (!/^[1-9]\d*$/.test(value)) return `${flag} takes a positive number, not ${value}`;
    else if (flag === "--batch") batch = Number(value);
    else sample = Number(value);
  }
  if (!to) return "--to <postgres url> is required";
  return { to, batch, sample };
}

export async function migrateDb(argv: string[]): Promise<number> {
  const args = parseMigrateDbArgs(argv);
  if (typeof args === "string") {
    complain(`${args}\n${MIGRATE_DB_USAGE}`);
    return 2;
  }
  try {
    const config = loadConfig(Deno.env.toObject());
    let shown = "";
    return await migrateDatabase(config, {
      ...args,
      appVersion: APP_VERSION,
      say,
      progress: (table, copied, total) => {
        const line = `${table}: ${copied}/${total}`;
        if (line === shown) return;
        shown = line;
        complain(line);
      },
    });
  } catch (error) {
    if (
      error instanceof CopyRefused || error instanceof ConfigError ||
      error instanceof DataLockError || error instanceof SchemaTooNewError
    ) {
      complain(`migrate-db refused: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

if (import.meta.main) Deno.exit(await migrateDb(Deno.args));
