/**
 * `balcao doctor` (issue 32): one line per check, ok / warn / fail, and exit 0 when nothing
 * failed — on a healthy install whether the server runs or not. Reads only (the schema check
 * creates the empty bookkeeping table a first start would create anyway).
 */
import { type Config, ConfigError, loadConfig } from "../server/config.ts";
import { databasePathOf, exists } from "../server/ops/backup.ts";
import { APP_VERSION } from "../server/ops/version.ts";
import {
  appliedMigrations,
  hasMigrationTable,
  quickCheck,
  sqliteVersion,
} from "../server/ops/repository.ts";
import { isPostgresUrl, openDatabase } from "../db/client.ts";
import type { PostgresFacts } from "../db/postgres.ts";
import { redactedUrl } from "../server/ops/migrate_db.ts";
import { assertKnownSchema, knownMigrations, SchemaTooNewError } from "../db/migrate.ts";

type Level = "ok" | "warn" | "fail";
export type Check = { name: string; level: Level; detail: string };

/** The oldest PostgreSQL the app supports (issue 46: PostgreSQL 15 or newer). */
const POSTGRES_MIN = 150000;

/** The engine and extension lines for a PostgreSQL server's facts. */
export function postgresChecks(facts: PostgresFacts): Check[] {
  const engine: Check = facts.versionNum >= POSTGRES_MIN
    ? { name: "engine", level: "ok", detail: `PostgreSQL ${facts.version} (15 or newer)` }
    : {
      name: "engine",
      level: "fail",
      detail: `PostgreSQL ${facts.version}: Balcão needs PostgreSQL 15 or newer`,
    };
  const missing = facts.extensions.filter((e) => !e.available).map((e) => e.name);
  const toCreate = facts.extensions.filter((e) => e.available && !e.installed).map((e) => e.name);
  const all = facts.extensions.map((e) => e.name).join(", ");
  const extensions: Check = missing.length > 0
    ? {
      name: "extensions",
      level: "fail",
      detail: `${missing.join(", ")} not available on the server: install postgresql-contrib`,
    }
    : toCreate.length > 0
    ? {
      name: "extensions",
      level: "warn",
      detail: `${toCreate.join(", ")} made at the next start (its user must be allowed to ` +
        `CREATE EXTENSION)`,
    }
    : { name: "extensions", level: "ok", detail: `${all} installed` };
  return [engine, extensions];
}

/** db/postgres.ts by a computed URL, as db/client.ts: a libSQL doctor loads nothing of `pg`. */
const POSTGRES_MODULE = new URL("../db/postgres.ts", import.meta.url).href;

/** db/postgres_backup.ts by a computed URL too: whether backups will find pg_dump/pg_restore. */
const POSTGRES_BACKUP_MODULE = new URL("../db/postgres_backup.ts", import.meta.url).href;

/** `fallback`: where to look beside PATH (Debian's folders; a test gives none). */
export async function backupToolsCheck(fallback?: string[]): Promise<Check> {
  const tools: typeof import("../db/postgres_backup.ts") = await import(POSTGRES_BACKUP_MODULE);
  try {
    const found = [
      tools.postgresTool("pg_dump", fallback),
      tools.postgresTool("pg_restore", fallback),
    ];
    return { name: "backup tools", level: "ok", detail: found.join(", ") };
  } catch (error) {
    return {
      name: "backup tools",
      level: "warn",
      detail: `${(error as Error).message}: backups and restores will be refused`,
    };
  }
}

async function postgresEngine(c: Config): Promise<Check[]> {
  const postgres: typeof import("../db/postgres.ts") = await import(POSTGRES_MODULE);
  try {
    return postgresChecks(await postgres.inspectPostgres(c.databaseUrl));
  } catch (error) {
    return [{
      name: "engine",
      level: "fail",
      detail: `PostgreSQL at ${redactedUrl(c.databaseUrl)} does not answer: ${
        (error as Error).message
      }`,
    }];
  }
}

const MiB = 1024 * 1024;

async function dataFolder(c: Config): Promise<Check> {
  const name = "data folder";
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(c.dataDir);
  } catch {
    return { name, level: "warn", detail: `${c.dataDir} does not exist yet (made at start)` };
  }
  const probe = `${c.dataDir}/.doctor-${crypto.randomUUID()}`;
  try {
    await Deno.writeTextFile(probe, "");
    await Deno.remove(probe);
  } catch (error) {
    return { name, level: "fail", detail: `${c.dataDir} is not writable: ${error}` };
  }
  const mode = (info.mode ?? 0) & 0o777;
  if (mode & 0o077) {
    return {
      name,
      level: "warn",
      detail: `${c.dataDir} is readable by others (mode ${mode.toString(8)}; 700 expected)`,
    };
  }
  return { name, level: "ok", detail: `${c.dataDir} (mode 700, writable)` };
}

async function database(c: Config): Promise<Check[]> {
  if (isPostgresUrl(c.databaseUrl)) {
    const engine = [...await postgresEngine(c), await backupToolsCheck()];
    // Opening prepares the extensions: only once the server can take them.
    if (engine.some((check) => check.level === "fail")) return engine;
    if (engine.some((check) => check.level === "warn")) {
      return [...engine, {
        name: "database",
        level: "warn",
        detail: "not prepared yet (the first start prepares and migrates it)",
      }];
    }
    return [...engine, ...await openedDatabase(c)];
  }
  const path = databasePathOf(c);
  if (path && !await exists(path)) {
    return [{ name: "database", level: "warn", detail: "none yet (made at the first start)" }];
  }
  return await openedDatabase(c);
}

async function openedDatabase(c: Config): Promise<Check[]> {
  const db = await openDatabase(c.databaseUrl, c.databaseAuthToken);
  try {
    const answer = await quickCheck(db);
    const checks: Check[] = isPostgresUrl(c.databaseUrl) ? [] : [{
      name: "engine",
      level: "ok",
      detail: `libSQL (SQLite ${await sqliteVersion(db)})`,
    }];
    checks.push({
      name: "database",
      level: answer === "ok" ? "ok" : "fail",
      detail: answer === "ok" ? "integrity ok" : `integrity: ${answer}`,
    });
    try {
      await assertKnownSchema(db, APP_VERSION);
      const done = new Set(await hasMigrationTable(db) ? await appliedMigrations(db) : []);
      const pending = knownMigrations().filter((m) => !done.has(m));
      checks.push(
        pending.length
          ? {
            name: "schema",
            level: "warn",
            detail: `${pending.length} migration(s) apply at the next start`,
          }
          : { name: "schema", level: "ok", detail: `up to date (${knownMigrations().at(-1)})` },
      );
    } catch (error) {
      if (!(error instanceof SchemaTooNewError)) throw error;
      checks.push({ name: "schema", level: "fail", detail: error.message });
    }
    return checks;
  } finally {
    await db.destroy();
  }
}

async function freeDisk(c: Config): Promise<Check> {
  let dir = c.dataDir;
  while (!await exists(dir) && dir.includes("/")) dir = dir.slice(0, dir.lastIndexOf("/")) || "/";
  const out = await new Deno.Command("df", { args: ["-Pk", dir], stdout: "piped", stderr: "null" })
    .output().catch(() => undefined);
  const line = out?.success ? new TextDecoder().decode(out.stdout).trim().split("\n").at(-1) : "";
  const availableKb = Number(line?.split(/\s+/)[3]);
  if (!Number.isFinite(availableKb)) {
    return { name: "disk", level: "warn", detail: "df did not answer" };
  }
  const free = availableKb * 1024;
  const text = `${Math.round(free / MiB)} MiB free on ${dir}`;
  if (free < 100 * MiB) return { name: "disk", level: "fail", detail: text };
  if (free < 1024 * MiB) return { name: "disk", level: "warn", detail: text };
  return { name: "disk", level: "ok", detail: text };
}

async function port(c: Config): Promise<Check> {
  const url = `http://127.0.0.1:${c.port}/healthz`;
  try {
    const answer = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await answer.body?.cancel();
    return answer.ok
      ? { name: "port", level: "ok", detail: `${c.port}: the server runs and /healthz answers` }
      : { name: "port", level: "warn", detail: `${c.port}: /healthz answered ${answer.status}` };
  } catch {
    // Nothing answers: free (the server is stopped) or held by another program.
  }
  try {
    Deno.listen({ port: c.port, hostname: "127.0.0.1" }).close();
    return { name: "port", level: "ok", detail: `${c.port} is free (the server is not running)` };
  } catch (error) {
    return {
      name: "port",
      level: "fail",
      detail: `${c.port} is held by another program: ${error}`,
    };
  }
}

async function clock(): Promise<Check> {
  // The release's own files were written when it was built: a clock before that is wrong.
  const built = (await Deno.stat(new URL("../deno.json", import.meta.url))).mtime;
  const now = new Date();
  if (built && now.getTime() < built.getTime() - 60_000) {
    return {
      name: "clock",
      level: "fail",
      detail: `${now.toISOString()} is before this release was built (${built.toISOString()})`,
    };
  }
  return { name: "clock", level: "ok", detail: `${now.toISOString()} (UTC)` };
}

export async function doctor(env: Record<string, string>, say: (line: string) => void) {
  const checks: Check[] = [];
  let c: Config | undefined;
  try {
    c = loadConfig(env);
    checks.push({ name: "config", level: "ok", detail: "valid" });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    checks.push({ name: "config", level: "fail", detail: error.message });
  }
  if (c) checks.push(await dataFolder(c), ...await database(c), await freeDisk(c), await port(c));
  checks.push(await clock());
  for (const check of checks) say(`${check.level.padEnd(4)} ${check.name}: ${check.detail}`);
  return checks.some((check) => check.level === "fail") ? 1 : 0;
}
