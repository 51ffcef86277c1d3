import { type SelectQueryBuilder, sql } from "kysely";
import { likePattern, type PageWindow } from "./paging.ts";

/**
 * The paged read the by-name lists share (file lists, queue integrations, webhooks, a contact
 * list's items): `q` already names the company (and any other filter); the rows come by name,
 * then id (two rows of one name keep one order from page to page), with the count of all of them.
 */
export async function pageByName<DB, TB extends keyof DB, O>(
  q: SelectQueryBuilder<DB, TB, O>,
  window: PageWindow,
) {
  const rows = await q.selectAll().orderBy(sql`name`).orderBy(sql`id`).limit(window.limit)
    .offset(window.offset).execute();
  // The cast names what a count selects, which Kysely cannot work out for a table left generic.
  const total = await q.select((eb) => eb.fn.countAll<number>().as("n")).$castTo<{ n: number }>()
    .executeTakeFirstOrThrow();
  return { rows, count: Number(total.n) };
}

/** `q` kept to the rows whose name holds `searchParam` (trimmed; none or blank: every row). */
export function nameHolds<DB, TB extends keyof DB, O>(
  q: SelectQueryBuilder<DB, TB, O>,
  searchParam: string | undefined,
): SelectQueryBuilder<DB, TB, O> {
  const text = searchParam?.trim();
  return text ? q.where(sql<boolean>`name LIKE ${likePattern(text)} ESCAPE '\\'`) : q;
}
