/**
 * Where a statement runs: `tx` inside the open transaction (on the writer); `read` on the reader
 * connection, which sees the last commit and never waits for a transaction; `write` on the writer
 * once no transaction is open.
 */
export type Scope = "tx" | "read" | "write";

/** Messages between db/dialect.ts (main thread) and db/worker.ts (the database thread). */
export type DbRequest =
  | { id: number; op: "open"; url: string; authToken?: string; pragmas: string[] }
  | { id: number; op: "execute"; scope: Scope; sql: string; args: readonly unknown[] }
  | { id: number; op: "begin" | "commit" | "rollback" | "close" };

export type DbError = { name: string; message: string; code?: string; cause?: string };

export type DbReply =
  | {
    id: number;
    ok: true;
    columns?: string[];
    rows?: unknown[][];
    lastInsertRowid?: bigint;
    rowsAffected?: number;
    /** Milliseconds the statement ran on the thread (its wait in the queue is the rest). */
    ranMs?: number;
  }
  | { id: number; ok: false; error: DbError };
