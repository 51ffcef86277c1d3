import { type Kysely, sql } from "kysely";
import type { Database } from "./client.ts";

/**
 * Copies a libSQL database into a migrated PostgreSQL one (issue 46, `balcao migrate-db`), table
 * by table in batches. Each batch is one PostgreSQL transaction that also records how far the
 * table got (`migrate_db_copy`), so a kill at any moment leaves whole batches and their mark: a
 * rerun goes on after the last mark and never doubles a row. The target's row triggers (counters,
 * timeline, jobs) are off inside each batch's transaction: the tables they fill are copied as
 * they are, and a kill cannot leave them off. Tables go parents first (foreign keys are checked).
 */

// deno-lint-ignore no-explicit-any
type Any = Kysely<any>;
type Row = Record<string, unknown>;

/** The migrator's own tables: the target has its own, written when it was migrated. */
const NOT_COPIED = new Set([
  "kysely_migration",
  "kysely_migration_lock",
  "schema_versions",
  "migrate_db_copy",
]);

/**
 * Tables the migrations themselves fill (0520's zone offsets): a fresh target has rows there, and
 * the source's rows replace them.
 */
const FILLED_BY_MIGRATIONS = new Set(["zone_offsets"]);

export class CopyRefused extends Error {
  override name = "CopyRefused";
}

export type CopyTable = {
  name: string;
  columns: string[];
  /** The source's order and resume key: rowid, or the primary key of a WITHOUT ROWID table. */
  key: string[];
  /** The columns that find one row (the primary key; every column when there is none). */
  identity: string[];
};

export type CopyProgress = (table: string, copied: number, total: number) => void;

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Tables both databases have (the target's FTS-free schema decides), parents first. */
export async function tablesToCopy(source: Database, target: Database): Promise<CopyTable[]> {
  const targetTables = (await sql<{ name: string }>`SELECT table_name AS name
    FROM information_schema.tables WHERE table_schema = current_schema()
    AND table_type = 'BASE TABLE'`.execute(target)).rows.map((r) => r.name);
  const sourceTables = new Map(
    (await sql<{ name: string; sql: string }>`SELECT name, sql FROM sqlite_master
      WHERE type = 'table'`.execute(source)).rows.map((r) => [r.name, r.sql]),
  );
  const names = targetTables.filter((t) => sourceTables.has(t) && !NOT_COPIED.has(t));
  const targetColumns = new Map<string, Set<string>>();
  for (
    const r of (await sql<{ table: string; column: string }>`SELECT table_name AS "table",
      column_name AS "column" FROM information_schema.columns
      WHERE table_schema = current_schema() AND is_generated = 'NEVER'`.execute(target)).rows
  ) {
    if (!targetColumns.has(r.table)) targetColumns.set(r.table, new Set());
    targetColumns.get(r.table)!.add(r.column);
  }
  const tables: CopyTable[] = [];
  for (const name of names) {
    const info = (await sql<{ name: string; pk: number }>`SELECT name, pk
      FROM pragma_table_info(${name})`.execute(source)).rows;
    const wanted = targetColumns.get(name) ?? new Set();
    const missing = info.filter((c) => !wanted.has(c.name)).map((c) => c.name);
    if (missing.length > 0) {
      throw new CopyRefused(
        `the target's table ${name} has no column ${missing.join(", ")}: both databases must ` +
          `be at this release's schema`,
      );
    }
    const pk = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
    const withoutRowid = /WITHOUT\s+ROWID/i.test(sourceTables.get(name) ?? "");
    tables.push({
      name,
      columns: info.map((c) => c.name),
      key: withoutRowid ? pk : ["rowid"],
      identity: pk.length > 0 ? pk : info.map((c) => c.name),
    });
  }
  return orderParentsFirst(tables, await foreignKeys(target));
}

async function foreignKeys(target: Database): Promise<[string, string][]> {
  const rows = (await sql<{ child: string; parent: string }>`SELECT ch.relname AS child,
      pa.relname AS parent FROM pg_constraint c
      JOIN pg_class ch ON ch.oid = c.conrelid JOIN pg_class pa ON pa.oid = c.confrelid
      JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE c.contype = 'f' AND n.nspname = current_schema()`.execute(target)).rows;
  return rows.map((r) => [r.child, r.parent]);
}

function orderParentsFirst(tables: CopyTable[], edges: [string, string][]): CopyTable[] {
  const byName = new Map(tables.map((t) => [t.name, t]));
  const parents = new Map<string, Set<string>>();
  for (const [child, parent] of edges) {
    if (child === parent || !byName.has(child) || !byName.has(parent)) continue;
    if (!parents.has(child)) parents.set(child, new Set());
    parents.get(child)!.add(parent);
  }
  const out: CopyTable[] = [];
  const state = new Map<string, "visiting" | "done">();
  const visit = (name: string) => {
    if (state.get(name) === "done") return;
    if (state.get(name) === "visiting") {
      throw new CopyRefused(`the foreign keys of ${name} form a cycle: no table order copies it`);
    }
    state.set(name, "visiting");
    for (const parent of [...(parents.get(name) ?? [])].sort()) visit(parent);
    state.set(name, "done");
    out.push(byName.get(name)!);
  };
  for (const name of [...byName.keys()].sort()) visit(name);
  return out;
}

/** Who the source is: its first migration's time and its first company (kept across moves). */
export async function sourceIdentity(source: Database): Promise<string> {
  const first = await sql<{ timestamp: string }>`SELECT timestamp FROM kysely_migration
    ORDER BY name LIMIT 1`.execute(source);
  const company = await sql<{ createdAt: string }>`SELECT createdAt FROM companies
    ORDER BY id LIMIT 1`.execute(source);
  return `libsql migrated ${first.rows[0]?.timestamp ?? "never"}, first company ${
    company.rows[0]?.createdAt ?? "none"
  }`;
}

async function createProgressTable(target: Database) {
  await sql`CREATE TABLE IF NOT EXISTS migrate_db_copy (tableName TEXT PRIMARY KEY,
    source TEXT NOT NULL, lastKey TEXT, copied INTEGER NOT NULL DEFAULT 0,
    done INTEGER NOT NULL DEFAULT 0)`.execute(target);
}

type Mark = {
  tableName: string;
  source: string;
  lastKey: string | null;
  copied: number;
  done: number;
};

async function marks(target: Database): Promise<Map<string, Mark>> {
  const rows = (await sql<Mark>`SELECT tableName, source, lastKey, copied, done
    FROM migrate_db_copy`.execute(target)).rows;
  return new Map(rows.map((r) => [r.tableName, { ...r, copied: Number(r.copied) }]));
}

/**
 * Refuses a target that holds data and is not a partial copy of this source; answers whether
 * this is a rerun. The mark '*' names the source of the copy, and is done once it was verified.
 */
export async function claimTarget(
  target: Database,
  tables: CopyTable[],
  source: string,
): Promise<"new" | "resumed" | "finished"> {
  await createProgressTable(target);
  const header = (await marks(target)).get("*");
  if (header) {
    if (header.source !== source) {
      throw new CopyRefused(
        `the target database holds a copy of another database (${header.source}); ` +
          `this one is ${source}. Use an empty PostgreSQL database.`,
      );
    }
    return header.done ? "finished" : "resumed";
  }
  const holding: string[] = [];
  for (const table of tables) {
    if (FILLED_BY_MIGRATIONS.has(table.name)) continue;
    const n = await countRows(target, table.name);
    if (n > 0) holding.push(`${table.name} (${n})`);
  }
  if (holding.length > 0) {
    throw new CopyRefused(
      `the target database is not empty: ${holding.slice(0, 5).join(", ")}` +
        `${holding.length > 5 ? ", ..." : ""}. migrate-db copies into an empty PostgreSQL ` +
        `database (or goes on with its own unfinished copy).`,
    );
  }
  await sql`INSERT INTO migrate_db_copy (tableName, source, done) VALUES ('*', ${source}, 0)`
    .execute(target);
  return "new";
}

export async function countRows(db: Database, table: string): Promise<number> {
  const r = await sql<{ n: number }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}

/** A libSQL value as PostgreSQL's driver takes it (bytes as a view, not an ArrayBuffer). */
function toTarget(value: unknown): unknown {
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (typeof value === "bigint") return value.toString();
  return value;
}

/** Copies every table not yet done, batch by batch; answers rows copied by this run. */
export async function copyTables(
  source: Database,
  target: Database,
  tables: CopyTable[],
  source_: string,
  options: { batch: number; progress?: CopyProgress },
): Promise<number> {
  let copiedNow = 0;
  const done = await marks(target);
  for (const table of tables) {
    const mark = done.get(table.name);
    if (mark?.done) continue;
    const total = await countRows(source, table.name);
    let lastKey: unknown[] | null = mark?.lastKey ? JSON.parse(mark.lastKey) : null;
    let copied = mark?.copied ?? 0;
    // A statement carries at most 65,535 parameters on PostgreSQL.
    const batch = Math.max(1, Math.min(options.batch, Math.floor(30_000 / table.columns.length)));
    while (true) {
      const rows = await readBatch(source, table, lastKey, batch);
      const first = mark === undefined && copied === 0 && lastKey === null;
      const nextKey = rows.length > 0 ? table.key.map((k) => rows.at(-1)![keyAlias(k)]) : lastKey;
      await target.transaction().execute(async (trx) => {
        await sql`ALTER TABLE ${sql.table(table.name)} DISABLE TRIGGER USER`.execute(trx);
        // Only what the migrations put there: claimTarget refused any other row.
        if (first) await sql`DELETE FROM ${sql.table(table.name)}`.execute(trx);
        if (rows.length > 0) {
          await (trx as Any).insertInto(table.name).values(rows.map((row) => {
            const out: Row = {};
            for (const c of table.columns) out[c] = toTarget(row[c]);
            return out;
          })).execute();
        }
        await sql`ALTER TABLE ${sql.table(table.name)} ENABLE TRIGGER USER`.execute(trx);
        const key = nextKey === null ? null : JSON.stringify(nextKey);
        const n = copied + rows.length;
        const finished = rows.length < batch ? 1 : 0;
        await sql`INSERT INTO migrate_db_copy (tableName, source, lastKey, copied, done)
          VALUES (${table.name}, ${source_}, ${key}, ${n}, ${finished})
          ON CONFLICT (tableName) DO UPDATE SET lastKey = excluded.lastKey,
          copied = excluded.copied, done = excluded.done`.execute(trx);
      });
      copied += rows.length;
      copiedNow += rows.length;
      lastKey = nextKey;
      options.progress?.(table.name, copied, total);
      if (rows.length < batch) break;
    }
  }
  return copiedNow;
}

const keyAlias = (column: string) => `__key_${column}`;

async function readBatch(
  source: Database,
  table: CopyTable,
  after: unknown[] | null,
  limit: number,
): Promise<Row[]> {
  const keys = table.key.map((k) => `${k === "rowid" ? "rowid" : q(k)} AS ${q(keyAlias(k))}`);
  const order = table.key.map((k) => (k === "rowid" ? "rowid" : q(k))).join(", ");
  const where = after === null
    ? sql``
    : sql`WHERE (${sql.raw(order)}) > (${sql.join(after.map((v) => sql`${v}`))})`;
  const rows = await sql<Row>`SELECT ${sql.raw(keys.join(", "))}, * FROM ${sql.table(table.name)}
    ${where} ORDER BY ${sql.raw(order)} LIMIT ${limit}`.execute(source);
  return rows.rows;
}

/**
 * Identity columns continue after the copied ids (and after SQLite's AUTOINCREMENT high mark,
 * so an id deleted in the old database is not handed out again).
 */
export async function continueSequences(source: Database, target: Database): Promise<number> {
  const identities = (await sql<{ table: string; column: string }>`SELECT
    table_name AS "table", column_name AS "column" FROM information_schema.columns
    WHERE table_schema = current_schema() AND is_identity = 'YES'`.execute(target)).rows;
  const highs = new Map(
    (await sql<{ name: string; seq: number }>`SELECT name, seq FROM sqlite_sequence`
      .execute(source).catch(() => ({ rows: [] }))).rows.map((r) => [r.name, Number(r.seq)]),
  );
  for (const { table, column } of identities) {
    const max = await sql<{ n: number | null }>`SELECT max(${sql.ref(column)}) AS n
      FROM ${sql.table(table)}`.execute(target);
    const high = Math.max(Number(max.rows[0]?.n ?? 0), highs.get(table) ?? 0);
    if (high > 0) {
      await sql`SELECT setval(pg_get_serial_sequence(${q(table)}, ${column}), ${high})`
        .execute(target);
    }
  }
  return identities.length;
}

export async function markFinished(target: Database): Promise<void> {
  await sql`UPDATE migrate_db_copy SET done = 1 WHERE tableName = '*'`.execute(target);
}

/** A value as both engines' drivers give it back, for comparing rows. */
function normal(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (value instanceof ArrayBuffer) return [...new Uint8Array(value)].join(",");
  if (value instanceof Uint8Array) return [...value].join(",");
  if (typeof value === "bigint") return Number(value);
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

export type Verification = { tables: number; rows: number; sampled: number; differences: string[] };

/** Counts per table, and `sample` rows per table (random, plus the first and last) compared. */
export async function verifyCopy(
  source: Database,
  target: Database,
  tables: CopyTable[],
  sample: number,
): Promise<Verification> {
  const out: Verification = { tables: 0, rows: 0, sampled: 0, differences: [] };
  for (const table of tables) {
    const [a, b] = [await countRows(source, table.name), await countRows(target, table.name)];
    out.tables++;
    out.rows += a;
    if (a !== b) {
      out.differences.push(`${table.name}: ${a} rows in the source, ${b} in the copy`);
      continue;
    }
    const order = table.key.map((k) => (k === "rowid" ? "rowid" : q(k))).join(", ");
    const picked = (await sql<Row>`SELECT * FROM (SELECT * FROM ${sql.table(table.name)}
        ORDER BY random() LIMIT ${sample})
      UNION SELECT * FROM (SELECT * FROM ${sql.table(table.name)} ORDER BY ${
      sql.raw(order)
    } LIMIT 1)
      UNION SELECT * FROM (SELECT * FROM ${sql.table(table.name)}
        ORDER BY ${sql.raw(order.split(", ").map((k) => `${k} DESC`).join(", "))} LIMIT 1)`
      .execute(source)).rows;
    for (const row of picked) {
      out.sampled++;
      // deno-lint-ignore no-explicit-any
      let query = (target as Any).selectFrom(table.name).selectAll() as any;
      for (const c of table.identity) {
        query = row[c] === null
          ? query.where(c, "is", null)
          : query.where(c, "=", toTarget(row[c]));
      }
      const found: Row[] = await query.limit(2).execute();
      const want = JSON.stringify(table.columns.map((c) => normal(row[c])));
      if (!found.some((f) => JSON.stringify(table.columns.map((c) => normal(f[c]))) === want)) {
        out.differences.push(
          `${table.name}: the row ${
            JSON.stringify(Object.fromEntries(table.identity.map((c) => [c, row[c]])))
          } differs or is missing in the copy`,
        );
      }
    }
  }
  return out;
}
