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
