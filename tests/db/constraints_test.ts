import assert from "node:assert/strict";
import { type Kysely, sql } from "kysely";
import { openDatabase } from "../../db/client.ts";
import { isForeignKeyViolation, isUniqueViolation } from "../../db/constraints.ts";
import { startPostgres } from "../helpers/postgres_server.ts";

// Issue 46: a unique or foreign-key refusal reads the same on both engines (SQLite's text,
// PostgreSQL's SQLSTATE 23505/23503), so services answer the same catalogue error.
// deno-lint-ignore no-explicit-any
async function violations(db: Kysely<any>) {
  await sql`CREATE TABLE owners (id INTEGER PRIMARY KEY)`.execute(db);
  await sql`CREATE TABLE people (id INTEGER PRIMARY KEY, companyId INTEGER NOT NULL,
    number TEXT NOT NULL, ownerId INTEGER REFERENCES owners(id), UNIQUE (companyId, number))`
    .execute(db);
  await sql`INSERT INTO owners (id) VALUES (1)`.execute(db);
  await sql`INSERT INTO people (companyId, number, ownerId) VALUES (1, '55', 1)`.execute(db);
  const unique = await sql`INSERT INTO people (companyId, number) VALUES (1, '55')`.execute(db)
    .then(() => undefined, (error) => error);
  const foreign = await sql`INSERT INTO people (companyId, number, ownerId) VALUES (1, '56', 9)`
    .execute(db).then(() => undefined, (error) => error);
  return {
    unique: isUniqueViolation(unique),
    uniqueOnNumber: isUniqueViolation(unique, "people.number"),
    uniqueOnTable: isUniqueViolation(unique, "people"),
    uniqueOnOther: isUniqueViolation(unique, "people.ownerId"),
    uniqueIsForeign: isForeignKeyViolation(unique),
    foreign: isForeignKeyViolation(foreign),
    foreignIsUnique: isUniqueViolation(foreign),
  };
}

Deno.test("constraints - unique and foreign-key violations read the same on libSQL and PostgreSQL", async () => {
  const expected = {
    unique: true,
    uniqueOnNumber: true,
    uniqueOnTable: true,
    uniqueOnOther: false,
    uniqueIsForeign: false,
    foreign: true,
    foreignIsUnique: false,
  };
  const dir = await Deno.makeTempDir();
  const lite = await openDatabase(`file:${dir}/c.db`);
  try {
    assert.deepEqual(await violations(lite), expected);
  } finally {
    await lite.destroy();
    await Deno.remove(dir, { recursive: true });
  }
  const server = await startPostgres();
  try {
    const db = await openDatabase(await server.createDatabase());
    try {
      assert.deepEqual(await violations(db), expected);
    } finally {
      await db.destroy();
    }
  } finally {
    await server.stop();
  }
});
