import assert from "node:assert/strict";
import { openDatabase } from "../../db/client.ts";
import { startPostgres } from "../helpers/postgres_server.ts";
import { createSourceSchema, fillSaas, runImporter } from "../helpers/whaticket_source.ts";

/**
 * Issue 47: a Whaticket SaaS database (companies, plans and what only the SaaS line has: chatbot
 * trees, tags, schedules, ratings, notes) imported company by company; a company named as one of
 * ours is renamed and the summary says so; `--company` brings one company only.
 */

Deno.test("import whaticket-saas: companies with plan and due date, a name clash renamed, SaaS-only tables", async () => {
  const pg = await startPostgres();
  const dataDir = await Deno.makeTempDir({ prefix: "balcao-import-" });
  try {
    const url = await createSourceSchema(pg, "saas");
    await fillSaas(pg, url);
    const run = await runImporter(dataDir, ["--from", url]);
    assert.equal(run.code, 0, run.stderr + run.stdout);
    assert.match(
      run.stdout,
      /source: whaticket-saas 20231219153800-add-isEdited-column-to-messages/,
    );
    assert.match(run.stdout, /note: company "Empresa 1" imported as "Empresa 1 \(importada\)"/);
    assert.match(run.stdout, /note: user dono@saas.test was a super user there/);

    const db = await openDatabase(`file:${dataDir}/balcao.db`);
    try {
      const companies = await db.selectFrom("companies").selectAll().orderBy("id").execute();
      assert.deepEqual(companies.map((c) => c.name), [
        "Empresa 1",
        "Empresa 1 (importada)",
        "Loja Dois",
      ]);
      const [, one, two] = companies;
      const plan = await db.selectFrom("plans").selectAll().where("id", "=", one.planId!)
        .executeTakeFirstOrThrow();
      assert.deepEqual([plan.name, plan.users, plan.connections, plan.queues, plan.valueCents], [
        "Plano Básico",
        5,
        2,
        3,
        9900,
      ]);
      assert.equal(two.planId, one.planId);
      assert.deepEqual([one.dueDate, one.recurrence, one.email, one.status], [
        "2025-01-10",
        "MENSAL",
        "dona@empresa1.test",
        1,
      ]);
      assert.match(one.schedules, /Segunda-feira/);

      const rating = async (companyId: number) =>
        (await db.selectFrom("settings").select("value").where("companyId", "=", companyId)
          .where("key", "=", "userRating").executeTakeFirstOrThrow()).value;
      assert.equal(await rating(one.id), "enabled");
      assert.equal(await rating(two.id), "disabled");

      const conns = await db.selectFrom("whatsapps").selectAll().where("companyId", "=", one.id)
        .execute();
      assert.deepEqual(
        conns.map((
          w,
        ) => [w.name, w.status, w.complationMessage, w.outOfHoursMessage, w.ratingMessage]),
        [["Zap 1", "DISCONNECTED", "Tchau", "Fechado agora", "Nota de 1 a 3"]],
      );

      const users = await db.selectFrom("users").select(["email", "companyId", "super", "profile"])
        .where("companyId", "in", [one.id, two.id]).orderBy("id").execute();
      assert.deepEqual(users, [
        { email: "dono@saas.test", companyId: one.id, super: 0, profile: "admin" },
        { email: "dora@saas.test", companyId: two.id, super: 0, profile: "user" },
      ]);

      const [queue] = await db.selectFrom("queues").selectAll().where("companyId", "=", one.id)
        .execute();
      assert.equal(queue.outOfHoursMessage, "Fora do horário");
      const options = await db.selectFrom("queue_options").selectAll()
        .where("companyId", "=", one.id).orderBy("id").execute();
      assert.deepEqual(options.map((o) => [o.title, o.option, o.queueId]), [
        ["Financeiro", "1", queue.id],
        ["Boletos", "1", queue.id],
      ]);
      assert.equal(options[1].parentId, options[0].id);

      const tickets = await db.selectFrom("tickets").selectAll()
        .where("companyId", "in", [one.id, two.id]).orderBy("id").execute();
      assert.deepEqual(tickets.map((t) => [t.uuid, t.status, t.companyId]), [
        ["a0000000-0000-4000-8000-000000000001", "open", one.id],
        ["a0000000-0000-4000-8000-000000000002", "closed", two.id],
      ]);
      const tags = await db.selectFrom("ticket_tags").innerJoin(
        "tags",
        "tags.id",
        "ticket_tags.tagId",
      )
        .select(["tags.name", "tags.color", "ticket_tags.ticketId"]).execute();
      assert.deepEqual(tags, [{ name: "VIP", color: "#ffcc00", ticketId: tickets[0].id }]);

      const edited = await db.selectFrom("messages").selectAll().where("wid", "=", "S-1")
        .executeTakeFirstOrThrow();
      assert.deepEqual(
        [edited.isEdited, edited.remoteJid, edited.dataJson, edited.companyId],
        [1, "5511988887777@s.whatsapp.net", '{"k":1}', one.id],
      );

      const schedules = await db.selectFrom("schedules").select(["body", "status", "sentAt"])
        .where("companyId", "=", one.id).orderBy("id").execute();
      assert.deepEqual(schedules, [
        { body: "Lembrete", status: "PENDENTE", sentAt: null },
        { body: "Enviado", status: "ENVIADA", sentAt: "2024-04-01T12:00:05.000Z" },
      ]);
      const quick = await db.selectFrom("quick_messages").select(["shortcode", "geral"])
        .where("companyId", "=", one.id).execute();
      assert.deepEqual(quick, [{ shortcode: "boleto", geral: 0 }]);
      const notes = await db.selectFrom("ticket_notes").select(["note", "ticketId"])
        .where("companyId", "=", one.id).execute();
      assert.deepEqual(notes, [{ note: "cliente pediu retorno", ticketId: tickets[0].id }]);
      // A rating is a fact of the report timeline.
      const rated = await db.selectFrom("ticket_events").select(["kind", "value"])
        .where("ticketId", "=", tickets[1].id).where("kind", "=", "rated").execute();
      assert.deepEqual(rated, [{ kind: "rated", value: 3 }]);

      // Contact lists with their items (a number kept as digits; one without a number skipped),
      // each company's own; invoices with their status.
      const lists = await db.selectFrom("contact_lists").select(["id", "name", "companyId"])
        .where("companyId", "in", [one.id, two.id]).orderBy("id").execute();
      assert.deepEqual(lists.map((l) => [l.name, l.companyId]), [
        ["Clientes VIP", one.id],
        ["Outra empresa", two.id],
      ]);
      const items = await db.selectFrom("contact_list_items")
        .select(["contactListId", "companyId", "name", "number", "email", "isWhatsappValid"])
        .where("companyId", "in", [one.id, two.id]).orderBy("id").execute();
      assert.deepEqual(items, [
        {
          contactListId: lists[0].id,
          companyId: one.id,
          name: "Rita",
          number: "5511977770001",
          email: "rita@mail.test",
          isWhatsappValid: 1,
        },
        {
          contactListId: lists[1].id,
          companyId: two.id,
          name: "Téo",
          number: "5521966660002",
          email: "",
          isWhatsappValid: null,
        },
      ]);
      assert.match(
        run.stdout,
        /contact_list_items: read 2, imported 1, .*skipped 1 \(1 no number\)/,
      );
      const invoices = await db.selectFrom("invoices")
        .select(["detail", "valueCents", "dueDate", "status", "paidAt", "paidVia"])
        .where("companyId", "=", one.id).orderBy("dueDate").execute();
      assert.deepEqual(invoices, [
        {
          detail: "Plano Pro - maio",
          valueCents: 14990,
          dueDate: "2024-05-10",
          status: "paid",
          paidAt: "2024-05-01T09:05:00.000Z",
          paidVia: "import",
        },
        {
          detail: "Plano Pro - junho",
          valueCents: 14990,
          dueDate: "2024-06-10",
          status: "open",
          paidAt: null,
          paidVia: null,
        },
      ]);

      // Campaigns: history and reports, never sent again. The running one arrives CANCELADA (our
      // dispatcher sends only EM_ANDAMENTO); its delivered row is delivered, the other pending.
      const campaigns = await db.selectFrom("campaigns").selectAll()
        .where("companyId", "=", one.id).orderBy("id").execute();
      assert.deepEqual(
        campaigns.map((c) => [
          c.name,
          c.status,
          c.message1,
          c.message2,
          c.confirmationMessage1,
          c.confirmation,
          c.contactListId,
          c.whatsappId,
          c.scheduledAt,
          c.completedAt,
        ]),
        [
          [
            "Black Friday",
            "FINALIZADA",
            "Oferta {nome}!",
            "Promo {nome}",
            "Confirma, {nome}?",
            1,
            lists[0].id,
            conns[0].id,
            "2024-04-20T10:00:00.000Z",
            "2024-04-20T11:00:00.000Z",
          ],
          [
            "Natal",
            "CANCELADA",
            "Feliz Natal",
            "",
            "",
            0,
            lists[0].id,
            conns[0].id,
            "2024-04-25T10:00:00.000Z",
            null,
          ],
        ],
      );
      assert.match(
        run.stdout,
        /campaigns: read 2, imported 2, .*1 imported CANCELADA: it was EM_ANDAMENTO/,
      );
      const shipping = await db.selectFrom("campaign_shipping")
        .select([
          "campaignId",
          "companyId",
          "number",
          "message",
          "status",
          "contactListItemId",
          "confirmation",
          "confirmedAt",
          "deliveredAt",
        ]).orderBy("id").execute();
      const rita = (await db.selectFrom("contact_list_items").select("id")
        .where("name", "=", "Rita").executeTakeFirstOrThrow()).id;
      assert.deepEqual(shipping, [
        {
          campaignId: campaigns[0].id,
          companyId: one.id,
          number: "5511977770001",
          message: "Oferta Rita!",
          status: "delivered",
          contactListItemId: rita,
          confirmation: 1,
          confirmedAt: "2024-04-20T10:05:00.000Z",
          deliveredAt: "2024-04-20T10:06:00.000Z",
        },
        {
          campaignId: campaigns[0].id,
          companyId: one.id,
          number: "5511977770009",
          message: "Oferta Zé!",
          status: "delivered",
          contactListItemId: null,
          confirmation: 0,
          confirmedAt: null,
          deliveredAt: "2024-04-20T10:02:00.000Z",
        },
        {
          campaignId: campaigns[1].id,
          companyId: one.id,
          number: "5511977770001",
          message: "Feliz Natal",
          status: "delivered",
          contactListItemId: rita,
          confirmation: 0,
          confirmedAt: null,
          deliveredAt: "2024-04-25T10:01:00.000Z",
        },
        {
          campaignId: campaigns[1].id,
          companyId: one.id,
          number: "5511977770008",
          message: "Feliz Natal",
          status: "pending",
          contactListItemId: null,
          confirmation: 0,
          confirmedAt: null,
          deliveredAt: null,
        },
      ]);
      const notices = await db.selectFrom("announcements")
        .select(["companyId", "title", "text", "priority", "status", "mediaPath"]).orderBy("id")
        .execute();
      assert.deepEqual(notices, [
        {
          companyId: one.id,
          title: "Manutenção",
          text: "Sábado às 22h",
          priority: 1,
          status: 1,
          mediaPath: null,
        },
        {
          companyId: one.id,
          title: "Antigo",
          text: "Já passou",
          priority: 3,
          status: 0,
          mediaPath: null,
        },
      ]);
      assert.match(run.stdout, /announcements: read 2, imported 2, .*1 image not copied/);
    } finally {
      await db.destroy();
    }
  } finally {
    await pg.stop();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});

Deno.test("import whaticket-saas --company: one company's records only", async () => {
  const pg = await startPostgres();
  const dataDir = await Deno.makeTempDir({ prefix: "balcao-import-" });
  try {
    const url = await createSourceSchema(pg, "saas");
    await fillSaas(pg, url);
    const run = await runImporter(dataDir, ["--from", url, "--company", "2"]);
    assert.equal(run.code, 0, run.stderr + run.stdout);
    const db = await openDatabase(`file:${dataDir}/balcao.db`);
    try {
      assert.deepEqual(
        (await db.selectFrom("companies").select("name").orderBy("id").execute()).map((c) =>
          c.name
        ),
        ["Empresa 1", "Loja Dois"],
      );
      const two = await db.selectFrom("companies").select("id").where("name", "=", "Loja Dois")
        .executeTakeFirstOrThrow();
      const wids = await db.selectFrom("messages").select(["wid", "companyId"]).execute();
      assert.deepEqual(wids, [{ wid: "S-2", companyId: two.id }]);
      assert.equal(
        (await db.selectFrom("users").select("email").where("companyId", "=", two.id).execute())
          .length,
        1,
      );
    } finally {
      await db.destroy();
    }
  } finally {
    await pg.stop();
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  }
});
