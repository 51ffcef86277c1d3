import assert from "node:assert/strict";
import { sql } from "kysely";
import { openDatabase } from "../../../db/client.ts";
import { WriteBatcher } from "./write_batcher.ts";

Deno.test("write batcher - jobs share commits; a failing job fails alone and writes nothing", async () => {
  const dir = await Deno.makeTempDir();
  const db = await openDatabase(`file:${dir}/b.db`);
  try {
    await sql`CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL UNIQUE)`.execute(db);
    const batcher = new WriteBatcher(db);
    const insert = (v: string, twice = false) =>
      batcher.run(async (trx) => {
        await sql`INSERT INTO t (v) VALUES (${v})`.execute(trx);
        // the second insert of the same value violates UNIQUE: the job must leave no trace
        if (twice) await sql`INSERT INTO t (v) VALUES (${v})`.execute(trx);
        return v;
      });
    const outcomes = await Promise.allSettled([
      insert("a"),
      insert("b"),
      insert("bad", true),
      insert("c"),
      insert("d"),
    ]);
    assert.deepEqual(outcomes.map((o) => o.status), [
      "fulfilled",
      "fulfilled",
      "rejected",
      "fulfilled",
      "fulfilled",
    ]);
    assert.deepEqual(
      outcomes.map((o) => o.status === "fulfilled" ? o.value : null),
      ["a", "b", null, "c", "d"],
    );
    const rows = await sql<{ v: string }>`SELECT v FROM t ORDER BY id`.execute(db);
    assert.deepEqual(rows.rows.map((r) => r.v).sort(), ["a", "b", "c", "d"]);
    await batcher.idle();
  } finally {
    await db.destroy();
    await Deno.remove(dir, { recursive: true });
  }
});
