import assert from "node:assert/strict";
import { sql } from "kysely";
import { type Database, openDatabase } from "../../db/client.ts";
import { closeDeps } from "../../server/deps.ts";
import { createTestApp, twoCompanies } from "../helpers/app.ts";
import { startPostgres } from "../helpers/postgres_server.ts";
import { dataset } from "../helpers/report_dataset.ts";
import { addMessage } from "../helpers/tickets.ts";

/**
 * Issue 46 item 4: `deno task migrate-db -- --to <url>` copies a stopped installation's libSQL
 * database into an empty PostgreSQL database. Killed (SIGKILL) in the middle of a table and run
 * again, the copy equals the source row for row; new rows on PostgreSQL continue the ids (past
 * SQLite's AUTOINCREMENT mark); a target holding anything else is refused.
 */

const ROOT = new URL("../../", import.meta.url).pathname;
const BULK = 3000;

function run(dataDir: string, args: string[]) {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/migrate_db.ts", ...args],
    cwd: ROOT,
    env: { DATA_DIR: dataDir, LOG_LEVEL: "warn" },
    stdout: "piped",
    stderr: "piped",
  });
}

async function migrateDb(dataDir: string, args: string[]) {
  const out = await run(dataDir, args).output();
  const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

/** An installation on a libSQL file with the reports' dataset and BULK more messages; stopped. */
async function installation(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "balcao-migrate-db-" });
  const t = await createTestApp({ DATA_DIR: dir, DATABASE_URL: `file:${dir}/balcao.db` });
  const { a } = await twoCompanies(t);
  await dataset(t, a);
  const ticket = await t.deps.db.selectFrom("tickets").select("id").where("companyId", "=", a.id)
    .orderBy("id").executeTakeFirstOrThrow();
  for (let i = 0; i < BULK; i++) {
    await addMessage(t, a.id, {
      ticketId: ticket.id,
      body: `orçamento número ${i}`,
      fromMe: i % 2 === 0,
    });
  }
  // The newest message is deleted: SQLite's AUTOINCREMENT never gives its id again.
  const newest = await t.deps.db.selectFrom("messages").select("id").orderBy("id", "desc")
    .executeTakeFirstOrThrow();
  await t.deps.db.deleteFrom("messages").where("id", "=", newest.id).execute();
  await closeDeps(t.deps);
  return dir;
}

async function tablesOf(target: Database): Promise<string[]> {
  return (await sql<{ tableName: string }>`SELECT tableName FROM migrate_db_copy
    WHERE tableName <> '*' ORDER BY tableName`.execute(target)).rows.map((r) => r.tableName);
}

/** Every row of a table, engine differences smoothed (booleans, big integers), sorted. */
async function rowsOf(db: Database, table: string): Promise<string[]> {
  const rows = (await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(db))
    .rows;
  return rows.map((row) =>
    JSON.stringify(
      Object.keys(row).sort().map((k) => {
        const v = row[k];
        return typeof v === "bigint" ? Number(v) : typeof v === "boolean" ? Number(v) : v ?? null;
      }),
    )
  ).sort();
}

Deno.test("migrate-db: SIGKILL in the middle, rerun: the copy equals the source; ids go on; other targets refused", async () => {
  const pg = await startPostgres();
  const dir = await installation();
  const other = await installation();
  try {
    const url = await pg.createDatabase();

    // Killed while it copies messages, between two batches of 50.
    const child = run(dir, ["--to", url, "--batch", "50"]).spawn();
    const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "";
    const copiedMessages = () =>
      Math.max(0, ...[...seen.matchAll(/messages: (\d+)\//g)].map((m) => Number(m[1])));
    while (copiedMessages() < 1000) {
      const { value, done } = await reader.read();
      assert.ok(!done, `the copy ended before it was killed:\n${seen}`);
      seen += value;
    }
    child.kill("SIGKILL");
    await reader.cancel();
    await child.stdout.cancel();
    assert.equal((await child.status).signal, "SIGKILL");

    const target = await openDatabase(url);
    try {
      const partial = Number(
        (await sql<{ n: number }>`SELECT count(*) AS n FROM messages`.execute(target)).rows[0].n,
      );
      assert.ok(partial >= 1000 && partial < BULK, `killed in the middle (${partial} messages)`);
      assert.equal(partial % 50, 0, "whole batches only");
    } finally {
      await target.destroy();
    }

    // The rerun (a leading `--`, as `deno task migrate-db -- --to` passes it) finishes the copy.
    const rerun = await migrateDb(dir, ["--", "--to", url, "--batch", "50"]);
    assert.equal(rerun.code, 0, rerun.stdout + rerun.stderr);
    assert.match(rerun.stdout, /resuming the copy/);
    assert.match(
      rerun.stdout,
      /verify: \d+ tables, \d+ rows: counts equal, \d+ sampled rows equal/,
    );
    assert.match(rerun.stdout, new RegExp(`DATABASE_URL=${url.replace(/[.?]/g, "\\$&")}`));
    assert.match(rerun.stdout, new RegExp(`DATA_DIR=${dir}`));

    // Row for row, every copied table equals the source (the triggers' tables included).
    const source = await openDatabase(`file:${dir}/balcao.db`);
    const copy = await openDatabase(url);
    try {
      const tables = await tablesOf(copy);
      for (
        const wanted of [
          "messages",
          "tickets",
          "ticket_events",
          "report_days",
          "ticket_counts",
          "users",
        ]
      ) {
        assert.ok(tables.includes(wanted), `${wanted} copied`);
      }
      for (const table of tables) {
        assert.deepEqual(await rowsOf(copy, table), await rowsOf(source, table), table);
      }
      const messages = Number(
        (await sql<{ n: number }>`SELECT count(*) AS n FROM messages`.execute(copy)).rows[0].n,
      );
      assert.ok(messages >= BULK, `${messages} messages`);
    } finally {
      await source.destroy();
      await copy.destroy();
    }

    // A second run on the finished copy copies nothing and says so.
    const again = await migrateDb(dir, ["--to", url]);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.match(again.stdout, /already holds the finished copy of .*: nothing done/);

    // The server on PostgreSQL with the same DATA_DIR: new ids go past SQLite's mark.
    const high = await openDatabase(`file:${dir}/balcao.db`);
    const mark = Number(
      (await sql<{ seq: number }>`SELECT seq FROM sqlite_sequence WHERE name = 'messages'`
        .execute(high)).rows[0].seq,
    );
    await high.destroy();
    const t = await createTestApp({ DATA_DIR: dir, DATABASE_URL: url });
    try {
      const company = await t.deps.db.selectFrom("companies").select("id").where(
        "name",
        "=",
        "Alpha",
      )
        .executeTakeFirstOrThrow();
      const ticket = await t.deps.db.selectFrom("tickets").select("id")
        .where("companyId", "=", company.id).orderBy("id").executeTakeFirstOrThrow();
      const id = await addMessage(t, company.id, {
        ticketId: ticket.id,
        body: "depois da mudança",
      });
      assert.equal(id, mark + 1);
    } finally {
      await closeDeps(t.deps);
    }

    // Another installation into that database: refused, nothing written.
    const refused = await migrateDb(other, ["--to", url]);
    assert.equal(refused.code, 1, refused.stdout + refused.stderr);
    assert.match(
      refused.stderr,
      /migrate-db refused: the target database holds a copy of another database/,
    );

    // A database an app already runs on: refused as not empty.
    const used = await pg.createDatabase();
    const app = await createTestApp({ DATA_DIR: await Deno.makeTempDir(), DATABASE_URL: used });
    await app.close();
    const notEmpty = await migrateDb(other, ["--to", used]);
    assert.equal(notEmpty.code, 1, notEmpty.stdout + notEmpty.stderr);
    assert.match(
      notEmpty.stderr,
      /migrate-db refused: the target database is not empty: .*companies \(1\)/,
    );

    // Not a PostgreSQL URL: a usage refusal.
    const wrong = await migrateDb(other, ["--to", "mysql://x@y/z"]);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /--to must be a postgres:\/\/ or postgresql:\/\/ URL/);
  } finally {
    await pg.stop();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
    await Deno.remove(other, { recursive: true }).catch(() => {});
  }
});
