import type { Database } from "../../../db/client.ts";
import type { MediaConfig } from "../../media/store.ts";
import { type Context, type Entity, iso } from "../engine.ts";
import { nameTaken } from "../repository.ts";
import type { Row } from "../source.ts";

/**
 * What the entity files share (issue 47): value readers, the company of a source row, and the
 * usual shapes of a source query and of an entity. The rules are README's 'Switching from
 * Whaticket or ticketz'.
 */

export const str = (v: unknown, fallback = ""): string =>
  v === null || v === undefined ? fallback : String(v);
export const flag = (v: unknown): 0 | 1 => v === true || v === 1 || v === "1" || v === "t" ? 1 : 0;
export const json = (v: unknown): string =>
  v === null || v === undefined ? "[]" : typeof v === "string" ? v : JSON.stringify(v);
export const num = (v: unknown, fallback = 0): number =>
  v === null || v === undefined || Number.isNaN(Number(v)) ? fallback : Number(v);

export type State = {
  multi: boolean;
  /** whaticket-community: the one company everything goes to. */
  single?: number;
  media?: { dir: string; config: MediaConfig };
  pendingQuotes?: { self: string; quoted: string; companyId: number }[];
};

export const state = (ctx: Context) => ctx.state as State;

/** The SaaS line's company column, or nothing (community has one company). */
export const companyCol = (ctx: Context, alias: string) =>
  state(ctx).multi ? `${alias}."companyId"` : "NULL::int";

/** WHERE for --company: only that source company's rows. */
export function only(ctx: Context, alias: string): { where: string; params: unknown[] } {
  if (!state(ctx).multi || ctx.only === "all") return { where: "TRUE", params: [] };
  return { where: `${alias}."companyId" = $1`, params: [ctx.only] };
}

export function companyOf(ctx: Context, sourceCompany: unknown): number | undefined {
  const s = state(ctx);
  if (!s.multi) return s.single;
  if (sourceCompany === null || sourceCompany === undefined) return undefined;
  return ctx.fresh.get("companies")?.get(String(sourceCompany));
}

export const byCompany = (row: Row, ctx: Context) => companyOf(ctx, row._company ?? row.companyId);

export const stamps = (row: Row, now: string) => {
  const createdAt = iso(row.createdAt) ?? now;
  return { createdAt, updatedAt: iso(row.updatedAt) ?? createdAt };
};

/** A free name: the source's, else "<name> (importada)", "(importada 2)"... */
export async function freeName(db: Database, table: "companies" | "plans", name: string) {
  if (!await nameTaken(db, table, name)) return name;
  for (let n = 1;; n++) {
    const candidate = n === 1 ? `${name} (importada)` : `${name} (importada ${n})`;
    if (!await nameTaken(db, table, candidate)) return candidate;
  }
}

type Query = { sql: string; params: unknown[] };

/** A table with its own company column, read whole (the --company's rows), in id order. */
export function simple(ctx: Context, table: string, alias: string, extra = ""): Query {
  const o = only(ctx, alias);
  return {
    sql: `SELECT ${alias}.*, ${
      companyCol(ctx, alias)
    } AS "_company" FROM "${table}" ${alias} ${extra} WHERE ${o.where} ORDER BY ${alias}."id"`,
    params: o.params,
  };
}

/** Rows of a table without a company column, with their parent's company. */
export function withParent(
  ctx: Context,
  table: string,
  alias: string,
  parent: string,
  col: string,
): Query {
  const o = only(ctx, "p");
  return {
    sql: `SELECT ${alias}.*, ${companyCol(ctx, "p")} AS "_company" FROM "${table}" ${alias}
      JOIN "${parent}" p ON p."id" = ${alias}."${col}" WHERE ${o.where} ORDER BY ${alias}."id"`,
    params: o.params,
  };
}

/**
 * A source table read whole, or nothing when this source's version has no such table (a
 * whaticket-community has no Tags, an old SaaS no Campaigns): the query most entities use.
 */
export const optional =
  (table: string, alias: string, parent?: [string, string]) =>
  async (ctx: Context): Promise<Query | null> => {
    if (!await ctx.source.hasTable(table)) return null;
    return parent ? withParent(ctx, table, alias, parent[0], parent[1]) : simple(ctx, table, alias);
  };

/** The usual entity: a source table with an `id`, our table named as its kind, its own company. */
export function tableEntity(
  spec: Omit<Entity, "key" | "company" | "table"> & Partial<Pick<Entity, "key" | "company">>,
): Entity {
  return {
    key: (r) => String(r.id),
    company: byCompany,
    table: spec.kind as Entity["table"],
    ...spec,
  };
}

/**
 * A join table (two ids, no id of its own), read with its parent's company; both ends must be
 * imported, else the link is skipped with `why`.
 */
export function linkEntity(
  kind: string,
  source: { table: string; parent: string; parentCol: string; optional?: boolean },
  ends: [col: string, kind: string, name: string][],
  why: string,
): Entity {
  const cols = ends.map(([col]) => col);
  return {
    kind,
    table: kind as Entity["table"],
    link: true,
    query: async (ctx) => {
      if (source.optional && !await ctx.source.hasTable(source.table)) return null;
      const o = only(ctx, "p");
      return {
        sql: `SELECT ${cols.map((c) => `l."${c}"`).join(", ")}, ${
          companyCol(ctx, "p")
        } AS "_company" FROM "${source.table}" l JOIN "${source.parent}" p
          ON p."id" = l."${source.parentCol}"
          WHERE ${o.where} ORDER BY ${cols.map((c) => `l."${c}"`).join(", ")}`,
        params: o.params,
      };
    },
    key: (r) => cols.map((c) => r[c]).join("-"),
    company: byCompany,
    refs: (r) => Object.fromEntries(ends.map(([col, k, name]) => [name, [k, r[col]]])),
    build: (_row, _ctx, refs, companyId) => {
      const values: Record<string, unknown> = { companyId };
      for (const [, , name] of ends) {
        const id = refs.get(name);
        if (id === null) return { skip: why };
        values[name] = id;
      }
      return { values };
    },
  };
}
