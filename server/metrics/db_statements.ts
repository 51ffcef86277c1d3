import { Counter } from "prom-client";
import { registry } from "./registry.ts";

/**
 * Where the database thread's time goes (issue 49): seconds each kind of statement waited in the
 * thread's queue and ran on it, by its verb and first table ("select tickets", "insert
 * messages"). A queue that a burst fills (an import's writes, a campaign's batch) shows here as
 * the wait of everything else.
 */
export const dbStatementSeconds = new Counter({
  name: "balcao_db_statement_seconds_total",
  help: "Seconds statements waited for the database thread (part=wait) and ran on it (part=run), " +
    "by verb and first table.",
  labelNames: ["statement", "part"] as const,
  registers: [registry],
});

const kinds = new Map<string, string>();
const VERB = /^\s*(select|insert|update|delete|with|pragma|create|drop|alter)\b/i;
const TABLE = /\b(?:from|into|update)\s+"?([A-Za-z_][A-Za-z0-9_]*)"?/i;

/** "verb table" of a statement (remembered per SQL text: the texts are few, the calls many). */
export function statementKind(sql: string): string {
  let kind = kinds.get(sql);
  if (kind !== undefined) return kind;
  const verb = VERB.exec(sql)?.[1]?.toLowerCase() ?? "other";
  const table = TABLE.exec(sql)?.[1] ?? "";
  kind = table ? `${verb} ${table}` : verb;
  // SQL built per call (an IN list of a varying length) must not grow the map without end.
  if (kinds.size < 5000) kinds.set(sql, kind);
  return kind;
}

export function observeStatement(sql: string, waitedMs: number, ranMs: number) {
  const statement = statementKind(sql);
  dbStatementSeconds.inc({ statement, part: "wait" }, Math.max(0, waitedMs) / 1000);
  dbStatementSeconds.inc({ statement, part: "run" }, ranMs / 1000);
}
