import pg from "pg";

/**
 * Backups of a PostgreSQL installation (issue 46 item 4): `pg_dump` (custom format) for the
 * backup, `pg_restore` into a fresh database for the restore, which then takes the live one's name
 * while the live one is kept aside under another. PostgreSQL's own tools, so the archive inside a
 * backup is one an operator can also hand to `pg_restore` directly (README 'Backups').
 *
 * Loaded only for a PostgreSQL URL (server/ops/backup.ts imports it by a computed URL).
 */

export class PostgresBackupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PostgresBackupError";
  }
}

/** Debian's server folders, newest first: pg_dump must be at least the server's version. */
const DEBIAN_BINARIES = [17, 16, 15].map((v) => `/usr/lib/postgresql/${v}/bin`);

/** The path of pg_dump or pg_restore: on PATH (Debian's wrapper picks the newest), else Debian's. */
export function postgresTool(
  name: "pg_dump" | "pg_restore",
  fallback: string[] = DEBIAN_BINARIES,
): string {
  const path = (Deno.env.get("PATH") ?? "").split(":").filter(Boolean);
  for (const dir of [...path, ...fallback]) {
    try {
      if (Deno.statSync(`${dir}/${name}`).isFile) return `${dir}/${name}`;
    } catch {
      // not here
    }
  }
  throw new PostgresBackupError(
    `${name} was not found: install PostgreSQL's client tools (Debian: apt-get install postgresql-client)`,
  );
}

async function runTool(name: "pg_dump" | "pg_restore", args: string[]) {
  const out = await new Deno.Command(postgresTool(name), {
    args,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (out.code !== 0) {
    throw new PostgresBackupError(
      `${name} failed (${out.code}): ${new TextDecoder().decode(out.stderr).trim()}`,
    );
  }
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The database's size on disk (to check the backup folder has room), and its schema level. */
export async function describePostgres(
  url: string,
): Promise<{ bytes: number; migration: string }> {
  return await withClient(url, async (client) => {
    const size = await client.query("SELECT pg_database_size(current_database())::text AS bytes");
    let migration = "";
    try {
      const level = await client.query(`SELECT max(name) AS name FROM kysely_migration`);
      migration = level.rows[0]?.name ?? "";
    } catch {
      // not migrated yet
    }
    return { bytes: Number(size.rows[0].bytes), migration };
  });
}

/**
 * pg_dump's custom-format archive of the database at `url` into `target`: one consistent snapshot
 * (a repeatable-read transaction) taken while the server keeps writing. Owners and grants are left
 * out, so it restores under whichever role the restoring installation uses.
 */
export async function dumpPostgres(url: string, target: string): Promise<void> {
  await runTool("pg_dump", [
    "--format=custom",
    "--no-owner",
    "--no-privileges",
    `--file=${target}`,
    `--dbname=${url}`,
  ]);
}

/** The database a URL names, and the URL of the server's maintenance database `postgres`. */
function parts(url: string): { name: string; admin: string; of: (db: string) => string } {
  const parsed = new URL(url);
  const name = decodeURIComponent(parsed.pathname.slice(1));
  if (!name) throw new PostgresBackupError(`the DATABASE_URL names no database: ${url}`);
  const of = (db: string) => {
    const copy = new URL(url);
    copy.pathname = `/${encodeURIComponent(db)}`;
    return copy.toString();
  };
  return { name, admin: of("postgres"), of };
}

const quoted = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

/** PostgreSQL names are at most 63 bytes: a long name is shortened before its suffix. */
function named(base: string, suffix: string): string {
  const room = 63 - new TextEncoder().encode(suffix).length;
  let head = base;
  while (new TextEncoder().encode(head).length > room) head = head.slice(0, -1);
  return head + suffix;
}

/** Sessions on the database other than ours: a running server holds some (db/postgres.ts). */
async function otherSessions(client: pg.Client, database: string): Promise<number> {
  const result = await client.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
    [database],
  );
  return result.rows[0].n;
}

export class PostgresInUseError extends PostgresBackupError {}

/**
 * Restores `dumpPath` as the database of `url`. Refused (PostgresInUseError) while any session is
 * on that database: a Balcão server keeps its connections open while it runs. The archive goes
 * into a new database `<name>_restoring` first; only when pg_restore has finished is the live
 * database renamed to `<name>_<aside>` (kept, not dropped) and the restored one given its name.
 * PostgreSQL refuses the rename while anyone is connected, so a server that started meanwhile
 * stops the swap too. Answers the name the live database was kept under (undefined: there was
 * none).
 */
export async function restorePostgres(
  url: string,
  dumpPath: string,
  aside: string,
): Promise<string | undefined> {
  const { name, admin, of } = parts(url);
  const staging = named(name, "_restoring");
  const keptAs = named(name, `_${aside}`);
  const busy = () =>
    new PostgresInUseError(
      `a Balcão server is running on the PostgreSQL database ${name}: stop it before restoring`,
    );
  return await withClient(admin, async (client) => {
    const exists = (await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]))
      .rowCount! > 0;
    if (exists && await otherSessions(client, name) > 0) throw busy();
    await client.query(`DROP DATABASE IF EXISTS ${quoted(staging)}`);
    await client.query(`CREATE DATABASE ${quoted(staging)}`);
    try {
      await runTool("pg_restore", [
        "--no-owner",
        "--no-privileges",
        "--exit-on-error",
        `--dbname=${of(staging)}`,
        dumpPath,
      ]);
      if (exists) {
        try {
          await client.query(`ALTER DATABASE ${quoted(name)} RENAME TO ${quoted(keptAs)}`);
        } catch (error) {
          // 55006 object_in_use: a server connected while pg_restore ran.
          if ((error as { code?: string }).code === "55006") throw busy();
          throw error;
        }
      }
      await client.query(`ALTER DATABASE ${quoted(staging)} RENAME TO ${quoted(name)}`);
    } catch (error) {
      await client.query(`DROP DATABASE IF EXISTS ${quoted(staging)}`).catch(() => {});
      throw error;
    }
    return exists ? keptAs : undefined;
  });
}
