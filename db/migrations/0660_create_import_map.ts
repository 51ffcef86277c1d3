import { type Kysely, sql } from "kysely";

/**
 * Issue 47: importing a Whaticket / ticketz database (server/importer/). `import_sources` names
 * each source database by its fingerprint; the target accepts one source only (a second one is
 * refused before anything is written). `import_map` keeps, per source record (kind + its id in
 * the source), our id, the hash of the source row as imported and the updatedAt we stamped: a
 * rerun skips what it already has (unchanged hash), updates what changed in the source, and
 * leaves alone a record someone changed in Balcão since (our updatedAt is no longer the stamp).
 * A batch writes its rows and their map rows in one transaction, so a killed import resumes
 * without doubles: the primary key (sourceId, kind, sourceKey) is what stops a duplicate.
 */
const statements = [
  `CREATE TABLE import_sources (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    fingerprint TEXT NOT NULL UNIQUE,
    system TEXT NOT NULL,
    version TEXT NOT NULL,
    createdAt TEXT NOT NULL,
    finishedAt TEXT
  )`,
  `CREATE TABLE import_map (
    sourceId INTEGER NOT NULL REFERENCES import_sources(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    sourceKey TEXT NOT NULL,
    companyId INTEGER,
    targetId INTEGER NOT NULL,
    hash TEXT NOT NULL,
    stamp TEXT NOT NULL,
    PRIMARY KEY (sourceId, kind, sourceKey)
  ) WITHOUT ROWID`,
  `CREATE INDEX import_map_company ON import_map (companyId, kind)`,
];

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
