import { centsOf } from "../../../contract/money.ts";
import { seedCompanySettings } from "../../seed.ts";
import { DEFAULT_SETTINGS } from "../../settings/defaults.ts";
import { upsertSetting } from "../../settings/repository.ts";
import { type Entity, iso } from "../engine.ts";
import { flag, freeName, json, only, simple, stamps, state, str, tableEntity } from "./shared.ts";

/** The platform's records (issue 47): plans, companies and each company's settings. */

export const PLANS: Entity = {
  kind: "plans",
  table: "plans",
  query: async (ctx) =>
    state(ctx).multi && await ctx.source.hasTable("Plans")
      ? {
        sql: ctx.only === "all"
          ? `SELECT * FROM "Plans" ORDER BY "id"`
          : `SELECT p.* FROM "Plans" p WHERE p."id" IN (SELECT "planId" FROM "Companies" WHERE "id" = $1) ORDER BY p."id"`,
        params: ctx.only === "all" ? [] : [ctx.only],
      }
      : null,
  key: (r) => String(r.id),
  company: () => 0,
  build: async (row, ctx) => {
    const name = await freeName(ctx.db, "plans", str(row.name, "Plano"));
    if (name !== row.name) ctx.notes.push(`plan "${row.name}" imported as "${name}"`);
    const flags = (col: string) => (col in row ? flag(row[col]) : 1);
    return {
      values: {
        name,
        users: Number(row.users ?? 0),
        connections: Number(row.connections ?? 0),
        queues: Number(row.queues ?? 0),
        valueCents: centsOf(Number(row.value ?? 0)),
        useCampaigns: flags("useCampaigns"),
        useSchedules: flags("useSchedules"),
        useInternalChat: flags("useInternalChat"),
        useExternalApi: flags("useExternalApi"),
        useKanban: flags("useKanban"),
        useOpenAi: flags("useOpenAi"),
        useIntegrations: flags("useIntegrations"),
        ...stamps(row, ctx.now),
      },
    };
  },
};

export const COMPANIES: Entity = {
  kind: "companies",
  table: "companies",
  query: (ctx) =>
    Promise.resolve(
      state(ctx).multi
        ? {
          sql: `SELECT * FROM "Companies" c WHERE ${
            only(ctx, "c").where.replace(`c."companyId"`, `c."id"`)
          } ORDER BY "id"`,
          params: only(ctx, "c").params,
        }
        : null,
    ),
  key: (r) => String(r.id),
  company: () => 0,
  refs: (r) => ({ plan: ["plans", r.planId] }),
  build: async (row, ctx, refs) => {
    const name = await freeName(ctx.db, "companies", str(row.name, "Empresa"));
    if (name !== row.name) ctx.notes.push(`company "${row.name}" imported as "${name}"`);
    const due = iso(row.dueDate);
    return {
      values: {
        name,
        email: row.email ?? null,
        phone: row.phone ?? null,
        planId: refs.get("plan"),
        status: row.status === false ? 0 : 1,
        dueDate: due ? due.slice(0, 10) : null,
        recurrence: row.recurrence ? String(row.recurrence) : null,
        schedules: json(row.schedules),
        ...stamps(row, ctx.now),
      },
      after: (db, id) => seedCompanySettings(db, id, ctx.now),
    };
  },
};

/** The settings Balcão has (others, e.g. a fork's own, are skipped and counted). */
export const SETTINGS: Entity = tableEntity({
  kind: "settings",
  query: (ctx) =>
    Promise.resolve(
      state(ctx).multi ? simple(ctx, "Settings", "s") : {
        sql: `SELECT s.*, NULL::int AS "_company" FROM "Settings" s ORDER BY s."key"`,
        params: [],
      },
    ),
  key: (r) => String(r.id ?? r.key),
  oneByOne: true,
  // The company's defaults are there already (seeded with it): the source's value replaces them.
  insert: async (db, values) =>
    (await upsertSetting(
      db,
      values.companyId as number,
      values.key as string,
      values.value as string,
      values.updatedAt as string,
    )).id,
  build: (row, ctx, _refs, companyId) => {
    const key = str(row.key);
    if (!(key in DEFAULT_SETTINGS)) return { skip: "no such setting in Balcão" };
    return {
      values: { companyId, key, value: str(row.value), ...stamps(row, ctx.now) },
    };
  },
});
