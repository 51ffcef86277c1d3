import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from "kysely";
import type { DbError, DbReply, DbRequest } from "./worker_protocol.ts";
import { isBackground } from "./priority.ts";

/**
 * A Kysely dialect whose connections live on the database thread (db/worker.ts).
 *
 * Transactions take turns through a mutex: the writer connection holds one at a time. Plain
 * statements do not take it: the thread runs a read on its reader connection at once and holds a
 * plain write until the open transaction ends. So a slow transaction never delays the reads of
 * other requests, and nothing ever waits on SQLite's busy handler (which would block a thread
 * while the transaction it waits for cannot progress).
 */
export class LibsqlThreadDialect implements Dialect {
  constructor(private readonly thread: DatabaseThread) {}
  createAdapter() {
    return new ThreadSqliteAdapter();
  }
  createDriver(): Driver {
    return new LibsqlThreadDriver(this.thread);
  }
  // deno-lint-ignore no-explicit-any
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
}

/**
 * Kysely's SQLite adapter declares one connection, and Kysely then lets a single query or
 * transaction hold it at a time: every read would wait for the open transaction. Here the
 * database thread schedules statements itself (reads on the reader, writes after the
 * transaction), so connections are handed out freely.
 */
class ThreadSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

/**
 * The writer's turns: one transaction at a time. Interactive transactions waiting go before
 * background ones (db/priority.ts), but a background waiter is passed over at most
 * PASSES_BEFORE_BACKGROUND times, so a busy day never starves the jobs.
 */
export class WriterTurns {
  #held = false;
  readonly #interactive: (() => void)[] = [];
  readonly #background: (() => void)[] = [];
  #passed = 0;

  /** Resolves when the writer is this caller's; the function it gives releases it (once). */
  lock(background = isBackground()): Promise<() => void> {
    const turn = () => {
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        this.#next();
      };
    };
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve(turn());
    }
    return new Promise((resolve) =>
      (background ? this.#background : this.#interactive).push(() => resolve(turn()))
    );
  }

  #next() {
    const backgroundDue = this.#background.length > 0 &&
      (this.#interactive.length === 0 || this.#passed >= PASSES_BEFORE_BACKGROUND);
    const waiter = backgroundDue ? this.#background.shift() : this.#interactive.shift();
    if (backgroundDue) this.#passed = 0;
    else if (this.#background.length > 0) this.#passed++;
    if (waiter) waiter();
    else this.#held = false;
  }
}

/** Interactive transactions that may go ahead of a waiting background one. */
const PASSES_BEFORE_BACKGROUND = 16;

/**
 * Each transaction releases the writer exactly once, by its own handle: Kysely rolls back a
 * transaction whose COMMIT failed (a full disk), and that second end must neither release the
 * turn of the transaction that came next nor post a ROLLBACK that would end that one's
 * (issue 44).
 */
class LibsqlThreadDriver implements Driver {
  readonly #transactions = new WriterTurns();
  constructor(readonly thread: DatabaseThread) {}
  async init() {}
  acquireConnection(): Promise<DatabaseConnection> {
    return Promise.resolve(new LibsqlConnection(this.thread));
  }
  async beginTransaction(connection: DatabaseConnection) {
    const release = await this.#transactions.lock();
    try {
      await (connection as LibsqlConnection).begin(release);
    } catch (error) {
      release();
      throw error;
    }
  }
  async commitTransaction(connection: DatabaseConnection) {
    await (connection as LibsqlConnection).commit();
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await (connection as LibsqlConnection).rollback();
  }
  releaseConnection(): Promise<void> {
    return Promise.resolve();
  }
  async destroy(): Promise<void> {
    await this.thread.close();
  }
}

/** Plain statements that only read: they may run on the reader connection. */
const READ_ONLY = /^\s*select\b/i;

class LibsqlConnection implements DatabaseConnection {
  #inTransaction = false;
  /** The BEGIN posted for the open transaction, not waited for (see begin()). */
  #begun?: Promise<unknown>;
  /** The writer's turn (the driver's mutex), released when the transaction's end is answered. */
  #release?: () => void;
  constructor(readonly thread: DatabaseThread) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const request = this.thread.request({
      op: "execute",
      scope: this.#inTransaction ? "tx" : READ_ONLY.test(query.sql) ? "read" : "write",
      sql: query.sql,
      args: query.parameters,
    });
    // A statement of a transaction fails with its BEGIN.
    const result = this.#begun ? (await Promise.all([request, this.#begun]))[0] : await request;
    const columns = result.columns ?? [];
    const source = result.rows ?? [];
    const rows: R[] = new Array(source.length);
    for (let i = 0; i < source.length; i++) {
      const values = source[i];
      const row: Record<string, unknown> = {};
      for (let c = 0; c < columns.length; c++) row[columns[c]] = values[c];
      rows[i] = row as R;
    }
    return {
      insertId: result.lastInsertRowid,
      numAffectedRows: BigInt(result.rowsAffected ?? 0),
      rows,
    };
  }

  /**
   * Posts BEGIN without waiting for its answer: the thread runs requests in the order they come,
   * so the transaction's statements, posted next, run after it. A group commit then costs two
   * round trips instead of three (the main thread is busy under load, and every answer waits
   * for its turn there). Its failure reaches the first statement, or the commit.
   */
  begin(release: () => void): Promise<void> {
    const begun = this.thread.request({ op: "begin" });
    // Observed here so that a failure is never unhandled; callers get it from #begun.
    begun.catch(() => {});
    this.#begun = begun;
    this.#inTransaction = true;
    this.#release = release;
    return Promise.resolve();
  }
  #end(): () => void {
    const release = this.#release ?? (() => {});
    this.#release = undefined;
    this.#begun = undefined;
    this.#inTransaction = false;
    return release;
  }
  async commit() {
    if (!this.#release) return;
    const begun = this.#begun;
    const release = this.#end();
    const committed = this.thread.request({ op: "commit" });
    committed.catch(() => {});
    try {
      await begun;
      await committed;
    } finally {
      release();
    }
  }
  /** Ends the open transaction; nothing when it already ended (a COMMIT that failed). */
  async rollback() {
    if (!this.#release) return;
    const release = this.#end();
    try {
      await this.thread.request({ op: "rollback" });
    } finally {
      release();
    }
  }
  // deno-lint-ignore require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("streaming is not supported");
  }
}

/** An error raised by SQLite on the database thread, with its libsql code and cause text. */
export class DatabaseError extends Error {
  readonly code?: string;
  constructor(error: DbError) {
    super(error.message, error.cause === undefined ? undefined : { cause: error.cause });
    this.name = error.name === "Error" ? "DatabaseError" : error.name;
    this.code = error.code;
  }
}

type Pending = {
  resolve: (reply: DbReply & { ok: true }) => void;
  reject: (e: Error) => void;
  sql?: string;
  postedAt: number;
};

/**
 * Told of every statement the thread answered: its SQL, the milliseconds it waited (posted to
 * answered, minus its run) and ran on the thread. What fills the queue, by statement.
 */
export type StatementObserver = (sql: string, waitedMs: number, ranMs: number) => void;
type Request = DbRequest extends infer T ? T extends DbRequest ? Omit<T, "id"> : never : never;

/** The main thread's end of db/worker.ts: numbered requests, answered in order. */
export class DatabaseThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #failed?: Error;
  #closed = false;
  /** See StatementObserver (db/client.ts sets it from openDatabase's observer). */
  onStatement?: StatementObserver;

  #started!: () => void;
  readonly #ready = new Promise<void>((resolve) => (this.#started = resolve));

  private constructor() {
    this.#worker = new Worker(new URL("./worker.ts", import.meta.url).href, { type: "module" });
    this.#worker.onmessage = (event: MessageEvent<DbReply[] | "ready">) => {
      if (event.data === "ready") return this.#started();
      for (const reply of event.data) {
        const pending = this.#pending.get(reply.id);
        if (!pending) continue;
        this.#pending.delete(reply.id);
        if (reply.ok && pending.sql !== undefined && this.onStatement) {
          const ran = reply.ranMs ?? 0;
          this.onStatement(pending.sql, performance.now() - pending.postedAt - ran, ran);
        }
        if (reply.ok) pending.resolve(reply);
        else pending.reject(new DatabaseError(reply.error));
      }
    };
    this.#worker.onerror = (event: ErrorEvent) => {
      event.preventDefault();
      this.#fail(new Error(`database thread failed: ${event.message}`));
    };
  }

  static async open(url: string, authToken: string | undefined, pragmas: string[]) {
    const thread = new DatabaseThread();
    try {
      // Requests go out only once the thread listens (it says so): nothing posted while its
      // modules load can be missed. A thread that never starts is an error, not a hang.
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        thread.#ready,
        new Promise((_, reject) =>
          timer = setTimeout(() => reject(new Error("database thread did not start")), 60_000)
        ),
      ]).finally(() => clearTimeout(timer));
      await thread.request({ op: "open", url, authToken, pragmas });
    } catch (error) {
      thread.#worker.terminate();
      throw error;
    }
    return thread;
  }

  /** Requests posted and not yet answered (the thread's queue, for metrics). */
  get queued(): number {
    return this.#pending.size;
  }

  request(request: Request): Promise<DbReply & { ok: true }> {
    if (this.#failed) return Promise.reject(this.#failed);
    if (this.#closed) return Promise.reject(new Error("database closed"));
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, {
        resolve,
        reject,
        sql: request.op === "execute" ? request.sql : undefined,
        postedAt: performance.now(),
      });
      // One request per message: batching a turn's requests into one message was measured
      // slower (tests/bench/whatsapp_inbound_bench.ts), the microtask and the wait cost more.
      this.#worker.postMessage([{ ...request, id } as DbRequest]);
    });
  }

  async close() {
    if (this.#closed) return;
    try {
      // Bounded: a thread that cannot answer must not keep the process from shutting down.
      if (!this.#failed) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          this.request({ op: "close" }),
          new Promise((resolve) => timer = setTimeout(resolve, 5_000)),
        ]).finally(() => clearTimeout(timer));
      }
    } finally {
      this.#closed = true;
      this.#worker.terminate();
      this.#fail(new Error("database closed"));
    }
  }

  #fail(error: Error) {
    this.#failed ??= error;
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}
