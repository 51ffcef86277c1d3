import { type Compilable, CompiledQuery } from "kysely";
import type { Database } from "./client.ts";

/**
 * Runs a SELECT and returns its rows fetched as ONE JSON text cell (json_group_array of
 * json_object), parsed in JavaScript.
 *
 * Why: @libsql/client turns every cell into a JavaScript value through the native boundary, at
 * several microseconds per cell; a page of 40 ticket views (27 columns) cost 3-10 ms that way and
 * under 1 ms as one JSON cell (measured on the 100,000-ticket benchmark, tests/bench). Use it for
 * wide result sets on hot paths; `columns` are the query's selected names (aliases), which become
 * the keys. Row order is not kept (an aggregate's input order is unspecified): callers sort.
 * Integers, text and NULL come back as they are; columns named in `jsonColumns` hold JSON text
 * and are embedded as JSON (arrays, objects) instead of strings.
 */
export async function jsonRows<R>(
  db: Database,
  query: Compilable<unknown> | CompiledQuery<unknown>,
  columns: readonly (keyof R & string)[],
  jsonColumns: readonly (keyof R & string)[] = [],
): Promise<R[]> {
  const compiled = "compile" in query ? query.compile() : query;
  const pairs = columns.map((c) => {
    const ref = `"${c.replaceAll('"', '""')}"`;
    return `'${c.replaceAll("'", "''")}', ${jsonColumns.includes(c) ? `json(${ref})` : ref}`;
  });
  const wrapped = CompiledQuery.raw(
    `SELECT json_group_array(json_object(${pairs.join(", ")})) AS rows FROM (${compiled.sql})`,
    [...compiled.parameters],
  );
  const result = await db.executeQuery<{ rows: string | null }>(wrapped);
  const text = result.rows[0]?.rows;
  return text ? JSON.parse(text) as R[] : [];
}
