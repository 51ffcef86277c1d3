/**
 * Recognises constraint failures of either engine (issue 46), so that services can answer a race
 * on a unique key (two requests creating the same contact) with the same error as the check
 * before the insert. SQLite says it in text ("UNIQUE constraint failed: contacts.companyId,
 * contacts.number"); PostgreSQL by SQLSTATE (23505 unique, 23503 foreign key) with the table and
 * the key's columns in the detail ("Key ("companyId", number)=(1, 55) already exists."). Both are
 * read here into the same names, `table.column`, which is what callers ask about.
 */
type Violation = { kind: "unique" | "foreign_key"; names: string[] };

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = error; e && chain.length < 5; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}

function violationOf(error: unknown): Violation | undefined {
  for (const e of causes(error)) {
    if (typeof e !== "object" || e === null) continue;
    const pg = e as { code?: unknown; table?: unknown; detail?: unknown };
    if (pg.code === "23505" || pg.code === "23503") {
      const table = typeof pg.table === "string" ? pg.table : "";
      const key = /\(([^)]*)\)=/.exec(typeof pg.detail === "string" ? pg.detail : "")?.[1] ?? "";
      const columns = key.split(",").map((c) => c.trim().replace(/^"|"$/g, "")).filter(Boolean);
      return {
        kind: pg.code === "23505" ? "unique" : "foreign_key",
        names: [table, ...columns.map((column) => `${table}.${column}`)],
      };
    }
  }
  const text = causes(error).map((e) =>
    e instanceof Error ? e.message : typeof e === "string" ? e : ""
  ).join(" ");
  const unique = /UNIQUE constraint failed: ([^\n]*)/i.exec(text);
  if (unique) {
    const names = unique[1].split(",").map((n) => n.trim());
    return { kind: "unique", names: [...names, ...names.map((n) => n.split(".")[0])] };
  }
  if (/FOREIGN KEY constraint failed/i.test(text)) return { kind: "foreign_key", names: [] };
  return undefined;
}

/**
 * A unique key refused the write; with `columns` ("contacts.number", or a table's name alone),
 * only when the key covers each of them.
 */
export function isUniqueViolation(error: unknown, ...columns: string[]): boolean {
  const violation = violationOf(error);
  if (violation?.kind !== "unique") return false;
  return columns.every((column) => violation.names.includes(column));
}

/** A foreign key refused the write (a row it names is gone). */
export function isForeignKeyViolation(error: unknown): boolean {
  return violationOf(error)?.kind === "foreign_key";
}
