import assert from "node:assert/strict";
import { sql } from "kysely";
import { openDatabase } from "../../db/client.ts";
import { isUniqueViolation } from "../../db/constraints.ts";
import { WriterTurns } from "../../db/dialect.ts";
import { inBackground } from "../../db/priority.ts";

async function withDatabase(fn: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<void>) {
  const dir = await Deno.makeTempDir();
  const db = await openDatabase(`file:${dir}/thread.db`);
  try {
    await sql`CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE, n INTEGER)`
      .execute(db);
    await fn(db);
  } finally {
    await db.destroy();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("database thread - a read during a transaction sees the last commit, a plain write waits for the end", async () => {
  await withDatabase(async (db) => {
    await sql`INSERT INTO t (v, n) VALUES ('before', 1)`.execute(db);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let insideDone!: () => void;
    const inside = new Promise<void>((resolve) => (insideDone = resolve));
    const transaction = db.transaction().execute(async (trx) => {
      await sql`INSERT INTO t (v, n) VALUES ('uncommitted', 2)`.execute(trx);
      insideDone();
      await held;
    });
    await inside;

    // Reads do not wait for the transaction, and never see its uncommitted rows.
    const during = await sql<{ v: string }>`SELECT v FROM t ORDER BY id`.execute(db);
    assert.deepEqual(during.rows.map((r) => r.v), ["before"]);

    // A plain write is held until the transaction ends, then runs (after it, in order).
    let written = false;
    const write = sql`INSERT INTO t (v, n) VALUES ('after', 3)`.execute(db).then(() => {
      written = true;
    });
    // The thread answers in arrival order: once a read sent after the write is answered, the
    // write has reached the thread, and it is held (a write answered first would be written).
    const meanwhile = await sql<{ v: string }>`SELECT v FROM t ORDER BY id`.execute(db);
    assert.deepEqual(meanwhile.rows.map((r) => r.v), ["before"]);
    assert.equal(written, false);
    release();
    await transaction;
    await write;
    const after = await sql<{ v: string }>`SELECT v FROM t ORDER BY id`.execute(db);
    assert.deepEqual(after.rows.map((r) => r.v), ["before", "uncommitted", "after"]);
  });
});

Deno.test("database thread - a failed transaction rolls back; SQLite's errors keep their text", async () => {
  await withDatabase(async (db) => {
    await sql`INSERT INTO t (v) VALUES ('taken')`.execute(db);
    const failed = await db.transaction().execute(async (trx) => {
      await sql`INSERT INTO t (v) VALUES ('kept out')`.execute(trx);
      await sql`INSERT INTO t (v) VALUES ('taken')`.execute(trx);
    }).then(() => undefined, (error) => error);
    assert.ok(isUniqueViolation(failed, "t.v"), String(failed));
    const rows = await sql<{ v: string }>`SELECT v FROM t`.execute(db);
    assert.deepEqual(rows.rows.map((r) => r.v), ["taken"]);
    // The connection is usable afterwards, inside and outside transactions.
    await db.transaction().execute((trx) => sql`INSERT INTO t (v) VALUES ('next')`.execute(trx));
    const count = await sql<{ n: number }>`SELECT count(*) AS n FROM t`.execute(db);
    assert.equal(count.rows[0].n, 2);
  });
});

Deno.test("database thread - values round-trip: integers as numbers, nulls, blobs, insert ids", async () => {
  await withDatabase(async (db) => {
    await sql`CREATE TABLE b (id INTEGER PRIMARY KEY, data BLOB, flag INTEGER)`.execute(db);
    const inserted = await db.insertInto("b" as never).values({
      data: new Uint8Array([1, 2, 3]),
      flag: true,
    } as never).executeTakeFirst();
    assert.equal(inserted.insertId, 1n);
    const row = await sql<{ id: number; data: ArrayBuffer; flag: number; empty: null }>`
      SELECT id, data, flag, NULL AS empty FROM b`.execute(db);
    assert.equal(row.rows[0].id, 1);
    assert.equal(row.rows[0].flag, 1);
    assert.equal(row.rows[0].empty, null);
    assert.deepEqual([...new Uint8Array(row.rows[0].data)], [1, 2, 3]);
  });
});

Deno.test("database thread - closing rejects what comes after instead of hanging", async () => {
  const dir = await Deno.makeTempDir();
  const db = await openDatabase(`file:${dir}/closed.db`);
  await db.destroy();
  await assert.rejects(() => sql`SELECT 1`.execute(db), /destroyed|closed/);
  await Deno.remove(dir, { recursive: true });
});

Deno.test("database thread - a transaction whose BEGIN fails runs none of its statements", async () => {
  const dir = await Deno.makeTempDir();
  const url = `file:${dir}/busy.db`;
  const db = await openDatabase(url);
  const other = await openDatabase(url);
  try {
    await sql`CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)`.execute(db);
    // Another connection (as another process would) holds the write lock past busy_timeout.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const holder = other.transaction().execute(async (trx) => {
      await sql`INSERT INTO t (v) VALUES ('holder')`.execute(trx);
      locked();
      await held;
    });
    await lockTaken;
    // BEGIN is posted without waiting for it: its failure still fails the transaction's
    // statements, which never run outside a transaction.
    await assert.rejects(
      db.transaction().execute(async (trx) => {
        await sql`INSERT INTO t (v) VALUES ('lost')`.execute(trx);
      }),
      /locked|busy/i,
    );
    release();
    await holder;
    const rows = await sql<{ v: string }>`SELECT v FROM t ORDER BY id`.execute(db);
    assert.deepEqual(rows.rows.map((r) => r.v), ["holder"]);
    // The connection is usable afterwards.
    await db.transaction().execute((trx) => sql`INSERT INTO t (v) VALUES ('next')`.execute(trx));
    assert.equal((await sql`SELECT v FROM t`.execute(db)).rows.length, 2);
  } finally {
    await other.destroy();
    await db.destroy();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("database thread - a kept statement answers the new columns after a schema change", async () => {
  await withDatabase(async (db) => {
    await sql`INSERT INTO t (v, n) VALUES ('one', 1)`.execute(db);
    const before = await sql`SELECT * FROM t`.execute(db);
    assert.deepEqual(before.rows, [{ id: 1, v: "one", n: 1 }]);
    await sql`ALTER TABLE t ADD COLUMN cents INTEGER NOT NULL DEFAULT 100`.execute(db);
    await sql`ALTER TABLE t DROP COLUMN n`.execute(db);
    const after = await sql`SELECT * FROM t`.execute(db);
    assert.deepEqual(after.rows, [{ id: 1, v: "one", cents: 100 }]);
  });
});

Deno.test("database thread - a kept statement follows a trigger dropped and created again", async () => {
  await withDatabase(async (db) => {
    // The importer drops and creates insert triggers per batch (issue 47); the thread keeps its
    // prepared statements across them, and SQLite must run each with the triggers of the moment.
    await sql`CREATE TABLE log (v TEXT)`.execute(db);
    const trigger = `CREATE TRIGGER t_log AFTER INSERT ON t BEGIN
      INSERT INTO log (v) VALUES (new.v); END`;
    await sql.raw(trigger).execute(db);
    const insert = (v: string) => sql`INSERT INTO t (v, n) VALUES (${v}, 1)`.execute(db);
    await insert("with");
    await db.transaction().execute(async (trx) => {
      await sql`DROP TRIGGER t_log`.execute(trx);
      await sql`INSERT INTO t (v, n) VALUES (${"without"}, 1)`.execute(trx);
      await sql.raw(trigger).execute(trx);
    });
    await insert("again");
    const logged = await sql<{ v: string }>`SELECT v FROM log ORDER BY rowid`.execute(db);
    assert.deepEqual(logged.rows.map((r) => r.v), ["with", "again"]);
  });
});

Deno.test("database thread - an interactive transaction takes the writer before a background one queued earlier", async () => {
  await withDatabase(async (db) => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let insideDone!: () => void;
    const inside = new Promise<void>((resolve) => (insideDone = resolve));
    const holder = db.transaction().execute(async (trx) => {
      await sql`INSERT INTO t (v) VALUES ('holder')`.execute(trx);
      insideDone();
      await held;
    });
    await inside;
    // A job's batch asks for the writer first, then an attendant's request.
    const batch = inBackground(() =>
      db.transaction().execute(async (trx) => {
        await sql`INSERT INTO t (v) VALUES ('background')`.execute(trx);
      })
    );
    const reply = db.transaction().execute(async (trx) => {
      await sql`INSERT INTO t (v) VALUES ('interactive')`.execute(trx);
    });
    // A read is answered while both wait for their turn (reads never wait for the writer).
    const during = await sql<{ v: string }>`SELECT v FROM t ORDER BY id`.execute(db);
    assert.deepEqual(during.rows.map((r) => r.v), []);
    release();
    await Promise.all([holder, batch, reply]);
    const order = await sql<{ v: string }>`SELECT v FROM t ORDER BY id`.execute(db);
    assert.deepEqual(order.rows.map((r) => r.v), ["holder", "interactive", "background"]);
  });
});

Deno.test("database thread - a background transaction is passed over a bounded number of times", async () => {
  const turns = new WriterTurns();
  const order: string[] = [];
  const first = await turns.lock(false);
  const background = turns.lock(true).then((done) => {
    order.push("background");
    done();
  });
  const interactive = Array.from({ length: 40 }, (_, i) =>
    turns.lock(false).then((done) => {
      order.push(`i${i}`);
      done();
    }));
  first();
  await Promise.all([background, ...interactive]);
  assert.equal(order.indexOf("background"), 16);
});
