/// <reference lib="deno.worker" />
/**
 * The database thread. SQLite runs synchronously inside libsql's native binding, so on the main
 * thread every query's execution (and its page writes at commit) would stop the event loop: no
 * socket frame leaves and no request is parsed meanwhile. Here it runs on a thread of its own,
 * the second core of a small VPS, and the main thread only posts the SQL and reads the rows.
 *
 * Requests run one after another, in the order they arrive, so nothing on this thread ever waits
 * on SQLite's busy handler. While a transaction is open, plain writes wait here until it ends;
 * reads go on (on a local file, on a second, read-only connection).
 */
import type { Client, InArgs, Transaction } from "@libsql/client";
import Database from "libsql";
import type { DbReply, DbRequest, Scope } from "./worker_protocol.ts";

type Result = {
  columns: string[];
  rows: unknown[][];
  lastInsertRowid?: bigint;
  rowsAffected: number;
};

interface Engine {
  execute(scope: Scope, sql: string, args: readonly unknown[]): Promise<Result> | Result;
  begin(): Promise<void> | void;
  commit(): Promise<void> | void;
  rollback(): Promise<void> | void;
  readonly inTransaction: boolean;
  readonly hasReader: boolean;
  close(): void;
}

/**
 * Statements that change what a kept statement answers. A trigger's DROP or CREATE is not one
 * (the importer suspends triggers per batch): SQLite prepares the kept statements again by itself,
 * and dropping them here left their native memory to the garbage collector, which the small JS
 * wrappers never prompt (issue 47: the import's RSS grew by hundreds of MB).
 */
const SCHEMA_CHANGE = /^\s*(ALTER\b|(CREATE|DROP)\s+(?!(TEMP\s+|TEMPORARY\s+)?TRIGGER\b))/i;

type Prepared = { statement: Database.Statement; returnsData: boolean; columns: string[] };

/**
 * A local file through libsql directly, with prepared statements kept per SQL text:
 * @libsql/client prepares every statement again on each call, and parsing and planning the
 * pipeline's larger queries cost more than running them.
 */
class LocalEngine implements Engine {
  readonly #writer: Database.Database;
  readonly #reader?: Database.Database;
  readonly #statements = new Map<Database.Database, Map<string, Prepared>>();
  #open = false;
  /** The error with which SQLite ended the open transaction by itself (see execute). */
  #aborted: unknown;

  constructor(path: string, pragmas: string[]) {
    this.#writer = new Database(path);
    for (const pragma of pragmas) this.#writer.exec(pragma);
    // A second connection to ':memory:' would be another, empty database.
    if (path !== ":memory:") {
      this.#reader = new Database(path);
      for (const pragma of pragmas.filter((p) => !/journal_mode/i.test(p))) {
        this.#reader.exec(pragma);
      }
      this.#reader.exec("PRAGMA query_only = 1");
    }
  }

  get inTransaction() {
    return this.#open;
  }
  get hasReader() {
    return this.#reader !== undefined;
  }

  #prepare(db: Database.Database, sql: string): Prepared {
    let cache = this.#statements.get(db);
    if (!cache) this.#statements.set(db, cache = new Map());
    let prepared = cache.get(sql);
    if (prepared) {
      // Most recently used last: the first entry is the one to drop when the cache is full.
      cache.delete(sql);
      cache.set(sql, prepared);
      return prepared;
    }
    const statement = db.prepare(sql);
    let returnsData = true;
    try {
      statement.raw(true);
    } catch {
      returnsData = false; // raw() refuses statements that return nothing
    }
    const columns = returnsData ? statement.columns().map((c: { name: string }) => c.name) : [];
    prepared = { statement, returnsData, columns };
    cache.set(sql, prepared);
    if (cache.size > 500) cache.delete(cache.keys().next().value!);
    return prepared;
  }

  execute(scope: Scope, sql: string, args: readonly unknown[]): Result {
    if (scope !== "tx" || !this.#open) return this.#execute(scope, sql, args);
    // SQLite ends a transaction by itself on some errors (SQLITE_FULL, SQLITE_IOERR, ...): what
    // the transaction still sends must not run on its own, in autocommit, and its COMMIT must
    // fail with the error that ended it (a full disk is 507, not "no transaction is active").
    if (this.#aborted) throw this.#aborted;
    try {
      return this.#execute(scope, sql, args);
    } catch (error) {
      if (!this.#writer.inTransaction) this.#aborted = error;
      throw error;
    }
  }

  #execute(scope: Scope, sql: string, args: readonly unknown[]): Result {
    // A read goes to the reader only while a transaction holds the writer: the writer's page
    // cache stays warm, while the reader's is dropped at every commit of the writer.
    const db = scope === "read" && this.#open && this.#reader ? this.#reader : this.#writer;
    const prepared = this.#prepare(db, sql);
    const values = args.map(toSql);
    if (prepared.returnsData) {
      const rows = prepared.statement.all(values) as unknown[][];
      for (const row of rows) {
        for (let i = 0; i < row.length; i++) {
          const value = row[i];
          if (value instanceof Uint8Array) row[i] = toArrayBuffer(value);
        }
      }
      return { columns: prepared.columns, rows, rowsAffected: 0 };
    }
    const info = prepared.statement.run(values);
    // A schema change can change what a kept statement answers (`SELECT *` after a column is
    // dropped): SQLite prepares it again by itself, but the column names kept beside it would be
    // the old ones. Every connection's statements are prepared anew after one.
    if (SCHEMA_CHANGE.test(sql)) this.#statements.clear();
    return {
      columns: [],
      rows: [],
      rowsAffected: info.changes,
      lastInsertRowid: BigInt(info.lastInsertRowid),
    };
  }

  begin() {
    this.#writer.exec("BEGIN IMMEDIATE");
    this.#open = true;
    this.#aborted = undefined;
  }
  commit() {
    const aborted = this.#aborted;
    this.#aborted = undefined;
    try {
      if (aborted) throw aborted;
      this.#writer.exec("COMMIT");
    } catch (error) {
      if (this.#writer.inTransaction) this.#writer.exec("ROLLBACK");
      throw error;
    } finally {
      this.#open = false;
    }
  }
  rollback() {
    this.#open = false;
    this.#aborted = undefined;
    if (this.#writer.inTransaction) this.#writer.exec("ROLLBACK");
  }
  close() {
    this.#writer.close();
    this.#reader?.close();
  }
}

function toSql(value: unknown): unknown {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value instanceof Date) return value.valueOf();
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (value === undefined) throw new TypeError("undefined cannot be passed to the database");
  if (typeof value === "number" && !Number.isFinite(value)) {
    throw new RangeError("only finite numbers can be passed to the database");
  }
  return value;
}

function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

/**
 * A remote libSQL server (libsql://, https://) through @libsql/client, which is imported only
 * then: a local file does not need it (issue 33, the database thread's memory).
 */
class RemoteEngine implements Engine {
  readonly #client: Client;
  #transaction?: Transaction;
  constructor(client: Client) {
    this.#client = client;
  }
  get inTransaction() {
    return this.#transaction !== undefined;
  }
  get hasReader() {
    return false;
  }
  async execute(scope: Scope, sql: string, args: readonly unknown[]): Promise<Result> {
    const target = scope === "tx" && this.#transaction ? this.#transaction : this.#client;
    const result = await target.execute({ sql, args: args as InArgs });
    const width = result.columns.length;
    const rows = result.rows.map((row) => {
      const values = new Array(width);
      for (let c = 0; c < width; c++) values[c] = row[c];
      return values;
    });
    return {
      columns: result.columns,
      rows,
      rowsAffected: result.rowsAffected,
      lastInsertRowid: result.lastInsertRowid,
    };
  }
  async begin() {
    this.#transaction = await this.#client.transaction("write");
  }
  async commit() {
    const tx = this.#transaction;
    this.#transaction = undefined;
    await tx?.commit();
  }
  async rollback() {
    const tx = this.#transaction;
    this.#transaction = undefined;
    await tx?.rollback();
  }
  close() {
    this.#client.close();
  }
}

let engine: Engine | undefined;
/** Plain writes (and reads without a reader) that arrived while a transaction was open. */
let waiting: DbRequest[] = [];
let chain: Promise<void> = Promise.resolve();

function opened(): Engine {
  if (!engine) throw new Error("database not opened");
  return engine;
}

function mustWait(request: DbRequest): boolean {
  if (!engine?.inTransaction || request.op !== "execute") return false;
  return request.scope === "write" || (request.scope === "read" && !engine.hasReader);
}

async function handle(request: DbRequest): Promise<DbReply> {
  switch (request.op) {
    case "open": {
      if (request.url.startsWith("file:")) {
        engine = new LocalEngine(request.url.slice("file:".length), request.pragmas);
      } else {
        const { createClient } = await import("@libsql/client");
        engine = new RemoteEngine(
          createClient({ url: request.url, authToken: request.authToken, intMode: "number" }),
        );
        for (const pragma of request.pragmas) await engine.execute("write", pragma, []);
      }
      return { id: request.id, ok: true };
    }
    case "execute": {
      if (request.scope === "tx" && !opened().inTransaction) {
        throw new Error("no transaction is open");
      }
      const started = performance.now();
      const result = await opened().execute(request.scope, request.sql, request.args);
      return { id: request.id, ok: true, ...result, ranMs: performance.now() - started };
    }
    case "begin":
      if (opened().inTransaction) throw new Error("a transaction is already open");
      await opened().begin();
      return { id: request.id, ok: true };
    case "commit":
      await opened().commit();
      return { id: request.id, ok: true };
    case "rollback":
      await opened().rollback();
      return { id: request.id, ok: true };
    case "close":
      engine?.close();
      engine = undefined;
      return { id: request.id, ok: true };
  }
}

async function answer(request: DbRequest) {
  let reply: DbReply;
  try {
    reply = await handle(request);
  } catch (error) {
    const e = error as Error & { code?: string; cause?: unknown };
    reply = {
      id: request.id,
      ok: false,
      error: {
        name: e?.name ?? "Error",
        message: e?.message ?? String(error),
        code: e?.code,
        cause: e?.cause === undefined ? undefined : String(e.cause),
      },
    };
  }
  replies.push(reply);
}

async function run(request: DbRequest) {
  if (mustWait(request)) {
    waiting.push(request);
    return;
  }
  await answer(request);
  // The transaction ended: what waited for it runs now, in arrival order (a plain statement
  // cannot open another transaction, so none of them waits again).
  if (!engine?.inTransaction && waiting.length > 0) {
    const ready = waiting;
    waiting = [];
    for (const next of ready) await answer(next);
  }
}

/** Answers collected while a batch of requests runs; they go back together. */
let replies: DbReply[] = [];

self.onmessage = (event: MessageEvent<DbRequest[]>) => {
  const batch = event.data;
  chain = chain.then(async () => {
    for (const request of batch) await run(request);
    if (replies.length === 0) return;
    const done = replies;
    replies = [];
    try {
      self.postMessage(done);
    } catch (error) {
      // A value that cannot cross to the main thread must fail its requests, not stall them:
      // an unanswered request would leave its caller (and everything after it) waiting forever.
      self.postMessage(done.map((reply) => ({
        id: reply.id,
        ok: false,
        error: { name: "DataCloneError", message: String(error) },
      })));
    }
  });
};

self.postMessage("ready");
