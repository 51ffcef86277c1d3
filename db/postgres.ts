import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  PostgresDialect,
  type QueryResult,
  type TransactionSettings,
} from "kysely";
import pg from "pg";
import type { DB } from "./schema.ts";
import { POSTGRES_PREPARE } from "./postgres_compat.ts";
import { toPostgres } from "./postgres_sql.ts";

/**
 * PostgreSQL as the database (issue 46: DATABASE_URL=postgres://…): Kysely's own dialect over
 * node-postgres' pool. Loaded only for such a URL (db/client.ts imports it by a computed URL),
 * so a libSQL installation loads nothing of it.
 *
 * Values come back as SQLite gives them, so that repositories and answers are the same on both
 * engines: BIGINT (ids, counts) and NUMERIC (sums, money) as numbers, booleans (a comparison
 * selected as a value) as 1/0, JSON as its text. Every statement passes through db/postgres_sql.ts.
 */
const PARSERS: Record<number, (value: string) => unknown> = {
  20: Number, // int8
  1700: Number, // numeric
  16: (value) => (value === "t" ? 1 : 0), // bool
  114: String, // json: text, as SQLite's json functions answer
  3802: String, // jsonb
};

export const POOL_SIZE = 10;

export async function openPostgres(
  url: string,
  onQuery?: (seconds: number) => void,
): Promise<Kysely<DB>> {
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_SIZE,
    // Idle connections stay open for the life of the process: a restore (db/postgres_backup.ts)
    // knows a server runs by its sessions, and PostgreSQL refuses to rename a database in use.
    idleTimeoutMillis: 0,
    application_name: "balcao",
    // The text timestamps carry their zone (Z); a session in UTC reads any that do not as UTC.
    options: "-c TimeZone=UTC",
    types: {
      // deno-lint-ignore no-explicit-any
      getTypeParser: ((oid: number, format?: any) =>
        PARSERS[oid] ?? pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client's error (the server restarted) must not end the process: the pool drops it.
  pool.on("error", () => {});
  // Nor may a checked-out client's (a transaction between two statements when the server
  // terminates its session): the pool listens only to idle clients, and an 'error' nobody
  // listens to is thrown. The client's next statement fails instead ("not queryable"), and the
  // pool discards it on release.
  pool.on("connect", (client) => client.on("error", () => {}));
  const db = new Kysely<DB>({
    dialect: new TranslatingPostgresDialect({ pool }),
    log: onQuery ? (event) => onQuery(event.queryDurationMillis / 1000) : undefined,
  });
  try {
    await preparePostgres(pool);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return db;
}

/** Extensions, collation and functions (db/postgres_compat.ts), one process at a time. */
async function preparePostgres(pool: pg.Pool) {
  const client = await pool.connect();
  try {
    await client.query("SELECT pg_advisory_lock(4646)");
    try {
      for (const statement of POSTGRES_PREPARE) await client.query(statement);
    } finally {
      await client.query("SELECT pg_advisory_unlock(4646)");
    }
  } finally {
    client.release();
  }
}

class TranslatingPostgresDialect extends PostgresDialect {
  override createDriver(): Driver {
    return new TranslatingDriver(super.createDriver());
  }
}

class TranslatingDriver implements Driver {
  constructor(private readonly inner: Driver) {}
  init() {
    return this.inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    return new TranslatingConnection(await this.inner.acquireConnection());
  }
  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    return this.inner.beginTransaction((connection as TranslatingConnection).inner, settings);
  }
  commitTransaction(connection: DatabaseConnection) {
    return this.inner.commitTransaction((connection as TranslatingConnection).inner);
  }
  rollbackTransaction(connection: DatabaseConnection) {
    return this.inner.rollbackTransaction((connection as TranslatingConnection).inner);
  }
  releaseConnection(connection: DatabaseConnection) {
    return this.inner.releaseConnection((connection as TranslatingConnection).inner);
  }
  destroy() {
    return this.inner.destroy();
  }
}

/** BALCAO_PG_DEBUG=1 prints each failing statement as PostgreSQL received it (development). */
const DEBUG = Deno.env.get("BALCAO_PG_DEBUG") === "1";

const cache = new Map<string, string | null>();

function translated(text: string): string | null {
  let out = cache.get(text);
  if (out === undefined) {
    out = toPostgres(text);
    if (cache.size > 5_000) cache.clear();
    cache.set(text, out);
  }
  return out;
}

class TranslatingConnection implements DatabaseConnection {
  constructor(readonly inner: DatabaseConnection) {}
  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const text = translated(query.sql);
    if (text === null) return Promise.resolve({ rows: [] });
    const result = this.inner.executeQuery<R>({ ...query, sql: text });
    // deno-lint-ignore no-console
    if (DEBUG) result.catch((error) => console.error(`${error.message}\n${text}`));
    return result;
  }
  streamQuery<R>(query: CompiledQuery, chunkSize: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(
      { ...query, sql: translated(query.sql) ?? "SELECT 1" },
      chunkSize,
    );
  }
}

/** What `balcao doctor` checks of a PostgreSQL server before the app prepares anything there. */
export type PostgresFacts = {
  version: string;
  versionNum: number;
  /** Per extension the app needs: whether the server has it, and whether this database does. */
  extensions: { name: string; available: boolean; installed: boolean }[];
};

export const NEEDED_EXTENSIONS = ["unaccent", "pg_trgm"];

/** Reads the server's version and extensions over one plain connection (nothing is created). */
export async function inspectPostgres(url: string): Promise<PostgresFacts> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  client.on("error", () => {});
  await client.connect();
  try {
    const version = await client.query(
      "SELECT current_setting('server_version') AS v, current_setting('server_version_num') AS n",
    );
    const found = await client.query(
      "SELECT name, installed_version FROM pg_available_extensions WHERE name = ANY($1)",
      [NEEDED_EXTENSIONS],
    );
    const byName = new Map(found.rows.map((r) => [r.name, r.installed_version !== null]));
    return {
      version: String(version.rows[0].v),
      versionNum: Number(version.rows[0].n),
      extensions: NEEDED_EXTENSIONS.map((name) => ({
        name,
        available: byName.has(name),
        installed: byName.get(name) === true,
      })),
    };
  } finally {
    await client.end();
  }
}
