import assert from "node:assert/strict";
import { sql } from "kysely";
import { openDatabase } from "../../db/client.ts";
import { eventually } from "../helpers/eventually.ts";
import { type PostgresServer, startPostgres } from "../helpers/postgres_server.ts";
import { createSourceSchema, fillCommunity, runImporter } from "../helpers/whaticket_source.ts";

/**
 * Issue 47 item 3: a rerun imports the delta (new rows, rows the source changed) and leaves
 * alone what was changed in Balcão since; `--verify` sees rows added to the source since;
 * `--dry-run` writes nothing; a second source database is refused with nothing written; a SIGKILL
 * in the middle, then a rerun: nothing doubled, nothing missing.
 */

const ROOT = new URL("../../", import.meta.url).pathname;

async function counts(dataDir: string) {
  const db = await openDatabase(`file:${dataDir}/balcao.db`);
  try {
    const n = async (table: "messages" | "tickets" | "companies" | "contacts") =>
      Number(
        (await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()).n,
      );
    return {
      messages: await n("messages"),
      tickets: await n("tickets"),
      companies: await n("companies"),
      contacts: await n("contacts"),
    };
  } finally {
    await db.destroy();
  }
}

/**
 * What the derived tables hold (search index, per-ticket day counts, hour counts, timeline), by
 * source keys, so two imports of one source compare whatever our ids are.
 */
async function derivedOf(dataDir: string) {
  const db = await openDatabase(`file:${dataDir}/balcao.db`);
  try {
    const rows = async (q: ReturnType<typeof sql>) =>
      (await q.execute(db)).rows as Record<string, unknown>[];
    // Our ticket ids as their source keys (import_map has no index by our id: read it once).
    const keys = new Map(
      (await rows(sql`SELECT targetId, sourceKey FROM import_map WHERE kind = 'tickets'`))
        .map((r) => [r.targetId, r.sourceKey]),
    );
    const byKey = (list: Record<string, unknown>[]): Record<string, unknown>[] =>
      list.map(({ ticketId, ...rest }) => ({ t: keys.get(ticketId), ...rest }))
        .sort((a, b) => JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);
    return {
      // The index's rows, as the wids of their messages (rowid = ticketId * 2^32 + id).
      search: await (async () => {
        const wids = new Map(
          (await rows(sql`SELECT id, ticketId, wid FROM messages`))
            .map((m) => [Number(m.ticketId) * 4294967296 + Number(m.id), m.wid]),
        );
        return (await rows(sql`SELECT rowid AS r FROM messages_fts`))
          .map((f) => wids.get(Number(f.r)) ?? `no message ${f.r}`).sort();
      })(),
      // The index is contentless: its words are asked, not read.
      words: await rows(sql`SELECT count(*) AS n FROM messages_fts
        WHERE messages_fts MATCH 'mensagem 2*'`),
      ticketDays: byKey(
        await rows(sql`SELECT ticketId, day, inbound, outbound FROM report_ticket_messages`),
      ),
      hours: await rows(sql`SELECT hour, userId, queueId, whatsappId, inbound, outbound
        FROM report_message_hours ORDER BY 1, 2, 3, 4`),
      timeline: byKey(
        await rows(sql`SELECT ticketId, kind, at, day, seconds, userId FROM ticket_events`),
      ),
      days: await rows(sql`SELECT * FROM report_days ORDER BY 1, 2, 3, 4, 5`),
      counts: await rows(sql`SELECT * FROM ticket_counts ORDER BY 1, 2, 3, 4`),
      notifications: await rows(sql`SELECT * FROM ticket_notification_counts
        ORDER BY 1, 2, 3, 4, 5`),
      triggers: await rows(sql`SELECT name FROM sqlite_master WHERE type = 'trigger'
        AND tbl_name IN ('messages', 'tickets', 'ticket_events') ORDER BY name`),
    };
  } finally {
    await db.destroy();
  }
}

async function deltaCase(pg: PostgresServer) {
  const dataDir = await Deno.makeTempDir({ prefix: "balcao-import-" });
  try {
    const url = await createSourceSchema(pg, "community");
    await fillCommunity(pg, url);
    const name = new URL(url).pathname.slice(1);
    const first = await runImporter(dataDir, ["--from", url]);
    assert.equal(first.code, 0, first.stderr + first.stdout);

    const clean = await runImporter(dataDir, ["--verify", "--from", url]);
    assert.equal(clean.code, 0, clean.stdout + clean.stderr);
    assert.match(clean.stdout, /verify: no difference/);

    // Someone renames Bruno in Balcão; meanwhile the old system renames him too, gets a message,
    // sees an ack and updates a ticket.
    const db = await openDatabase(`file:${dataDir}/balcao.db`);
    try {
      await db.updateTable("users").set({
        name: "Bruno (Balcão)",
        updatedAt: "2026-01-01T00:00:00.000Z",
      }).where("email", "=", "bruno@old.test").execute();
    } finally {
      await db.destroy();
    }
    await pg.psql(
      name,
      `UPDATE "Users" SET "name" = 'Bruno Silva', "updatedAt" = now() WHERE "id" = 2;
       UPDATE "Messages" SET "ack" = 4, "updatedAt" = now() WHERE "id" = 'WID-2';
       INSERT INTO "Messages" ("id", "body", "ticketId", "createdAt", "updatedAt", "fromMe", "contactId")
         VALUES ('WID-10', 'ainda aí?', 2, '2024-03-02T10:00:00Z', '2024-03-02T10:00:00Z', false, 1);
       UPDATE "Tickets" SET "lastMessage" = 'ainda aí?', "unreadMessages" = 3,
         "updatedAt" = '2024-03-02T10:00:00Z' WHERE "id" = 2`,
    );
    const stale = await runImporter(dataDir, ["--verify", "--from", url]);
    assert.equal(stale.code, 1, stale.stdout + stale.stderr);
    assert.match(stale.stdout, /DIFFERENCE company \d+ messages: source 10, imported or skipped 9/);

    const dry = await runImporter(dataDir, ["--dry-run", "--from", url]);
    assert.equal(dry.code, 0, dry.stderr + dry.stdout);
    assert.match(dry.stdout, /dry run: nothing was written/);
    assert.match(dry.stdout, /messages: read 10, imported 1, updated 1, unchanged 8/);
    assert.equal((await counts(dataDir)).messages, 9);

    const delta = await runImporter(dataDir, ["--from", url]);
    assert.equal(delta.code, 0, delta.stderr + delta.stdout);
    assert.match(delta.stdout, /messages: read 10, imported 1, updated 1, unchanged 8/);
    assert.match(delta.stdout, /tickets: read 5, imported 0, updated 1, unchanged 4/);
    assert.match(
      delta.stdout,
      /users: read 2, imported 0, updated 0, unchanged 1, skipped 1 \(1 changed in Balcão since the import \(kept\)\)/,
    );
    const after = await openDatabase(`file:${dataDir}/balcao.db`);
    try {
      const bruno = await after.selectFrom("users").select("name")
        .where("email", "=", "bruno@old.test").executeTakeFirstOrThrow();
      assert.equal(bruno.name, "Bruno (Balcão)");
      const m2 = await after.selectFrom("messages").select("ack").where("wid", "=", "WID-2")
        .executeTakeFirstOrThrow();
      assert.equal(m2.ack, 4);
      const t = await after.selectFrom("tickets").select(["lastMessage", "unreadMessages"])
        .where("lastMessage", "=", "ainda aí?").executeTakeFirstOrThrow();
      assert.equal(t.unreadMessages, 3);
    } finally {
      await after.destroy();
    }
    assert.equal((await counts(dataDir)).messages, 10);

    // A different source database: refused before anything is written.
    const other = await createSourceSchema(pg, "community");
    await fillCommunity(pg, other);
    const before = await counts(dataDir);
    const refused = await runImporter(dataDir, ["--from", other]);
    assert.equal(refused.code, 1, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /imported from another source database/);
    assert.deepEqual(await counts(dataDir), before);
  } finally {
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
}

async function killCase(pg: PostgresServer) {
  const dataDir = await Deno.makeTempDir({ prefix: "balcao-import-" });
  try {
    const url = await createSourceSchema(pg, "community");
    await fillCommunity(pg, url);
    const name = new URL(url).pathname.slice(1);
    // Enough rows for many batches: 2,000 contacts, 2,000 closed tickets, 30,000 messages.
    await pg.psql(
      name,
      `INSERT INTO "Contacts" ("id", "name", "number", "createdAt", "updatedAt")
         SELECT 100 + g, 'c' || g, '55119' || lpad(g::text, 8, '0'), now(), now()
         FROM generate_series(1, 2000) g;
       INSERT INTO "Tickets" ("id", "status", "contactId", "whatsappId", "createdAt", "updatedAt")
         SELECT 100 + g, 'closed', 100 + g, 1, now() - interval '1 day', now()
         FROM generate_series(1, 2000) g;
       INSERT INTO "Messages" ("id", "body", "ticketId", "createdAt", "updatedAt", "fromMe")
         SELECT 'BULK-' || g, 'mensagem ' || g, 100 + (g % 2000) + 1,
           timestamp '2024-01-01' + g * interval '1 second', now(), g % 2 = 0
         FROM generate_series(1, 30000) g`,
    );
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "scripts/import_whaticket.ts", "--from", url],
      cwd: ROOT,
      env: { DATA_DIR: dataDir, LOG_LEVEL: "warn" },
      stdout: "null",
      stderr: "null",
    }).spawn();
    // Killed once some messages are in, before all are.
    await eventually(async () => {
      try {
        return (await counts(dataDir)).messages > 2000;
      } catch {
        return false;
      }
    }, { what: "the import to be writing messages" });
    child.kill("SIGKILL");
    await child.status;
    const partial = await counts(dataDir);
    assert.ok(partial.messages < 30009, `killed before the end (${partial.messages})`);

    const rerun = await runImporter(dataDir, ["--from", url]);
    assert.equal(rerun.code, 0, rerun.stderr + rerun.stdout);
    const done = await counts(dataDir);
    assert.equal(done.messages, 30009);
    assert.equal(done.tickets, 2005);
    assert.equal(done.contacts, 2003);
    const verify = await runImporter(dataDir, ["--verify", "--from", url]);
    assert.equal(verify.code, 0, verify.stdout + verify.stderr);
    const db = await openDatabase(`file:${dataDir}/balcao.db`);
    try {
      const doubled = await db.selectFrom("messages").select("wid")
        .groupBy("wid").having((eb) => eb.fn.countAll(), ">", 1).execute();
      assert.deepEqual(doubled, []);
    } finally {
      await db.destroy();
    }
    // The derived tables, filled per batch with the triggers off (and the kill in between), are
    // what the row triggers make of the same source; the triggers are all back.
    const byRows = await Deno.makeTempDir({ prefix: "balcao-import-rows-" });
    try {
      const rows = await runImporter(byRows, ["--from", url], { IMPORT_DERIVED_BY: "rows" });
      assert.equal(rows.code, 0, rows.stderr + rows.stdout);
      const batched = await derivedOf(dataDir), triggered = await derivedOf(byRows);
      assert.equal(batched.search.length, 30009); // every message has a body
      assert.ok(batched.timeline.some((e) => e.kind === "first_response"));
      assert.ok(batched.days.length > 0 && batched.counts.length > 0);
      assert.deepEqual(batched, triggered);
    } finally {
      await Deno.remove(byRows, { recursive: true }).catch(() => {});
    }
  } finally {
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
}

// One PostgreSQL cluster for both cases (each has its own source database).
Deno.test("import whaticket reruns", async (t) => {
  const pg = await startPostgres();
  try {
    await t.step(
      "delta, Balcão's changes kept, verify, dry run, another source refused",
      () => deltaCase(pg),
    );
    await t.step(
      "killed in the middle, then rerun: nothing doubled, nothing missing",
      () => killCase(pg),
    );
  } finally {
    await pg.stop();
  }
});
