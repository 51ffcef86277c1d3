import denoConfig from "../../deno.json" with { type: "json" };
import { knownMigrations } from "../../db/migrate.ts";
import type { Database } from "../../db/client.ts";
import { appliedMigrations } from "./repository.ts";

/** The release, from deno.json's `version` (bumped with each release). */
export const APP_VERSION: string = denoConfig.version;

export type VersionView = {
  version: string;
  /** The newest migration applied: the schema level this database is at. */
  migration: string | null;
  migrations: { applied: number; known: number; pending: string[] };
};

/** GET /api/version: what runs and on which schema (a client or an upgrade script reads it). */
export async function versionOf(db: Database): Promise<VersionView> {
  const applied = await appliedMigrations(db);
  const done = new Set(applied);
  const known = knownMigrations();
  return {
    version: APP_VERSION,
    migration: applied.at(-1) ?? null,
    migrations: {
      applied: applied.length,
      known: known.length,
      pending: known.filter((name) => !done.has(name)),
    },
  };
}
