import assert from "node:assert/strict";
import { sql } from "kysely";
import { type Database, openDatabase } from "../../db/client.ts";
import { migrateToLatest, migrateUpTo } from "../../db/migrate.ts";
import { autoincrementDefinition } from "../../db/migrations/0050_rebuild_ids_autoincrement.ts";

/**
 * Migration 0050 on a database made with the schema main had before it (migrations up to 0040):
 * every row and relation survives, the FTS index and the ticket_counts triggers still follow the
 * tables, and ids are never handed out twice afterwards.
 */

const T = "2026-11-22T12:00:00.000Z";

async function withOldDatabase(fn: (db: Database, path: string) => Promise<void>) {
  const dir = await Deno.makeTempDir({ prefix: "balcao-rebuild-" });
  const path = `${dir}/balcao.db`;
  const db = await openDatabase(`file:${path}`);
  try {
    await migrateUpTo(db, "0040_add_admin_indexes");
    await fn(db, path);
  } finally {
    await db.destroy().catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
}

/** Rows with every kind of relation, written as today's main writes them (plain SQL). */
const fixture = [
  `INSERT INTO plans (id, name, createdAt, updatedAt) VALUES (1, 'Plano', '${T}', '${T}')`,
  `INSERT INTO companies (id, name, planId, createdAt, updatedAt) VALUES
     (1, 'Alpha', 1, '${T}', '${T}'), (2, 'Beta', 1, '${T}', '${T}')`,
  `INSERT INTO settings (companyId, key, value, createdAt, updatedAt) VALUES
     (1, 'userRating', 'enabled', '${T}', '${T}'), (2, 'userRating', 'disabled', '${T}', '${T}')`,
  `INSERT INTO queues (id, companyId, name, color, createdAt, updatedAt) VALUES
     (1, 1, 'Vendas', '#111111', '${T}', '${T}'), (2, 1, 'Suporte', '#222222', '${T}', '${T}')`,
  `INSERT INTO queue_options (id, companyId, queueId, parentId, title, option, createdAt, updatedAt)
     VALUES (1, 1, 1, NULL, 'Menu', '1', '${T}', '${T}'), (2, 1, 1, 1, 'Sub', '1', '${T}', '${T}')`,
  `INSERT INTO whatsapps (id, companyId, name, createdAt, updatedAt) VALUES
     (1, 1, 'Principal', '${T}', '${T}')`,
  `INSERT INTO whatsapp_queues (companyId, whatsappId, queueId) VALUES (1, 1, 1), (1, 1, 2)`,
  `INSERT INTO users (id, companyId, name, email, passwordHash, whatsappId, createdAt, updatedAt)
     VALUES (1, 1, 'Ana', 'ana@a.test', 'x', 1, '${T}', '${T}'),
            (2, 1, 'Bruno', 'bruno@a.test', 'x', NULL, '${T}', '${T}'),
            (3, 2, 'Carla', 'carla@b.test', 'x', NULL, '${T}', '${T}')`,
  `INSERT INTO user_queues (companyId, userId, queueId) VALUES (1, 1, 1), (1, 2, 2)`,
  `INSERT INTO refresh_tokens (id, userId, companyId, expiresAt, createdAt) VALUES
     ('jti-1', 1, 1, '2026-12-01T00:00:00.000Z', '${T}')`,
  `INSERT INTO app_secrets (name, value, createdAt) VALUES ('jwt_secret', 's', '${T}')`,
  `INSERT INTO contacts (id, uuid, companyId, name, number, whatsappId, createdAt, updatedAt) VALUES
     (1, 'c-1', 1, 'Maria', '5511900000001', 1, '${T}', '${T}'),
     (2, 'c-2', 1, 'João', '5511900000002', NULL, '${T}', '${T}'),
     (3, 'c-3', 2, 'Zé', '5511900000003', NULL, '${T}', '${T}')`,
  `INSERT INTO contact_custom_fields (companyId, contactId, name, value, createdAt, updatedAt)
     VALUES (1, 1, 'cpf', '123', '${T}', '${T}')`,
  `INSERT INTO tickets (id, uuid, companyId, contactId, whatsappId, userId, queueId, queueOptionId,
     status, createdAt, updatedAt) VALUES
     (1, 't-1', 1, 1, 1, 1, 1, 2, 'open', '${T}', '${T}'),
     (2, 't-2', 1, 2, 1, NULL, 2, NULL, 'pending', '${T}', '${T}'),
     (3, 't-3', 2, 3, NULL, 3, NULL, NULL, 'closed', '${T}', '${T}')`,
  `INSERT INTO messages (id, companyId, ticketId, contactId, whatsappId, wid, body, quotedMsgId,
     createdAt, updatedAt) VALUES
     (1, 1, 1, 1, 1, 'W1', 'olá, preciso de ajuda com o boleto', NULL, '${T}', '${T}'),
     (2, 1, 1, NULL, 1, 'W2', 'claro, qual o número?', 1, '${T}', '${T}'),
     (3, 1, 2, 2, 1, 'W3', 'entrega atrasada', NULL, '${T}', '${T}')`,
  `INSERT INTO ticket_notes (companyId, ticketId, contactId, userId, note, createdAt, updatedAt)
     VALUES (1, 1, 1, 1, 'cliente antigo', '${T}', '${T}')`,
  `INSERT INTO tags (id, companyId, name, createdAt, updatedAt) VALUES
     (1, 1, 'VIP', '${T}', '${T}'), (2, 1, 'Atraso', '${T}', '${T}')`,
  `INSERT INTO ticket_tags (companyId, ticketId, tagId) VALUES (1, 1, 1), (1, 2, 2)`,
  `INSERT INTO quick_messages (companyId, userId, shortcode, message, createdAt, updatedAt) VALUES
     (1, 1, 'oi', 'Olá!', '${T}', '${T}')`,
  `INSERT INTO schedules (companyId, contactId, ticketId, userId, body, sendAt, createdAt, updatedAt)
     VALUES (1, 1, 1, 1, 'Lembrete', '${T}', '${T}', '${T}')`,
  `INSERT INTO user_ratings (companyId, ticketId, userId, rate, createdAt) VALUES
     (1, 1, 1, 3, '${T}')`,
  `INSERT INTO outbox (companyId, whatsappId, ticketId, messageId, wid, toJid, nextAttemptAt,
     createdAt, updatedAt) VALUES (1, 1, 1, 2, 'W2', '5511900000001@s.whatsapp.net', '${T}', '${T}',
     '${T}')`,
  `INSERT INTO simulator_sessions (whatsappId, companyId, number, linkedAt) VALUES
     (1, 1, '5511999999999', '${T}')`,
  `INSERT INTO simulator_sent (companyId, whatsappId, wid, toJid, createdAt, updatedAt) VALUES
     (1, 1, 'W2', '5511900000001@s.whatsapp.net', '${T}', '${T}')`,
  `INSERT INTO baileys_auth (companyId, whatsappId, category, id, value, updatedAt)
     VALUES (1, 1, 'creds', 'me', '{}', '${T}')`,
];

type Dump = Map<string, unknown[]>;

/** Every row of every ordinary table, in rowid (or key) order. */
async function dump(db: Database): Promise<Dump> {
  const tables = await sql<{ name: string }>`
    SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table'
      AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'kysely_%' ORDER BY name`.execute(db);
  const out: Dump = new Map();
  for (const { name } of tables.rows) {
    // Order by the first three columns, or all of them when a later migration's table has fewer.
    const columns = await sql<{ n: number }>`
      SELECT count(*) AS n FROM pragma_table_info(${name})`.execute(db);
    const terms = [1, 2, 3].slice(0, Math.min(3, columns.rows[0].n)).join(", ");
    const rows = await sql.raw(`SELECT * FROM "${name}" ORDER BY ${terms}`).execute(db);
    out.set(name, rows.rows);
  }
  return out;
}

async function searchIds(db: Database, term: string): Promise<number[]> {
  const rows = await sql<{ id: number }>`
    SELECT m.id FROM messages_fts f JOIN messages m ON f.rowid = m.ticketId * 4294967296 + m.id
    WHERE messages_fts MATCH ${term} ORDER BY m.id`.execute(db);
  return rows.rows.map((r) => r.id);
}

Deno.test("migration 0050 - a database from today's schema keeps every row and relation, and ids are never reused", async () => {
  await withOldDatabase(async (db, path) => {
    for (const statement of fixture) await sql.raw(statement).execute(db);
    // Reuse as it is today: delete the newest contact, insert another, it gets the same id.
    await sql`INSERT INTO contacts (uuid, companyId, name, number, createdAt, updatedAt)
      VALUES ('c-gone', 1, 'Temp', '5511900000099', ${T}, ${T})`.execute(db);
    const gone = await sql<{ id: number }>`SELECT max(id) AS id FROM contacts`.execute(db);
    assert.equal(gone.rows[0].id, 4);
    const countsBefore = await sql`SELECT * FROM ticket_counts ORDER BY 1, 2, 3, 4`.execute(db);
    const before = await dump(db);
    assert.deepEqual(await searchIds(db, "boleto"), [1]);

    // 0050 and 0051 run first; later blocks' migrations may follow.
    assert.deepEqual((await migrateToLatest(db)).slice(0, 2), [
      "0050_rebuild_ids_autoincrement",
      "0051_create_sessions",
    ]);

    const after = await dump(db);
    for (const [table, rows] of before) {
      const expected = table === "whatsapps"
        ? rows.map((row) => {
          const { token: _token, ...rest } = row as Record<string, unknown>;
          return rest;
        })
        : rows;
      // Later migrations add columns: the columns the table had are compared.
      const had = Object.keys((expected[0] ?? {}) as Record<string, unknown>);
      const kept = (after.get(table) ?? []).map((row) => {
        const copy = { ...(row as Record<string, unknown>) };
        // 0700 keeps a plan's price in cents (valueCents) instead of reais (value).
        if (table === "plans") copy.value = (copy.valueCents as number) / 100;
        return Object.fromEntries(had.map((column) => [column, copy[column]]));
      });
      assert.deepEqual(kept, expected, `rows of ${table}`);
    }
    assert.deepEqual((await sql`PRAGMA foreign_key_check`.execute(db)).rows, []);
    assert.deepEqual((await sql`PRAGMA integrity_check`.execute(db)).rows, [{
      integrity_check: "ok",
    }]);
    const fk = await sql<{ foreign_keys: number }>`PRAGMA foreign_keys`.execute(db);
    assert.equal(fk.rows[0].foreign_keys, 1);

    // Every table with an integer id is now AUTOINCREMENT, seeded with its max id.
    const plain = await sql<{ name: string }>`
      SELECT m.name FROM sqlite_master m JOIN pragma_table_list l ON l.name = m.name
      WHERE l.schema = 'main' AND l.type = 'table' AND m.sql LIKE '%id INTEGER PRIMARY KEY,%'`
      .execute(db);
    assert.deepEqual(plain.rows, []);
    const seq = await sql<{ name: string; seq: number }>`
      SELECT name, seq FROM sqlite_sequence WHERE name IN ('contacts', 'messages', 'tickets', 'users')
      ORDER BY name`.execute(db);
    assert.deepEqual(seq.rows, [
      { name: "contacts", seq: 4 },
      { name: "messages", seq: 3 },
      { name: "tickets", seq: 3 },
      { name: "users", seq: 3 },
    ]);
    // Indexes came back (the one-open-ticket rule among them).
    const indexes = await sql<{ name: string }>`
      SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name`
      .execute(db);
    for (const name of ["tickets_one_open", "messages_wid", "contacts_lid", "outbox_wid"]) {
      assert.ok(indexes.rows.some((r) => r.name === name), name);
    }
    await assert.rejects(
      sql`INSERT INTO tickets (uuid, companyId, contactId, whatsappId, status, createdAt, updatedAt)
        VALUES ('t-dup', 1, 1, 1, 'pending', ${T}, ${T})`.execute(db),
      /UNIQUE/,
    );

    // The FTS triggers follow messages again; search still finds the old rows.
    assert.deepEqual(await searchIds(db, "boleto"), [1]);
    await sql`UPDATE messages SET body = 'segunda via do boleto' WHERE id = 3`.execute(db);
    assert.deepEqual(await searchIds(db, "boleto"), [1, 3]);
    await sql`DELETE FROM messages WHERE id = 1`.execute(db);
    assert.deepEqual(await searchIds(db, "boleto"), [3]);

    // ticket_counts kept its rows and its triggers still count.
    assert.deepEqual(
      (await sql`SELECT * FROM ticket_counts ORDER BY 1, 2, 3, 4`.execute(db)).rows,
      countsBefore.rows,
    );
    await sql`UPDATE tickets SET status = 'closed' WHERE id = 2`.execute(db);
    const pending = await sql<{ n: number }>`
      SELECT n FROM ticket_counts WHERE companyId = 1 AND status = 'pending' AND queueId = 2`
      .execute(db);
    assert.equal(pending.rows[0].n, 0);

    // Foreign keys act again: deleting a contact cascades to its tickets and their messages.
    await sql`DELETE FROM contacts WHERE id = 2`.execute(db);
    const orphans = await sql`SELECT id FROM tickets WHERE contactId = 2`.execute(db);
    assert.deepEqual(orphans.rows, []);

    // Ids are never handed out twice: the newest contact deleted, the next one gets a new id,
    // and so it does after the database is closed and opened again.
    await sql`DELETE FROM contacts WHERE id = 4`.execute(db);
    const next = await sql<{ id: number }>`INSERT INTO contacts (uuid, companyId, name, number,
      createdAt, updatedAt) VALUES ('c-5', 1, 'Nova', '5511900000005', ${T}, ${T}) RETURNING id`
      .execute(db);
    assert.equal(next.rows[0].id, 5);
    await sql`DELETE FROM contacts WHERE id = 5`.execute(db);
    await db.destroy();
    const reopened = await openDatabase(`file:${path}`);
    try {
      assert.deepEqual(await migrateToLatest(reopened), []);
      const again = await sql<{ id: number }>`INSERT INTO contacts (uuid, companyId, name, number,
        createdAt, updatedAt) VALUES ('c-6', 1, 'Outra', '5511900000006', ${T}, ${T}) RETURNING id`
        .execute(reopened);
      assert.equal(again.rows[0].id, 6);
    } finally {
      await reopened.destroy();
    }
  });
});

Deno.test("migration 0050 - only a plain integer id becomes AUTOINCREMENT, under the new name", () => {
  assert.equal(
    autoincrementDefinition(`CREATE TABLE tags (\n  id INTEGER PRIMARY KEY,\n  name TEXT)`, "x"),
    `CREATE TABLE "x" (\n  id INTEGER PRIMARY KEY AUTOINCREMENT,\n  name TEXT)`,
  );
  assert.equal(
    autoincrementDefinition(`CREATE TABLE a (id INTEGER PRIMARY KEY AUTOINCREMENT)`, "x"),
    undefined,
  );
  assert.equal(autoincrementDefinition(`CREATE TABLE r (id TEXT PRIMARY KEY)`, "x"), undefined);
  assert.equal(
    autoincrementDefinition(`CREATE TABLE s (whatsappId INTEGER PRIMARY KEY)`, "x"),
    undefined,
  );
});
