import type { Database } from "../../db/client.ts";
import type { MediaConfig } from "../media/store.ts";
import { seedCompanySettings } from "../seed.ts";
import { type Context, type Counts, countsOf, runEntity } from "./engine.ts";
import { ENTITIES } from "./entities.ts";
import type { Progress } from "./progress.ts";
import {
  finishSource,
  importSources,
  insertRows,
  mapped,
  nameTaken,
  registerSource,
  writeMap,
} from "./repository.ts";
import { Source, type SourceInfo } from "./source.ts";

/**
 * `balcao import whaticket` (issue 47): reads a Whaticket / ticketz database and writes it into
 * ours, batch by batch (engine.ts), table by table (entities.ts). Refuses, before writing
 * anything, a source it does not know and a second source database.
 */

export type ImportOptions = {
  from: string;
  media?: string;
  company: number | "all";
  dryRun: boolean;
  mediaConfig: MediaConfig;
  say: (line: string) => void;
  progress: Progress;
  now?: () => Date;
  /** Derived tables filled per batch (the default) or by the row triggers (the bench's other way). */
  derivedBy?: "batch" | "rows";
  /** Runs once the source is known good and before the first write (not on a dry run). */
  prepare?: () => Promise<void>;
};

export class ImportRefused extends Error {}

export type ImportResult = {
  info: SourceInfo;
  counts: { company: string; kind: string; counts: Counts }[];
  notes: string[];
};

class DryRunDone extends Error {}

export async function describeSource(from: string): Promise<SourceInfo> {
  const source = await Source.open(from);
  await source.close();
  return source.info;
}

/** The source this database was imported from already, when it is another one. */
async function assertSameSource(db: Database, info: SourceInfo) {
  const others = (await importSources(db)).filter((s) => s.fingerprint !== info.fingerprint);
  if (others.length > 0) {
    throw new ImportRefused(
      `this Balcão database was imported from another source database (${others[0].fingerprint}, ${
        others[0].system
      }); refusing to mix a second one (${info.fingerprint}): nothing was written`,
    );
  }
}

const COMMUNITY_COMPANY = "Whaticket";

export async function runImport(db: Database, options: ImportOptions): Promise<ImportResult> {
  const source = await Source.open(options.from);
  try {
    const info = source.info;
    options.say(`source: ${info.system} ${info.version} (${info.fingerprint})`);
    await assertSameSource(db, info);
    if (!options.dryRun) await options.prepare?.();
    const now = (options.now?.() ?? new Date()).toISOString();
    const run = async (write: Database, unit: Context["unit"]) => {
      const sourceId = await unit((trx) => registerSource(trx, info, now));
      const ctx: Context = {
        source,
        sourceId,
        now,
        only: options.company,
        fresh: new Map(),
        counts: new Map(),
        notes: [],
        note(companyId, kind, what) {
          const c = countsOf(ctx, companyId, kind);
          c.notes[what] = (c.notes[what] ?? 0) + 1;
        },
        unit,
        db: write,
        progress: options.progress,
        derivedBy: options.derivedBy ?? "batch",
        companyName: new Map(),
        state: {
          multi: info.multiCompany,
          media: options.media ? { dir: options.media, config: options.mediaConfig } : undefined,
        },
      };
      if (!info.multiCompany) {
        ctx.state.single = await unit((trx) => communityCompany(trx, ctx));
      }
      for (const entity of ENTITIES) await runEntity(ctx, entity);
      await unit((trx) => finishSource(trx, sourceId, now));
      return ctx;
    };
    let ctx: Context;
    if (options.dryRun) {
      let seen: Context | undefined;
      await db.transaction().execute(async (trx) => {
        seen = await run(trx, (work) => work(trx));
        throw new DryRunDone();
      }).catch((error) => {
        if (!(error instanceof DryRunDone)) throw error;
      });
      ctx = seen!;
    } else {
      ctx = await run(db, (work) => db.transaction().execute(work));
    }
    return { info, counts: await labelled(db, ctx, options.dryRun), notes: ctx.notes };
  } finally {
    await source.close();
  }
}

/** whaticket-community has no companies: everything goes to one new company. */
async function communityCompany(db: Database, ctx: Context): Promise<number> {
  const known = (await mapped(db, ctx.sourceId, "companies", ["community"])).get("community");
  if (known && known.targetId > 0) return known.targetId;
  let name = COMMUNITY_COMPANY;
  for (let n = 1; await nameTaken(db, "companies", name); n++) {
    name = n === 1 ? `${COMMUNITY_COMPANY} (importada)` : `${COMMUNITY_COMPANY} (importada ${n})`;
  }
  if (name !== COMMUNITY_COMPANY) {
    ctx.notes.push(`company "${COMMUNITY_COMPANY}" imported as "${name}"`);
  }
  const [planId] = await insertRows(db, "plans", [{
    name: await freePlanName(db),
    users: 0,
    connections: 0,
    queues: 0,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  }]);
  const [id] = await insertRows(db, "companies", [{
    name,
    email: null,
    phone: null,
    planId,
    status: 1,
    dueDate: null,
    recurrence: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  }]);
  await seedCompanySettings(db, id, ctx.now);
  await writeMap(db, [{
    sourceId: ctx.sourceId,
    kind: "companies",
    sourceKey: "community",
    companyId: id,
    targetId: id,
    hash: "community",
    stamp: ctx.now,
  }]);
  countsOf(ctx, id, "companies").imported++;
  return id;
}

async function freePlanName(db: Database) {
  let name = COMMUNITY_COMPANY;
  for (let n = 2; await nameTaken(db, "plans", name); n++) name = `${COMMUNITY_COMPANY} ${n}`;
  return name;
}

async function labelled(db: Database, ctx: Context, dryRun: boolean) {
  const names = new Map<string, string>();
  for (const label of ctx.counts.keys()) {
    const id = label.split("\u0000")[0];
    if (id === "-" || id === "0" || names.has(id)) continue;
    const row = dryRun ? undefined : await companyName(db, Number(id));
    names.set(id, row ?? `company ${id}`);
  }
  return [...ctx.counts.entries()].map(([label, counts]) => {
    const [id, kind] = label.split("\u0000");
    return { company: names.get(id) ?? "(platform)", kind, counts };
  });
}

async function companyName(db: Database, id: number): Promise<string | undefined> {
  const { findCompany } = await import("../companies/repository.ts");
  return (await findCompany(db, id))?.name;
}

/** The summary as lines: per company and table, read / imported / updated / unchanged / skipped. */
export function summaryLines(result: ImportResult, dryRun: boolean): string[] {
  const lines = [dryRun ? "dry run: nothing was written" : "import finished"];
  let company = "";
  for (const { company: c, kind, counts } of result.counts) {
    if (c !== company) lines.push(`${company = c}:`);
    const skipped = Object.entries(counts.skipped).map(([why, n]) => `${n} ${why}`);
    const notes = Object.entries(counts.notes).map(([what, n]) => `${n} ${what}`);
    lines.push(
      `  ${kind}: read ${counts.read}, imported ${counts.imported}, updated ${counts.updated}, unchanged ${counts.unchanged}, skipped ${
        Object.values(counts.skipped).reduce((a, b) => a + b, 0)
      }${skipped.length ? ` (${skipped.join("; ")})` : ""}${
        notes.length ? `; ${notes.join("; ")}` : ""
      }`,
    );
  }
  for (const note of result.notes) lines.push(`note: ${note}`);
  return lines;
}
