import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import type { Help, HelpsTable } from "../../db/schema.ts";
import type { Insertable, Updateable } from "kysely";
import { likePattern, pageWindow } from "../paging.ts";

/** SQL of the platform's help videos (one list for every company). */

/** Is the title used by another help (case-insensitively)? */
export async function titleTaken(db: Database, title: string, exceptId?: number) {
  let q = db.selectFrom("helps").select("id").where(
    (eb) => eb(eb.fn("lower", ["title"]), "=", title.toLowerCase()),
  );
  if (exceptId !== undefined) q = q.where("id", "!=", exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

export async function allHelps(db: Database): Promise<Help[]> {
  return await db.selectFrom("helps").selectAll().orderBy("title").orderBy("id").execute();
}

/** A page by title, `searchParam` on title and description. */
export async function pageHelpRows(
  db: Database,
  searchParam: string | undefined,
  pageNumber: number,
) {
  const window = pageWindow(pageNumber);
  const text = searchParam?.trim();
  let rows = db.selectFrom("helps").selectAll();
  let counted = db.selectFrom("helps").select((eb) => eb.fn.countAll<number>().as("n"));
  if (text) {
    const like = sql<boolean>`(title LIKE ${likePattern(text)} ESCAPE '\\'
      OR description LIKE ${likePattern(text)} ESCAPE '\\')`;
    rows = rows.where(like);
    counted = counted.where(like);
  }
  const [list, total] = await Promise.all([
    rows.orderBy("title").orderBy("id").limit(window.limit).offset(window.offset).execute(),
    counted.executeTakeFirstOrThrow(),
  ]);
  return { rows: list, count: Number(total.n), window };
}

export async function insertHelp(db: Database, values: Insertable<HelpsTable>): Promise<Help> {
  return await db.insertInto("helps").values(values).returningAll().executeTakeFirstOrThrow();
}

export async function updateHelp(
  db: Database,
  id: number,
  values: Updateable<HelpsTable>,
): Promise<Help | undefined> {
  return await db.updateTable("helps").set(values).where("id", "=", id).returningAll()
    .executeTakeFirst();
}

/** Whether a row was deleted. */
export async function deleteHelp(db: Database, id: number): Promise<boolean> {
  const result = await db.deleteFrom("helps").where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
