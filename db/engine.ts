import { type Kysely, PostgresAdapter } from "kysely";

/** The database engine behind a Kysely instance (issue 46): SQL that must differ asks this. */
export type Engine = "sqlite" | "postgres";

// deno-lint-ignore no-explicit-any
export function engineOf(db: Kysely<any>): Engine {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}

// deno-lint-ignore no-explicit-any
export function isPostgres(db: Kysely<any>): boolean {
  return engineOf(db) === "postgres";
}
