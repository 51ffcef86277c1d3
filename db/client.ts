import { Kysely, sql } from "kysely";
import { DatabaseThread, LibsqlThreadDialect, type StatementObserver } from "./dialect.ts";
import type { DB } from "./schema.ts";
import { TenancyBreaches, TenancyGuard } from "./tenancy.ts";

export type Database = Kysely<DB>;

/**
 * Opens the database. For a local file: WAL (readers never block the writer), foreign keys,
 * a busy timeout for other processes (a backup, the sqlite3 shell) and synchronous=NORMAL,
 * which is durable across process crashes in WAL mode.
 */
export type DatabaseObserver = {
  /** Called after every statement with its time, queue wait on the thread included. */
  onQuery?: (seconds: number) => void;
  /** Called after every statement of a libSQL database with its wait and run on the thread. */
  onStatement?: StatementObserver;
};

const threads = new WeakMap<Database, DatabaseThread>();

/**
 * The database file is its owner's alone (0600; issue 35): made so before SQLite opens it, and
 * narrowed if an older release left it readable. SQLite gives its -wal and -shm files the
 * database file's permissions.
 */
async function ownerOnly(path: string) {
  const file = await Deno.open(path, { create: true, write: true, mode: 0o600 });
  file.close();
  if (Deno.build.os !== "windows") await Deno.chmod(path, 0o600);
}

/** Statements waiting on the database thread of `db` (0 for a closed or foreign instance). */
export function databaseQueueDepth(db: Database): number {
  return threads.get(db)?.queued ?? 0;
}

/** A PostgreSQL URL (issue 46): postgres:// or postgresql://. */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/**
 * db/postgres.ts and the `pg` package, imported by a computed URL: Deno loads the graph of a
 * literal `import("...")` with the importing module, and a libSQL installation must load nothing
 * of PostgreSQL (tests/pages/startup_imports_test.ts).
 */
const POSTGRES_MODULE = new URL("./postgres.ts", import.meta.url).href;

export async function openDatabase(
  url: string,
  authToken?: string,
  observer: DatabaseObserver = {},
): Promise<Database> {
  if (isPostgresUrl(url)) {
    const postgres: typeof import("./postgres.ts") = await import(POSTGRES_MODULE);
    return await postgres.openPostgres(url, observer.onQuery);
  }
  if (url.startsWith("file:")) {
    const path = url.slice("file:".length);
    const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : ".";
    if (dir && path !== ":memory:") {
      await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
      await ownerOnly(path);
    }
  }
  // SQLite runs on the database thread (db/worker.ts): a writer connection and, for a file, a
  // reader; the thread schedules them (see dialect.ts).
  const pragmas = url.startsWith("file:")
    ? ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL", "PRAGMA busy_timeout = 5000"]
    : [];
  pragmas.push("PRAGMA foreign_keys = ON");
  const thread = await DatabaseThread.open(url, authToken, pragmas);
  thread.onStatement = observer.onStatement;
  const onQuery = observer.onQuery;
  const db = new Kysely<DB>({
    dialect: new LibsqlThreadDialect(thread),
    log: onQuery ? (event) => onQuery(event.queryDurationMillis / 1000) : undefined,
  });
  threads.set(db, thread);
  // Kysely's destroy() only reaches the driver (and ends the thread) once a query has gone
  // through it: a database opened and closed unused would leave its thread running.
  await sql`SELECT 1`.execute(db);
  return db;
}

/**
 * The same database with the tenancy guard (db/tenancy.ts): a query on a company table without
 * the company throws and is recorded in `breaches`.
 */
export function guardTenancy(db: Database, breaches: TenancyBreaches): Database {
  const guarded = db.withPlugin(new TenancyGuard(breaches));
  const thread = threads.get(db);
  if (thread) threads.set(guarded, thread);
  return guarded;
}
