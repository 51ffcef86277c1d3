import { openDatabase } from "../../db/client.ts";
import { migrateToLatest } from "../../db/migrate.ts";
import { APP_VERSION } from "../../server/ops/version.ts";
import { type PostgresServer, startPostgres } from "./postgres_server.ts";

/**
 * The database engine tests run on (issue 46): libSQL files by default; with
 * BALCAO_TEST_ENGINE=postgres, each test app gets its own empty database in one PostgreSQL
 * cluster per test process (started on first use, stopped when the process ends).
 */
export const TEST_ENGINE: "sqlite" | "postgres" = Deno.env.get("BALCAO_TEST_ENGINE") === "postgres"
  ? "postgres"
  : "sqlite";

let cluster: Promise<PostgresServer> | undefined;

/** The process's PostgreSQL cluster, started on first call. */
export function testCluster(): Promise<PostgresServer> {
  if (!cluster) {
    cluster = startPostgres();
    cluster.then((server) => {
      globalThis.addEventListener("unload", () => server.stopSync());
    }, () => {});
  }
  return cluster;
}

/** A new empty PostgreSQL database's URL in the process's cluster. */
export async function testPostgresDatabase(): Promise<string> {
  return await (await testCluster()).createDatabase();
}

let migrated: Promise<string> | undefined;

/**
 * A new PostgreSQL database with the whole migration history applied, copied from a template
 * migrated once per process: running the history per test took ~10 s of each PostgreSQL test.
 * (The app's start then finds nothing pending, as it does on the libSQL template file.)
 */
export async function testMigratedPostgresDatabase(): Promise<string> {
  const server = await testCluster();
  const template = await (migrated ??= (async () => {
    const url = await server.createDatabase();
    const db = await openDatabase(url);
    try {
      await migrateToLatest(db, APP_VERSION);
    } finally {
      // A template must have no sessions when it is copied.
      await db.destroy();
    }
    return new URL(url).pathname.slice(1);
  })());
  return await server.createDatabase(undefined, template);
}
