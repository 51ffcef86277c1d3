import { type Kysely, sql } from "kysely";
import { isPostgres } from "../engine.ts";

/**
 * Ids are never handed out twice (issue 19). A table declared `id INTEGER PRIMARY KEY` without
 * AUTOINCREMENT gives a new row max(rowid)+1, so deleting the newest row and inserting another
 * reuses its id: a token, a link or a socket room naming the old row would name the new one.
 * SQLite cannot add AUTOINCREMENT to a table in place, so every such table is rebuilt here by
 * the procedure of https://www.sqlite.org/lang_altertable.html#otheralter (db/README.md):
 *
 * 1. foreign keys off (outside the transaction: the pragma is a no-op inside one; with them on,
 *    dropping a parent would run its ON DELETE CASCADE on the children);
 * 2. in one transaction: remember every index, trigger and view; drop the triggers and views
 *    (their bodies name the tables being swapped); for each table, create `<name>__rebuild` from
 *    its own CREATE TABLE text with AUTOINCREMENT added, copy every row (ids kept, so every
 *    reference and the FTS index's rowids stay valid), drop the old table, rename the new one and
 *    re-create its indexes; re-create the triggers (the FTS5 and ticket_counts sync triggers) and
 *    views; `PRAGMA foreign_key_check` must find nothing; commit;
 * 3. foreign keys back on.
 *
 * Copying the rows seeds sqlite_sequence with each table's max id. The table list is read from
 * sqlite_master, so it covers whatever earlier migrations created, and a table already declared
 * with AUTOINCREMENT (every table created after this one, db/README.md) is left alone.
 */

const PLAIN_ID_KEY = /(\bid\s+INTEGER\s+PRIMARY\s+KEY)(?!\s+AUTOINCREMENT)\b/i;
const TABLE_HEAD = /^(\s*CREATE\s+TABLE\s+)("?)(\w+)\2/i;

type SchemaRow = { type: string; name: string; tbl_name: string; sql: string | null };

/** The CREATE TABLE text for `target` with the id made AUTOINCREMENT; undefined if not needed. */
export function autoincrementDefinition(createSql: string, target: string): string | undefined {
  if (!PLAIN_ID_KEY.test(createSql) || !TABLE_HEAD.test(createSql)) return undefined;
  return createSql.replace(PLAIN_ID_KEY, "$1 AUTOINCREMENT").replace(
    TABLE_HEAD,
    (_, create) => `${create}"${target}"`,
  );
}

function quoted(name: string) {
  return `"${name.replaceAll('"', '""')}"`;
}

// deno-lint-ignore no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  // PostgreSQL's ids are identity columns from the start: a sequence never hands an id out twice.
  if (isPostgres(db)) return;
  await sql`PRAGMA foreign_keys = OFF`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      const exec = (text: string) => sql.raw(text).execute(trx);
      // The pragma above must reach this transaction's connection (a remote database could run
      // them on different streams): with foreign keys on, a DROP TABLE would delete children.
      const fk = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(trx);
      if (fk.rows[0]?.foreign_keys !== 0) {
        throw new Error("foreign keys are still on: refusing to rebuild tables");
      }
      // Only ordinary tables: virtual tables and their shadow tables (messages_fts_data has an
      // `id INTEGER PRIMARY KEY` of its own) belong to FTS5 and are left alone.
      const tables = await sql<{ name: string }>`
        SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table'
          AND name NOT LIKE 'sqlite_%'`.execute(trx);
      const ordinary = new Set(tables.rows.map((r) => r.name));
      const schema = await sql<SchemaRow>`
        SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid`.execute(trx);
      const rebuilt = schema.rows.filter((r) =>
        r.type === "table" && ordinary.has(r.name) && r.sql !== null &&
        autoincrementDefinition(r.sql, r.name) !== undefined
      );
      if (rebuilt.length === 0) return;
      const triggersAndViews = schema.rows.filter((r) =>
        (r.type === "trigger" || r.type === "view") && r.sql !== null
      );
      for (const item of triggersAndViews) {
        await exec(`DROP ${item.type.toUpperCase()} ${quoted(item.name)}`);
      }
      for (const table of rebuilt) {
        const temporary = `${table.name}__rebuild`;
        const columns = await sql<{ name: string }>`
          SELECT name FROM pragma_table_info(${table.name})`.execute(trx);
        const list = columns.rows.map((c) => quoted(c.name)).join(", ");
        await exec(autoincrementDefinition(table.sql!, temporary)!);
        await exec(
          `INSERT INTO ${quoted(temporary)} (${list}) SELECT ${list} FROM ${
            quoted(table.name)
          } ORDER BY rowid`,
        );
        await exec(`DROP TABLE ${quoted(table.name)}`);
        await exec(`ALTER TABLE ${quoted(temporary)} RENAME TO ${quoted(table.name)}`);
        const indexes = schema.rows.filter((r) =>
          r.type === "index" && r.tbl_name === table.name && r.sql !== null
        );
        for (const index of indexes) await exec(index.sql!);
      }
      for (const item of triggersAndViews) await exec(item.sql!);
      const broken = await sql`PRAGMA foreign_key_check`.execute(trx);
      if (broken.rows.length > 0) {
        throw new Error(`rebuild left broken references: ${JSON.stringify(broken.rows)}`);
      }
    });
  } finally {
    await sql`PRAGMA foreign_keys = ON`.execute(db);
  }
}
