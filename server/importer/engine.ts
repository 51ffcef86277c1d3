import type { Database } from "../../db/client.ts";
import type { DB } from "../../db/schema.ts";
import {
  anyMapped,
  insertLinks,
  insertRows,
  type MapEntry,
  mapped,
  rowsPerStatement,
  updatedAts,
  updateRow,
  writeMap,
} from "./repository.ts";
import type { Row, Source } from "./source.ts";
import { restoreTriggers, suspendTriggers } from "./derived_repository.ts";
import type { Progress } from "./progress.ts";

/**
 * The import's loop (issue 47), the same for every table: read a batch from the source's cursor,
 * look its records up in the map, and in ONE transaction insert the new ones, update the ones the
 * source changed (unless Balcão changed them since: our updatedAt is no longer the stamp the
 * import wrote) and write their map rows. A kill between two batches loses nothing and doubles
 * nothing: a batch is in with its map rows or not at all.
 */

export type Counts = {
  read: number;
  imported: number;
  updated: number;
  unchanged: number;
  skipped: Record<string, number>;
  notes: Record<string, number>;
};

export type Built =
  | { values: Record<string, unknown>; after?: (db: Database, id: number) => Promise<void> }
  | { skip: string };

export type Entity = {
  kind: string;
  table: keyof DB;
  /** The source query (ordered), or null when this source has no such table. */
  query(ctx: Context): Promise<{ sql: string; params: unknown[] } | null>;
  key(row: Row): string;
  /** Our company of a row (undefined: its company is not imported). */
  company(row: Row, ctx: Context): Promise<number | undefined> | number | undefined;
  /** Lookups of other imported records: name -> [kind, source key]. */
  refs?: (row: Row) => Record<string, [string, unknown]>;
  /** Our row for `row`, or why it is skipped; `mappedId`: our id when imported before. */
  build(
    row: Row,
    ctx: Context,
    refs: Refs,
    companyId: number,
    mappedId: number | null,
  ): Promise<Built> | Built;
  /** Rows inserted one at a time (a check against earlier rows of the same batch). */
  oneByOne?: boolean | ((values: Record<string, unknown>) => boolean);
  /** After a chunk of plain inserts, with their ids (derived rows written in bulk). */
  afterMany?: (
    db: Database,
    rows: { id: number; values: Record<string, unknown> }[],
  ) => Promise<void>;
  /** Writes one new row (instead of a plain insert); its id. */
  insert?: (db: Database, values: Record<string, unknown>, ctx: Context) => Promise<number>;
  /** Join rows: inserted once, never updated (no id, no updatedAt). */
  link?: boolean;
  /** After a batch's inserts (e.g. quotes of messages of the same batch). */
  afterBatch?: (db: Database, ctx: Context) => Promise<void>;
  /**
   * Insert triggers whose derived rows are written per batch in a few set-based statements; the
   * triggers are off during the batch (derived_repository.ts). `begin` runs before the batch and
   * gives what fills the derived rows of the batch's new ids after it.
   */
  derived?: {
    triggers: string[];
    begin(db: Database): Promise<(ids: number[]) => Promise<void>>;
  };
  /**
   * Only the current batch's new ids are kept in memory (`ctx.fresh`): for a table of millions
   * whose later references are read from the map.
   */
  freshPerBatch?: boolean;
  /** Rows per batch (2,000 unless said): bigger for a table of millions of small rows. */
  batchSize?: number;
};

export type Refs = { get(name: string): number | null; entry(name: string): MapEntry | undefined };

export type Context = {
  source: Source;
  sourceId: number;
  now: string;
  /** The source company to import, or all. */
  only: number | "all";
  fresh: Map<string, Map<string, number>>;
  counts: Map<string, Counts>;
  notes: string[];
  note(companyId: number | null, kind: string, what: string): void;
  /** Runs one batch's writes: a transaction, or (dry run) inside the one that is rolled back. */
  unit<T>(work: (db: Database) => Promise<T>): Promise<T>;
  db: Database;
  progress: Progress;
  companyName: Map<number, string>;
  state: Record<string, unknown>;
  /** Derived tables per batch (set-based) or by the row triggers (the bench measures both). */
  derivedBy: "batch" | "rows";
};

export function countsOf(ctx: Context, companyId: number | null, kind: string): Counts {
  const label = `${companyId ?? "-"}\u0000${kind}`;
  let c = ctx.counts.get(label);
  if (!c) {
    c = { read: 0, imported: 0, updated: 0, unchanged: 0, skipped: {}, notes: {} };
    ctx.counts.set(label, c);
  }
  return c;
}

/** A row's fingerprint: FNV-1a over its JSON (dates as ISO text). */
export function hashRow(row: Row): string {
  const text = JSON.stringify(row);
  let h1 = 0x811c9dc5, h2 = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 16777619);
    h2 = Math.imul(h2 ^ c, 2246822519);
  }
  return (h1 >>> 0).toString(36) + (h2 >>> 0).toString(36);
}

export const iso = (v: unknown): string | null =>
  v === null || v === undefined ? null : v instanceof Date ? v.toISOString() : String(v);

const isUnique = (error: unknown) => /UNIQUE constraint failed/i.test(String(error));

export async function runEntity(ctx: Context, entity: Entity): Promise<void> {
  const q = await entity.query(ctx);
  if (!q) return;
  const total = await ctx.source.count(q.sql, q.params);
  ctx.progress.start(entity.kind, total);
  const fresh = new Map<string, number>();
  ctx.fresh.set(entity.kind, fresh);
  // A kind the map has no row of yet (a first import, not a resumed or delta one): no key of
  // this run can be in the map before its own batch writes it (source keys are unique), so the
  // batches skip looking their keys up: a million lookups in a first import of messages.
  const firstTime = !await anyMapped(ctx.db, ctx.sourceId, entity.kind);
  // The next batch is read from the source while this one is written: PostgreSQL and the
  // database thread work at the same time.
  const reader = ctx.source.batches(q.sql, q.params, entity.batchSize);
  let next = reader.next();
  while (true) {
    const got = await next;
    if (got.done) break;
    const rows = got.value;
    next = reader.next();
    // A failed batch ends the import: the read already asked for is not waited for.
    next.catch(() => {});
    // Later entities look these ids up in the map; a million message keys need not stay here.
    if (entity.freshPerBatch) fresh.clear();
    await ctx.unit(async (db) => {
      // Lookups while building (free names, open tickets) read through the batch's transaction.
      const outside = ctx.db;
      ctx.db = db;
      try {
        const derived = ctx.derivedBy === "batch" ? entity.derived : undefined;
        const suspended = derived ? await suspendTriggers(db, derived.triggers) : null;
        const fill = suspended ? await derived!.begin(db) : null;
        const ids = await runBatch(db, ctx, entity, rows, fresh, firstTime);
        if (suspended) {
          await fill!(ids);
          await restoreTriggers(db, suspended);
        }
      } finally {
        ctx.db = outside;
      }
    });
    ctx.progress.advance(entity.kind, rows.length);
  }
  ctx.progress.done(entity.kind);
}

async function prefetch(
  db: Database,
  ctx: Context,
  rows: Row[],
  entity: Entity,
): Promise<Map<string, Map<string, MapEntry>>> {
  const wanted = new Map<string, Set<string>>();
  for (const row of rows) {
    for (const [kind, key] of Object.values(entity.refs?.(row) ?? {})) {
      if (key === null || key === undefined) continue;
      // Imported earlier in this run: refsOf finds it in memory first.
      if (ctx.fresh.get(kind)?.has(String(key))) continue;
      let set = wanted.get(kind);
      if (!set) wanted.set(kind, set = new Set());
      set.add(String(key));
    }
  }
  const out = new Map<string, Map<string, MapEntry>>();
  for (const [kind, keys] of wanted) out.set(kind, await mapped(db, ctx.sourceId, kind, [...keys]));
  return out;
}

function refsOf(
  ctx: Context,
  entity: Entity,
  row: Row,
  found: Map<string, Map<string, MapEntry>>,
): Refs {
  const wanted = entity.refs?.(row) ?? {};
  const entry = (name: string): MapEntry | undefined => {
    const ref = wanted[name];
    if (!ref || ref[1] === null || ref[1] === undefined) return undefined;
    const key = String(ref[1]);
    const fromBatch = ctx.fresh.get(ref[0])?.get(key);
    if (fromBatch) return { targetId: fromBatch, hash: "", stamp: "", companyId: null };
    const e = found.get(ref[0])?.get(key);
    return e && e.targetId > 0 ? e : undefined;
  };
  return { entry, get: (name) => entry(name)?.targetId ?? null };
}

type MapRow = Parameters<typeof writeMap>[1][number];

async function runBatch(
  db: Database,
  ctx: Context,
  entity: Entity,
  rows: Row[],
  fresh: Map<string, number>,
  firstTime: boolean,
): Promise<number[]> {
  const inserted: number[] = [];
  const known = firstTime
    ? new Map<string, MapEntry>()
    : await mapped(db, ctx.sourceId, entity.kind, rows.map(entity.key));
  const found = await prefetch(db, ctx, rows, entity);
  const mapRows: MapRow[] = [];
  const inserts: {
    key: string;
    companyId: number;
    hash: string;
    stamp: string;
    values: Record<string, unknown>;
    after?: (db: Database, id: number) => Promise<void>;
  }[] = [];
  const updates: { key: string; entry: MapEntry; companyId: number; hash: string; built: Built }[] =
    [];
  const done = (i: (typeof inserts)[number], id: number) => {
    countsOf(ctx, i.companyId, entity.kind).imported++;
    fresh.set(i.key, id);
    inserted.push(id);
    mapRows.push({
      sourceId: ctx.sourceId,
      kind: entity.kind,
      sourceKey: i.key,
      companyId: i.companyId,
      targetId: id,
      hash: i.hash,
      stamp: i.stamp,
    });
  };
  const skipDuplicate = (i: (typeof inserts)[number], error: unknown) => {
    const reason = `duplicate in Balcão (${
      String(error).match(/UNIQUE constraint failed: ([\w., ]+)/)?.[1] ?? "unique"
    })`;
    const counts = countsOf(ctx, i.companyId, entity.kind);
    counts.skipped[reason] = (counts.skipped[reason] ?? 0) + 1;
    mapRows.push({
      sourceId: ctx.sourceId,
      kind: entity.kind,
      sourceKey: i.key,
      companyId: i.companyId,
      targetId: 0,
      hash: "",
      stamp: "",
    });
  };
  const one = async (i: (typeof inserts)[number]) => {
    try {
      const id = entity.insert
        ? await entity.insert(db, i.values, ctx)
        : (await insertRows(db, entity.table, [i.values]))[0];
      await i.after?.(db, id);
      done(i, id);
    } catch (error) {
      if (!isUnique(error)) throw error;
      skipDuplicate(i, error);
    }
  };
  // Plain rows in chunks of one statement each, in source order with the single ones.
  const flush = async () => {
    const rows = inserts.splice(0);
    if (rows.some((i) => i.after)) {
      for (const i of rows) await one(i);
      return;
    }
    const size = rows.length ? rowsPerStatement(Object.keys(rows[0].values).length) : 1;
    for (let n = 0; n < rows.length; n += size) {
      const chunk = rows.slice(n, n + size);
      try {
        const ids = await insertRows(db, entity.table, chunk.map((i) => i.values));
        await entity.afterMany?.(db, chunk.map((i, k) => ({ id: ids[k], values: i.values })));
        chunk.forEach((i, k) => done(i, ids[k]));
      } catch (error) {
        if (!isUnique(error)) throw error;
        // SQLite undid only the failed statement: find the duplicates one by one.
        for (const i of chunk) await one(i);
      }
    }
  };
  for (const row of rows) {
    const key = entity.key(row);
    const companyId = await entity.company(row, ctx);
    if (companyId === undefined) continue; // another company's (--company), not counted
    const counts = countsOf(ctx, companyId, entity.kind);
    counts.read++;
    const hash = hashRow(row);
    const entry = known.get(key);
    if (entry && entry.targetId > 0 && entry.hash === hash) {
      counts.unchanged++;
      fresh.set(key, entry.targetId);
      continue;
    }
    if (entry && entry.targetId > 0 && entity.link) {
      counts.unchanged++;
      continue;
    }
    const built = await entity.build(
      row,
      ctx,
      refsOf(ctx, entity, row, found),
      companyId,
      entry && entry.targetId > 0 ? entry.targetId : null,
    );
    if ("skip" in built) {
      counts.skipped[built.skip] = (counts.skipped[built.skip] ?? 0) + 1;
      mapRows.push({
        sourceId: ctx.sourceId,
        kind: entity.kind,
        sourceKey: key,
        companyId,
        targetId: 0,
        hash: "",
        stamp: "",
      });
      continue;
    }
    const stamp = String(built.values.updatedAt ?? ctx.now);
    if (entry && entry.targetId > 0) {
      updates.push({ key, entry, companyId, hash, built });
      continue;
    }
    const item = { key, companyId, hash, stamp, values: built.values, after: built.after };
    // One at a time: the next row's build sees this one (a child option its parent).
    const single = typeof entity.oneByOne === "function"
      ? entity.oneByOne(built.values)
      : entity.oneByOne;
    if (single) {
      await flush();
      await one(item);
    } else inserts.push(item);
  }
  // Changed in the source: applied unless changed in Balcão since.
  if (updates.length > 0) {
    const ours = await updatedAts(db, entity.table, updates.map((u) => u.entry.targetId));
    for (const u of updates) {
      const counts = countsOf(ctx, u.companyId, entity.kind);
      const current = ours.get(u.entry.targetId);
      fresh.set(u.key, u.entry.targetId);
      if (current === undefined) {
        counts.skipped["deleted in Balcão since the import"] =
          (counts.skipped["deleted in Balcão since the import"] ?? 0) + 1;
        continue;
      }
      if (current !== u.entry.stamp) {
        counts.skipped["changed in Balcão since the import (kept)"] =
          (counts.skipped["changed in Balcão since the import (kept)"] ?? 0) + 1;
        continue;
      }
      if (!("values" in u.built)) continue;
      const { companyId: _c, uuid: _u, createdAt: _a, ...values } = u.built.values;
      try {
        await updateRow(db, entity.table, u.companyId, u.entry.targetId, values);
      } catch (error) {
        if (!isUnique(error)) throw error;
        counts.skipped["its change would duplicate a Balcão record (kept)"] =
          (counts.skipped["its change would duplicate a Balcão record (kept)"] ?? 0) + 1;
        continue;
      }
      counts.updated++;
      mapRows.push({
        sourceId: ctx.sourceId,
        kind: entity.kind,
        sourceKey: u.key,
        companyId: u.companyId,
        targetId: u.entry.targetId,
        hash: u.hash,
        stamp: String(u.built.values.updatedAt ?? ctx.now),
      });
    }
  }
  if (entity.link) {
    for (const i of inserts) {
      await insertLinks(db, entity.table, [i.values]);
      done(i, 1);
    }
  } else await flush();
  await entity.afterBatch?.(db, ctx);
  await writeMap(db, mapRows);
  return inserted;
}
