/**
 * `deno task import:whaticket -- --from <postgres url> [--media <dir>] [--company ID|all]
 * [--dry-run] [--verify]` in a checkout; `balcao import whaticket ...` in a release (scripts/cli.ts).
 * Imports a Whaticket SaaS, whaticket-community or ticketz database into the database of
 * DATA_DIR / DATABASE_URL (server stopped; a never-started data folder is migrated first).
 * Exit 0 on success, 1 on a refusal or a --verify difference, 2 on a usage error.
 */
import { systemClock } from "../server/clock.ts";
import { ConfigError, loadConfig } from "../server/config.ts";
import { openDatabase } from "../db/client.ts";
import { migrateToLatest } from "../db/migrate.ts";
import { APP_VERSION } from "../server/ops/version.ts";
import { seedFirstStart } from "../server/seed.ts";
import { progressTo } from "../server/importer/progress.ts";
import { ImportRefused, runImport, summaryLines } from "../server/importer/service.ts";
import { verifyImport } from "../server/importer/verify.ts";
import { SourceError } from "../server/importer/source.ts";

// deno-lint-ignore no-console
const say = (line: string) => console.log(line);
// deno-lint-ignore no-console
const complain = (line: string) => console.error(line);

export const IMPORT_USAGE =
  "usage: balcao import whaticket --from <postgres url> [--media <dir>] [--company ID|all] [--dry-run] [--verify]";

type Args = {
  from?: string;
  media?: string;
  company: number | "all";
  dryRun: boolean;
  verify: boolean;
};

export function parseImportArgs(argv: string[]): Args | string {
  const args = argv.filter((a) => a !== "--");
  const out: Args = { company: "all", dryRun: false, verify: false };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = () => {
      const [flag, inline] = a.split(/=(.*)/s, 2);
      if (inline !== undefined) return inline;
      const next = args[++i];
      if (next === undefined) throw new Error(`${flag} needs a value`);
      return next;
    };
    try {
      if (a === "--from" || a.startsWith("--from=")) out.from = value();
      else if (a === "--media" || a.startsWith("--media=")) out.media = value();
      else if (a === "--company" || a.startsWith("--company=")) {
        const v = value();
        if (v === "all") out.company = "all";
        else if (/^\d+$/.test(v)) out.company = Number(v);
        else return `--company takes a source company id or all, not ${v}`;
      } else if (a === "--dry-run") out.dryRun = true;
      else if (a === "--verify") out.verify = true;
      else return `unknown argument ${a}`;
    } catch (error) {
      return (error as Error).message;
    }
  }
  if (!out.from) return "--from <postgres url> is required";
  return out;
}

export async function importWhaticket(argv: string[]): Promise<number> {
  const args = parseImportArgs(argv);
  if (typeof args === "string") {
    complain(`${args}\n${IMPORT_USAGE}`);
    return 2;
  }
  let config;
  try {
    config = loadConfig(Deno.env.toObject());
  } catch (error) {
    if (error instanceof ConfigError) {
      complain(`import refused: ${error.message}`);
      return 1;
    }
    throw error;
  }
  if (args.media) {
    try {
      if (!(await Deno.stat(args.media)).isDirectory) throw new Error();
    } catch {
      complain(`import refused: --media ${args.media} is not a folder`);
      return 1;
    }
  }
  await Deno.mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const db = await openDatabase(config.databaseUrl, config.databaseAuthToken);
  try {
    await migrateToLatest(db, APP_VERSION);
    if (args.verify) {
      const report = await verifyImport(db, args.from!, args.company);
      for (const line of report.lines) say(line);
      return report.differences === 0 ? 0 : 1;
    }
    const result = await runImport(db, {
      from: args.from!,
      media: args.media,
      company: args.company,
      dryRun: args.dryRun,
      mediaConfig: config,
      say,
      // The bench's comparison (tests/bench/whaticket_import_bench.ts): the row triggers' way.
      derivedBy: Deno.env.get("IMPORT_DERIVED_BY") === "rows" ? "rows" : "batch",
      // As the first start would: the platform's company and super admin exist before imports,
      // so an imported company never takes the name the first start wants later.
      prepare: async () => {
        const first = await seedFirstStart(db, config, systemClock);
        if (first.seeded && first.generatedPassword) {
          say(`first start: super admin ${first.email}, password ${first.generatedPassword}`);
        }
      },
      progress: progressTo(
        (text) => Deno.stderr.writeSync(new TextEncoder().encode(text)),
        Deno.stderr.isTerminal(),
      ),
    });
    for (const line of summaryLines(result, args.dryRun)) say(line);
    return 0;
  } catch (error) {
    if (error instanceof SourceError || error instanceof ImportRefused) {
      complain(`import refused: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await db.destroy();
  }
}

if (import.meta.main) Deno.exit(await importWhaticket(Deno.args));
