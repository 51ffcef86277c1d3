import type { Database } from "../../db/client.ts";
import { iso } from "./engine.ts";
import { ENTITIES } from "./entities.ts";
import { importSources, mapCounts, mapped, rowById } from "./repository.ts";
import { Source } from "./source.ts";

/**
 * `--verify` (issue 47): for each company and table, the source's rows against the map's (each
 * source record is in the map, imported or skipped with its reason: a row added to the source
 * since the import is a difference), then a sample of tickets and messages compared field by
 * field with what we hold. Any difference: a non-zero exit.
 */
export type VerifyReport = { lines: string[]; differences: number };

const SAMPLE = 25;

export async function verifyImport(
  db: Database,
  from: string,
  only: number | "all",
): Promise<VerifyReport> {
  const source = await Source.open(from);
  const lines: string[] = [];
  let differences = 0;
  const differ = (line: string) => {
    differences++;
    lines.push(`DIFFERENCE ${line}`);
  };
  try {
    const info = source.info;
    lines.push(`source: ${info.system} ${info.version} (${info.fingerprint})`);
    const registered = (await importSources(db)).find((s) => s.fingerprint === info.fingerprint);
    if (!registered) {
      differ("this source was never imported into this database");
      return { lines, differences };
    }
    const sourceId = registered.id;
    const ourCompanies = await mapped(db, sourceId, "companies", ["community"]);
    const single = ourCompanies.get("community")?.targetId;
    const held = new Map<string, number>();
    for (const r of await mapCounts(db, sourceId)) {
      held.set(`${r.companyId}\u0000${r.kind}`, Number(r.rows));
    }
    const companyMap = new Map<string, number>();
    for (const entity of ENTITIES) {
      const ctx = {
        source,
        only,
        state: { multi: info.multiCompany, single },
        // deno-lint-ignore no-explicit-any
      } as any;
      const q = await entity.query(ctx);
      if (!q) continue;
      const groups = entity.kind === "companies" || entity.kind === "plans"
        ? await source.all(`SELECT 0 AS c, count(*)::int AS n FROM (${q.sql}) q`, q.params)
        : await source.all(
          `SELECT q."_company" AS c, count(*)::int AS n FROM (${q.sql}) q GROUP BY 1`,
          q.params,
        );
      if (entity.kind === "companies") {
        const rows = await source.all(`SELECT "id" FROM (${q.sql}) q`, q.params);
        const m = await mapped(db, sourceId, "companies", rows.map((r) => String(r.id)));
        for (const [k, v] of m) companyMap.set(k, v.targetId);
      }
      for (const g of groups) {
        const ours = entity.kind === "companies" || entity.kind === "plans"
          ? 0
          : info.multiCompany
          ? companyMap.get(String(g.c))
          : single;
        const have = held.get(`${ours}\u0000${entity.kind}`) ?? 0;
        const line = `company ${
          ours ?? `source ${g.c}`
        } ${entity.kind}: source ${g.n}, imported or skipped ${have}`;
        if (Number(g.n) !== have) differ(line);
        else lines.push(`ok ${line}`);
      }
    }
    differences += await sample(db, source, sourceId, lines);
    lines.push(
      differences === 0 ? "verify: no difference" : `verify: ${differences} difference(s)`,
    );
    return { lines, differences };
  } finally {
    await source.close();
  }
}

async function sample(db: Database, source: Source, sourceId: number, lines: string[]) {
  let differences = 0;
  const compare = (what: string, field: string, theirs: unknown, ours: unknown) => {
    if (String(theirs ?? "") !== String(ours ?? "")) {
      differences++;
      lines.push(`DIFFERENCE ${what} ${field}: source ${theirs} / Balcão ${ours}`);
    }
  };
  const ids = await source.all(
    `SELECT "id" FROM "Tickets" ORDER BY random() LIMIT ${SAMPLE}`,
  );
  const tickets = await mapped(db, sourceId, "tickets", ids.map((r) => String(r.id)));
  for (const [key, entry] of tickets) {
    if (entry.targetId === 0) continue;
    const [theirs] = await source.all(`SELECT * FROM "Tickets" WHERE "id" = $1`, [Number(key)]);
    const ours = await rowById(db, "tickets", entry.targetId);
    if (!theirs || !ours) continue;
    const what = `ticket ${key}`;
    compare(what, "lastMessage", theirs.lastMessage ?? "", ours.lastMessage);
    compare(what, "unreadMessages", theirs.unreadMessages ?? 0, ours.unreadMessages);
    compare(what, "createdAt", iso(theirs.createdAt), ours.createdAt);
    compare(what, "isGroup", theirs.isGroup ? 1 : 0, ours.isGroup);
  }
  const mids = await source.all(`SELECT "id" FROM "Messages" ORDER BY random() LIMIT ${SAMPLE}`);
  const messages = await mapped(db, sourceId, "messages", mids.map((r) => String(r.id)));
  for (const [key, entry] of messages) {
    if (entry.targetId === 0) continue;
    const [theirs] = await source.all(`SELECT * FROM "Messages" WHERE "id" = $1`, [key]);
    const ours = await rowById(db, "messages", entry.targetId);
    if (!theirs || !ours) continue;
    const what = `message ${key}`;
    if (!String(ours.body).startsWith("📎")) compare(what, "body", theirs.body, ours.body);
    compare(what, "fromMe", theirs.fromMe ? 1 : 0, ours.fromMe);
    compare(what, "ack", theirs.ack, ours.ack);
    compare(what, "isDeleted", theirs.isDeleted ? 1 : 0, ours.isDeleted);
    compare(what, "createdAt", iso(theirs.createdAt), ours.createdAt);
  }
  lines.push(`sampled ${tickets.size} tickets and ${messages.size} messages field by field`);
  return differences;
}
