import assert from "node:assert/strict";
import bcrypt from "bcryptjs";
import { sql } from "kysely";
import { openDatabase } from "../../db/client.ts";
import { startPostgres } from "../helpers/postgres_server.ts";
import {
  createSourceSchema,
  fillCommunity,
  OLD_PASSWORDS,
  runImporter,
} from "../helpers/whaticket_source.ts";

/**
 * Issue 47: `deno task import:whaticket -- --from <url>` on a whaticket-community database made as
 * its Sequelize migrations make it, into a data folder never started: every row and field after
 * the import, then a rerun that doubles nothing.
 */

Deno.test("import whaticket-community: every mapped row and field, then a rerun adds nothing", async () => {
  const pg = await startPostgres();
  const dataDir = await Deno.makeTempDir({ prefix: "balcao-import-" });
  const media = await Deno.makeTempDir({ prefix: "whaticket-public-" });
  try {
    const url = await createSourceSchema(pg, "community");
    await fillCommunity(pg, url);
    // One of the two media files is there (a JPEG by its bytes); the audio is missing.
    await Deno.writeFile(
      `${media}/1709294400000-foto.jpg`,
      new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4]),
    );
    const first = await runImporter(dataDir, ["--from", url, "--media", media]);
    assert.deepEqual(first.code, 0, first.stderr + first.stdout);
    assert.match(first.stdout, /source: whaticket-community 20220223095932-add-whatsapp-to-user/);
    assert.match(first.stdout, /messages: read 9, imported 9/);

    const db = await openDatabase(`file:${dataDir}/balcao.db`);
    try {
      const company = await db.selectFrom("companies").selectAll().where("name", "=", "Whaticket")
        .executeTakeFirstOrThrow();
      const c = company.id;
      // The first start ran too: its company is there beside the imported one.
      assert.deepEqual(
        (await db.selectFrom("companies").select("name").orderBy("id").execute())
          .map((r) => r.name),
        ["Empresa 1", "Whaticket"],
      );

      const settings = await db.selectFrom("settings").select(["key", "value"])
        .where("companyId", "=", c).execute();
      assert.deepEqual(settings.find((s) => s.key === "userCreation")?.value, "disabled");
      assert.deepEqual(settings.find((s) => s.key === "someOldOnlyKey"), undefined);

      const [conn] = await db.selectFrom("whatsapps").selectAll().where("companyId", "=", c)
        .execute();
      assert.deepEqual(
        [conn.name, conn.status, conn.isDefault, conn.greetingMessage, conn.complationMessage],
        ["Comercial", "DISCONNECTED", 1, "Bem-vindo!", "Até logo!"],
      );

      const queues = await db.selectFrom("queues").select([
        "id",
        "name",
        "color",
        "greetingMessage",
      ])
        .where("companyId", "=", c).orderBy("id").execute();
      assert.deepEqual(queues.map((q) => [q.name, q.color, q.greetingMessage]), [
        ["Vendas", "#ff0000", "Fila de vendas"],
        ["Suporte", "#00ff00", ""],
      ]);
      assert.deepEqual(
        (await db.selectFrom("whatsapp_queues").select("queueId").where("companyId", "=", c)
          .execute()).length,
        2,
      );

      const users = await db.selectFrom("users").selectAll().where("companyId", "=", c)
        .orderBy("id").execute();
      assert.deepEqual(users.map((u) => [u.name, u.email, u.profile, u.super, u.tokenVersion]), [
        ["Ana Admin", "ana@old.test", "admin", 0, 2],
        ["Bruno", "bruno@old.test", "user", 0, 0],
      ]);
      assert.deepEqual(users[0].whatsappId, conn.id);
      assert.ok(await bcrypt.compare(OLD_PASSWORDS.ana, users[0].passwordHash));
      const userQueues = await db.selectFrom("user_queues").select(["userId", "queueId"])
        .where("companyId", "=", c).orderBy("userId").execute();
      assert.deepEqual(userQueues, [
        { userId: users[0].id, queueId: queues[0].id },
        { userId: users[1].id, queueId: queues[1].id },
      ]);

      const contacts = await db.selectFrom("contacts").selectAll().where("companyId", "=", c)
        .orderBy("id").execute();
      assert.deepEqual(contacts.map((k) => [k.name, k.number, k.lid, k.email, k.isGroup]), [
        ["Carla", "5511999990001", null, "carla@mail.test", 0],
        ["Grupo Família", "120363000000000001", null, "", 1],
        ["Lia", "98765432109876", "98765432109876", "", 0],
      ]);
      assert.deepEqual(contacts[0].profilePicUrl, "https://pps.example/carla.jpg");
      const fields = await db.selectFrom("contact_custom_fields").select([
        "name",
        "value",
        "contactId",
      ])
        .where("companyId", "=", c).execute();
      assert.deepEqual(fields, [{
        name: "CPF",
        value: "123.456.789-00",
        contactId: contacts[0].id,
      }]);

      const tickets = await db.selectFrom("tickets").selectAll().where("companyId", "=", c)
        .orderBy("id").execute();
      assert.deepEqual(
        tickets.map((t) => [
          t.status,
          t.contactId,
          t.userId,
          t.queueId,
          t.isGroup,
          t.unreadMessages,
          t.lastMessage,
        ]),
        [
          ["closed", contacts[0].id, users[0].id, queues[0].id, 0, 0, "Oi, em que posso ajudar?"],
          ["open", contacts[0].id, users[1].id, queues[1].id, 0, 2, "Preciso de suporte"],
          ["pending", contacts[1].id, null, null, 1, 1, "Bom dia grupo"],
          ["open", contacts[2].id, null, null, 0, 0, "Olá"],
          // A second open ticket of Carla on the same connection: Balcão keeps one open.
          ["closed", contacts[0].id, users[0].id, queues[0].id, 0, 0, "duplicado"],
        ],
      );
      assert.deepEqual(tickets[0].createdAt, "2024-03-01T12:01:00.000Z");
      assert.deepEqual(tickets[0].closedAt, "2024-03-01T12:09:00.000Z");
      assert.match(first.stdout, /tickets: read 5, imported 5.*1 imported closed/);

      // The report timeline holds the closed ticket's history; counters hold the open ones.
      const facts = await db.selectFrom("ticket_events").select(["kind", "seconds"])
        .where("ticketId", "=", tickets[0].id).orderBy("id").execute();
      assert.deepEqual(facts.map((f) => f.kind), ["created", "queued", "accepted", "resolved"]);
      assert.deepEqual(facts[3].seconds, 480);

      const messages = await db.selectFrom("messages").selectAll().where("companyId", "=", c)
        .orderBy("createdAt").orderBy("wid").execute();
      const byWid = new Map(messages.map((m) => [m.wid, m]));
      assert.deepEqual(messages.length, 9);
      const m2 = byWid.get("WID-2")!;
      assert.deepEqual([m2.body, m2.fromMe, m2.ack, m2.ticketId, m2.contactId], [
        "Oi, em que posso ajudar?",
        1,
        3,
        tickets[0].id,
        null,
      ]);
      assert.deepEqual(m2.quotedMsgId, byWid.get("WID-1")!.id);
      assert.deepEqual(byWid.get("WID-9")!.quotedMsgId, null);
      assert.deepEqual(byWid.get("WID-4")!.isDeleted, 1);
      assert.deepEqual(byWid.get("WID-6")!.contactId, contacts[0].id); // a group member's message
      const photo = byWid.get("WID-3")!;
      assert.deepEqual([photo.mediaType, photo.mediaMimetype], ["image", "image/jpeg"]);
      assert.match(photo.mediaUrl!, new RegExp(`^${c}/[0-9a-f-]{36}\\.jpe?g$`));
      assert.deepEqual(
        await Deno.readFile(`${dataDir}/media/${photo.mediaUrl}`).then((b) => b.length),
        8,
      );
      const audio = byWid.get("WID-8")!;
      assert.deepEqual(audio.mediaUrl, null);
      assert.match(audio.body, /arquivo não encontrado/);
      assert.match(first.stdout, /1 media file missing/);
      assert.match(first.stdout, /1 quoted message missing/);

      // The search index has the imported messages.
      const hits = await sql<{ n: number }>`SELECT count(*) AS n FROM messages_fts
        WHERE messages_fts MATCH 'suporte'`.execute(db);
      assert.deepEqual(Number(hits.rows[0].n), 1);

      const quick = await db.selectFrom("quick_messages").select(["shortcode", "message", "geral"])
        .where("companyId", "=", c).execute();
      assert.deepEqual(quick, [{ shortcode: "oi", message: "Olá! Como posso ajudar?", geral: 1 }]);
    } finally {
      await db.destroy();
    }

    // A rerun reads everything again and writes nothing new.
    const second = await runImporter(dataDir, ["--from", url, "--media", media]);
    assert.deepEqual(second.code, 0, second.stderr + second.stdout);
    assert.match(second.stdout, /messages: read 9, imported 0, updated 0, unchanged 9/);
    assert.match(second.stdout, /tickets: read 5, imported 0, updated 0, unchanged 5/);
    const again = await openDatabase(`file:${dataDir}/balcao.db`);
    try {
      const n = await again.selectFrom("messages").select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      assert.deepEqual(Number(n.n), 9);
    } finally {
      await again.destroy();
    }
  } finally {
    await pg.stop();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    await Deno.remove(media, { recursive: true }).catch(() => {});
  }
});
