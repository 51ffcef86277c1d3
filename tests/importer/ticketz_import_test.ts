import assert from "node:assert/strict";
import { openDatabase } from "../../db/client.ts";
import { startPostgres } from "../helpers/postgres_server.ts";
import { createTicketzSchema, fillTicketz } from "../helpers/ticketz_source.ts";
import { runImporter } from "../helpers/whaticket_source.ts";

/**
 * Issue 47: a ticketz database (the SaaS schema changed by ticketz's own migrations) is told
 * apart by its SequelizeMeta and imported: its DATE due date, its LID map, its messages keyed by
 * id and ticket (the same id in two tickets), a quote of a message of the contact's earlier
 * ticket; then a rerun doubles nothing.
 */

Deno.test("import ticketz: detected by its migrations, its own columns and keys mapped, a rerun adds nothing", async () => {
  const pg = await startPostgres();
  const dataDir = await Deno.makeTempDir({ prefix: "balcao-import-" });
  try {
    const url = await createTicketzSchema(pg);
    await fillTicketz(pg, url);
    const first = await runImporter(dataDir, ["--from", url]);
    assert.equal(first.code, 0, first.stderr + first.stdout);
    assert.match(first.stdout, /source: ticketz 20260522120000-add-error-to-messages/);
    // The same WhatsApp message in two tickets of one connection is one message here.
    assert.match(
      first.stdout,
      /messages: read 4, imported 3, updated 0, unchanged 0, skipped 1 \(1 duplicate in Balcão/,
    );

    const db = await openDatabase(`file:${dataDir}/balcao.db`);
    try {
      const company = await db.selectFrom("companies").selectAll()
        .where("name", "=", "Ticketz Ltda").executeTakeFirstOrThrow();
      const c = company.id;
      assert.equal(company.dueDate, "2025-07-15");
      const plan = await db.selectFrom("plans").selectAll().where("id", "=", company.planId!)
        .executeTakeFirstOrThrow();
      assert.deepEqual([plan.name, plan.valueCents, plan.users], ["Plano Z", 4990, 3]);
      const contact = await db.selectFrom("contacts").selectAll().where("companyId", "=", c)
        .executeTakeFirstOrThrow();
      assert.deepEqual([contact.name, contact.number, contact.lid], [
        "Bia",
        "5511955554444",
        "112233445566",
      ]);
      const user = await db.selectFrom("users").select(["email", "profile"])
        .where("companyId", "=", c).executeTakeFirstOrThrow();
      assert.deepEqual(user, { email: "zeca@ticketz.test", profile: "admin" });

      const tickets = await db.selectFrom("tickets").select(["id", "uuid", "status"])
        .where("companyId", "=", c).orderBy("id").execute();
      assert.deepEqual(tickets.map((t) => [t.uuid, t.status]), [
        ["b0000000-0000-4000-8000-000000000001", "closed"],
        ["b0000000-0000-4000-8000-000000000002", "open"],
      ]);
      const messages = await db.selectFrom("messages")
        .select(["id", "wid", "ticketId", "body", "fromMe", "quotedMsgId"])
        .where("companyId", "=", c).orderBy("createdAt").execute();
      assert.deepEqual(messages.map((m) => [m.wid, m.ticketId, m.body, m.fromMe]), [
        ["TZ-1", tickets[0].id, "primeira", 0],
        ["TZ-2", tickets[0].id, "pergunta antiga", 0],
        ["TZ-3", tickets[1].id, "respondendo", 1],
      ]);
      // The quote names only "TZ-2": it is the earlier ticket's message.
      assert.equal(messages[2].quotedMsgId, messages[1].id);
    } finally {
      await db.destroy();
    }

    const second = await runImporter(dataDir, ["--from", url]);
    assert.equal(second.code, 0, second.stderr + second.stdout);
    assert.match(second.stdout, /messages: read 4, imported 0, updated 0, unchanged 3/);
    assert.match(second.stdout, /contacts: read 1, imported 0, updated 0, unchanged 1/);
    const again = await openDatabase(`file:${dataDir}/balcao.db`);
    try {
      const n = await again.selectFrom("messages").select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      assert.equal(Number(n.n), 3);
    } finally {
      await again.destroy();
    }
  } finally {
    await pg.stop();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
