import assert from "node:assert/strict";
import { startPostgres } from "../helpers/postgres_server.ts";

// The harness the PostgreSQL engine (issue 46) and the Whaticket importer (issue 47) stand on:
// a real server from Debian's binaries, with the extensions the search needs, that survives a restart.
Deno.test("a real PostgreSQL starts in a temporary folder, has unaccent and pg_trgm, and restarts", async () => {
  const pg = await startPostgres();
  try {
    const url = await pg.createDatabase();
    const db = url.slice(url.lastIndexOf("/") + 1);
    assert.equal((await pg.psql(db, "select 1+1")).trim(), "2");
    await pg.psql(db, "create extension unaccent; create extension pg_trgm");
    assert.equal((await pg.psql(db, "select unaccent('orçamento')")).trim(), "orcamento");
    await pg.restart();
    assert.equal((await pg.psql(db, "select 2+1")).trim(), "3");
  } finally {
    await pg.stop();
  }
});
