/**
 * `balcao doctor` (issue 32): one line per check, ok / warn / fail, and exit 0 when nothing
 * failed — on a healthy install whether the server runs or not. Reads only (the schema check
 * creates the empty bookkeeping table a first start would create anyway).
 */
import { type Config, ConfigError, loadConfig } from "../server/config.ts";
import { databasePathOf, exists } from "../server/ops/backup.ts";
import { APP_VERSION } from "../server/ops/version.ts";
import { appliedMigrations, hasMigrationTable, quickCheck } from "../server/ops/repository.ts";
import { openDatabase } from "../db/client.ts";
import { assertKnownSchema, knownMigrations, SchemaTooNewError } from "../db/migrate.ts";

type Level = "ok" | "warn" | "fail";
type Check = { name: string; level: Level; detail: string };

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
  const path = databasePathOf(c);
  if (path && !await exists(path)) {
    return [{ name: "database", level: "warn", detail: "none yet (made at the first start)" }];
  }
  const db = await openDatabase(c.databaseUrl, c.databaseAuthToken);
  try {
    const answer = await quickCheck(db);
    const checks: Check[] = [{
      name: "database",
      level: answer === "ok" ? "ok" : "fail",
      detail: answer === "ok" ? "integrity ok" : `integrity: ${answer}`,
    }];
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
