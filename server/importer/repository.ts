import { CompiledQuery, sql } from "kysely";
import type { Database } from "../../db/client.ts";
import { isPostgres } from "../../db/engine.ts";
import type { DB, ImportMapTable } from "../../db/schema.ts";

/**
 * The importer's SQL on our side (issue 47): the source registry and its map, and the plain
 * inserts and updates of imported rows. Every write names the company its row belongs to; the
 * map and the source registry are the platform's (one import per database, every company).
 */

/**
 * Bound values per statement: below SQLite's 32,766 and PostgreSQL's 65,535. Fewer, bigger
 * statements are fewer trips to the database thread, which is where an import's time went.
 */
const MAX_PARAMS = 30_000;

/** Rows of `columns` values each that fit one statement (at most 500: bigger ones cost memory, not time). */
export const rowsPerStatement = (columns: number) =>
  Math.max(1, Math.min(500, Math.floor(MAX_PARAMS / Math.max(1, columns))));

export type MapEntry = { targetId: number; hash: string; stamp: string; companyId: number | null };

export async function importSources(db: Database) {
  return await db.selectFrom("import_sources").selectAll().orderBy("id").execute();
}

export async function registerSource(
  db: Database,
  info: { fingerprint: string; system: string; version: string },
  now: string,
): Promise<number> {
  const source = { fingerprint: info.fingerprint, system: info.system, version: info.version };
  const found = await db.selectFrom("import_sources").select("id")
    .where("fingerprint", "=", source.fingerprint).executeTakeFirst();
  if (found) {
    await db.updateTable("import_sources").set({ system: source.system, version: source.version })
      .where("id", "=", found.id).execute();
    return found.id;
  }
  const row = await db.insertInto("import_sources").values({ ...source, createdAt: now })
    .returning("id").executeTakeFirstOrThrow();
  return row.id;
}

export async function finishSource(db: Database, sourceId: number, now: string) {
  await db.updateTable("import_sources").set({ finishedAt: now }).where("id", "=", sourceId)
    .execute();
}

/**
 * A key list grown to the next power of two by repeating its last key (the same IN): a few SQL
 * texts instead of one per list length, each kept prepared by the database thread; a cache of
 * hundreds of 2,000-value statements took the importer past its memory target.
 */
function padded(keys: string[]): string[] {
  let size = 1;
  while (size < keys.length) size *= 2;
  return size === keys.length ? keys : [...keys, ...Array(size - keys.length).fill(keys.at(-1))];
}

/** The map rows of some source keys of one kind. */
export async function mapped(
  db: Database,
  sourceId: number,
  kind: string,
  keys: string[],
): Promise<Map<string, MapEntry>> {
  const out = new Map<string, MapEntry>();
  for (let i = 0; i < keys.length; i += 2048) {
    const rows = await db.selectFrom("import_map")
      .select(["sourceKey", "targetId", "hash", "stamp", "companyId"])
      .where("sourceId", "=", sourceId).where("kind", "=", kind)
      .where("sourceKey", "in", padded(keys.slice(i, i + 2048))).execute();
    for (const r of rows) out.set(r.sourceKey, r);
  }
  return out;
}

/** Whether the map holds any row of a kind of this source (imported or skipped). */
export async function anyMapped(db: Database, sourceId: number, kind: string): Promise<boolean> {
  return !!await db.selectFrom("import_map").select("targetId")
    .where("sourceId", "=", sourceId).where("kind", "=", kind).limit(1).executeTakeFirst();
}

const MAP_COLUMNS = ["sourceId", "kind", "sourceKey", "companyId", "targetId", "hash", "stamp"];
const MAP_UPSERT = `ON CONFLICT ("sourceId", "kind", "sourceKey") DO UPDATE SET
  "targetId" = excluded."targetId", "hash" = excluded."hash", "stamp" = excluded."stamp",
  "companyId" = excluded."companyId"`;

export async function writeMap(db: Database, rows: ImportMapTable[]) {
  const size = rowsPerStatement(7);
  for (let i = 0; i < rows.length; i += size) {
    const chunk = rows.slice(i, i + size) as unknown as Record<string, unknown>[];
    if (await plainInsert(db, "import_map", MAP_COLUMNS, chunk, MAP_UPSERT)) continue;
    await db.insertInto("import_map").values(rows.slice(i, i + size))
      .onConflict((oc) =>
        oc.columns(["sourceId", "kind", "sourceKey"]).doUpdateSet((eb) => ({
          targetId: eb.ref("excluded.targetId"),
          hash: eb.ref("excluded.hash"),
          stamp: eb.ref("excluded.stamp"),
          companyId: eb.ref("excluded.companyId"),
        }))
      ).execute();
  }
}

/** How many source records of a kind the map holds per company, imported and skipped. */
export async function mapCounts(db: Database, sourceId: number) {
  return await db.selectFrom("import_map")
    .select(["kind", "companyId"])
    .select((eb) => [
      eb.fn.countAll<number>().as("rows"),
      eb.fn.sum<number>(sql`targetId > 0`).as("imported"),
    ])
    .where("sourceId", "=", sourceId).groupBy(["kind", "companyId"]).execute();
}

type Table = keyof DB;

/** SQL texts of plain multi-row inserts, per table, columns, row count and tail. */
const insertTexts = new Map<string, string>();

/**
 * A multi-row insert written directly, without Kysely's builder, which cost the importer more
 * main-thread time than the database spent on the rows (issue 47: ~2,000 values a statement).
 * Only on libSQL (PostgreSQL's driver wants its own placeholders) and only for rows with exactly
 * `columns`, none undefined; otherwise false, and the caller goes through Kysely.
 */
async function plainInsert(
  db: Database,
  table: Table,
  columns: string[],
  rows: Record<string, unknown>[],
  tail: string,
): Promise<{ id: number }[] | false> {
  if (isPostgres(db)) return false;
  const params: unknown[] = [];
  for (const row of rows) {
    if (Object.keys(row).length !== columns.length) return false;
    for (const column of columns) {
      const value = row[column];
      if (value === undefined) return false;
      params.push(value);
    }
  }
  const shape = `${table}\u0000${columns.join(",")}\u0000${rows.length}\u0000${tail}`;
  let text = insertTexts.get(shape);
  if (!text) {
    const tuple = `(${columns.map(() => "?").join(", ")})`;
    text = `insert into "${table}" (${columns.map((c) => `"${c}"`).join(", ")}) values ${
      Array(rows.length).fill(tuple).join(", ")
    } ${tail}`;
    if (insertTexts.size > 200) insertTexts.clear();
    insertTexts.set(shape, text);
  }
  const result = await db.executeQuery<{ id: number }>(CompiledQuery.raw(text, params));
  return result.rows;
}

/** Inserts rows of one table; their ids in order. */
export async function insertRows(
  db: Database,
  table: Table,
  rows: Record<string, unknown>[],
): Promise<number[]> {
  if (rows.length === 0) return [];
  const ids: number[] = [];
  const size = rowsPerStatement(Object.keys(rows[0]).length);
  const columns = Object.keys(rows[0]);
  for (let i = 0; i < rows.length; i += size) {
    const plain = await plainInsert(db, table, columns, rows.slice(i, i + size), 'returning "id"');
    if (plain) {
      for (const r of plain) ids.push(Number(r.id));
      continue;
    }
    const out = await db.insertInto(table).values(
      // deno-lint-ignore no-explicit-any
      rows.slice(i, i + size) as any,
    )
      // deno-lint-ignore no-explicit-any
      .returning("id" as any).execute();
    for (const r of out) ids.push(Number((r as { id: number }).id));
  }
  return ids;
}

/** Inserts join rows (no id of their own); a duplicate is left as it is. */
export async function insertLinks(db: Database, table: Table, rows: Record<string, unknown>[]) {
  if (rows.length === 0) return;
  // deno-lint-ignore no-explicit-any
  await db.insertInto(table).values(rows as any).onConflict((oc) => oc.doNothing()).execute();
}

/** Updates one imported row of a company. */
export async function updateRow(
  db: Database,
  table: Table,
  companyId: number | null,
  id: number,
  values: Record<string, unknown>,
) {
  // deno-lint-ignore no-explicit-any
  let q = db.updateTable(table).set(values as any).where("id" as any, "=", id);
  // deno-lint-ignore no-explicit-any
  if (companyId !== null) q = q.where("companyId" as any, "=", companyId);
  await q.execute();
}

/** Our rows' updatedAt, to tell the ones changed in Balcão since the import. */
export async function updatedAts(
  db: Database,
  table: Table,
  ids: number[],
): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  if (ids.length === 0) return out;
  const rows = await db.selectFrom(table)
    // deno-lint-ignore no-explicit-any
    .select(["id" as any, "updatedAt" as any])
    // deno-lint-ignore no-explicit-any
    .where("id" as any, "in", ids).execute();
  for (const r of rows as { id: number; updatedAt: string }[]) out.set(r.id, r.updatedAt);
  return out;
}

export async function nameTaken(db: Database, table: "companies" | "plans", name: string) {
  return !!await db.selectFrom(table).select("id").where("name", "=", name).executeTakeFirst();
}

/** Whether another user (not `exceptId`, the one imported before) has this e-mail. */
export async function emailTaken(db: Database, email: string, exceptId: number | null) {
  let q = db.selectFrom("users").select("id").where("email", "=", email);
  if (exceptId !== null) q = q.where("id", "<>", exceptId);
  return !!await q.executeTakeFirst();
}

/** A non-closed ticket of this contact on this connection (tickets_one_open allows one). */
export async function openTicketOf(
  db: Database,
  companyId: number,
  contactId: number,
  whatsappId: number | null,
): Promise<number | undefined> {
  const row = await db.selectFrom("tickets").select("id")
    .where("companyId", "=", companyId).where("contactId", "=", contactId)
    .where("whatsappId", "is", whatsappId).where("status", "<>", "closed").executeTakeFirst();
  return row?.id;
}

export async function ticketConnections(
  db: Database,
  companyId: number,
  ids: number[],
): Promise<Map<number, number | null>> {
  const out = new Map<number, number | null>();
  if (ids.length === 0) return out;
  const rows = await db.selectFrom("tickets").select(["id", "whatsappId"])
    .where("companyId", "=", companyId).where("id", "in", ids).execute();
  for (const r of rows) out.set(r.id, r.whatsappId);
  return out;
}

type ClosedTicket = {
  companyId: number;
  id: number;
  createdAt: string;
  closedAt: string;
  userId: number | null;
  queueId: number | null;
  whatsappId: number | null;
};

/**
 * Tickets imported closed: the insert trigger records nothing for a ticket born closed (a send's
 * carrier), so their history is written here, through the same view the triggers use: created,
 * queued, accepted when they had a person, resolved at their close with the cycle's seconds.
 */
export async function recordClosedHistory(db: Database, tickets: ClosedTicket[]) {
  const facts = [];
  for (const t of tickets) {
    const seconds = Math.max(
      0,
      Math.round((Date.parse(t.closedAt) - Date.parse(t.createdAt)) / 1000),
    );
    const fact = (kind: string, at: string, secs: number | null) =>
      sql`(${t.companyId}, ${t.id}, ${kind}, ${at}, ${t.userId}, ${t.queueId}, ${t.whatsappId},
        NULL, NULL, ${secs}, NULL)`;
    facts.push(fact("created", t.createdAt, null));
    if (t.queueId !== null) facts.push(fact("queued", t.createdAt, null));
    if (t.userId !== null) facts.push(fact("accepted", t.createdAt, null));
    facts.push(fact("resolved", t.closedAt, seconds));
  }
  for (let i = 0; i < facts.length; i += 200) {
    await sql`INSERT INTO ticket_event_facts (companyId, ticketId, kind, at, userId, queueId,
      whatsappId, fromUserId, fromQueueId, seconds, value)
      VALUES ${sql.join(facts.slice(i, i + 200))}`.execute(db);
  }
}

export async function setQuoted(
  db: Database,
  companyId: number,
  quotes: { id: number; quotedMsgId: number }[],
) {
  for (const q of quotes) {
    await db.updateTable("messages").set({ quotedMsgId: q.quotedMsgId })
      .where("companyId", "=", companyId).where("id", "=", q.id).execute();
  }
}

/** Counts of our rows per company and table, for --verify. */
export async function countRows(db: Database, table: Table, companyId: number): Promise<number> {
  const row = await db.selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    // deno-lint-ignore no-explicit-any
    .where("companyId" as any, "=", companyId).executeTakeFirstOrThrow();
  return Number((row as { n: number }).n);
}

export async function rowById(db: Database, table: Table, id: number) {
  // deno-lint-ignore no-explicit-any
  return await db.selectFrom(table).selectAll().where("id" as any, "=", id).executeTakeFirst() as
    | Record<string, unknown>
    | undefined;
}
