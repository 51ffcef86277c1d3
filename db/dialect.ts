import type { Client, InArgs, Transaction } from "@libsql/client";
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

/**
 * A Kysely dialect over one @libsql/client connection, guarded by an async mutex.
 *
 * Why not kysely-libsql's driver: it lets a transaction and plain queries run at the same time
 * on different pooled connections. On a local file that means a second writer waits on SQLite's
 * busy handler *synchronously* on the only JavaScript thread, while the transaction it waits for
 * cannot progress: a stall until busy_timeout, then SQLITE_BUSY. Serialising here (as Kysely's
 * own SqliteDriver does) makes a transaction exclusive and every other query wait its turn.
 */
export class LibsqlMutexDialect implements Dialect {
  constructor(private readonly client: Client) {}
  createAdapter() {
    return new SqliteAdapter();
  }
  createDriver(): Driver {
    return new LibsqlMutexDriver(this.client);
  }
  // deno-lint-ignore no-explicit-any
  createIntrospector(db: Kysely<any>) {
    return new SqliteIntrospector(db);
  }
  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }
}

class Mutex {
  #tail: Promise<void> = Promise.resolve();
  #release?: () => void;
  async lock(): Promise<void> {
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    this.#release = release;
  }
  unlock(): void {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }
}

class LibsqlMutexDriver implements Driver {
  readonly #mutex = new Mutex();
  readonly #connection: LibsqlConnection;
  constructor(client: Client) {
    this.#connection = new LibsqlConnection(client);
  }
  async init() {}
  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    return this.#connection;
  }
  async beginTransaction(connection: DatabaseConnection) {
    await (connection as LibsqlConnection).begin();
  }
  async commitTransaction(connection: DatabaseConnection) {
    await (connection as LibsqlConnection).commit();
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await (connection as LibsqlConnection).rollback();
  }
  releaseConnection(): Promise<void> {
    this.#mutex.unlock();
    return Promise.resolve();
  }
  destroy(): Promise<void> {
    this.#connection.client.close();
    return Promise.resolve();
  }
}

class LibsqlConnection implements DatabaseConnection {
  #transaction?: Transaction;
  constructor(readonly client: Client) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const target = this.#transaction ?? this.client;
    const result = await target.execute({ sql: query.sql, args: query.parameters as InArgs });
    const rows: R[] = new Array(result.rows.length);
    const columns = result.columns;
    for (let i = 0; i < result.rows.length; i++) {
      const source = result.rows[i];
      const row: Record<string, unknown> = {};
      for (let c = 0; c < columns.length; c++) row[columns[c]] = source[c];
      rows[i] = row as R;
    }
    return {
      insertId: result.lastInsertRowid,
      numAffectedRows: BigInt(result.rowsAffected),
      rows,
    };
  }

  async begin() {
    this.#transaction = await this.client.transaction("write");
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
  // deno-lint-ignore require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("streaming is not supported");
  }
}
