import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { dispatchTick } from "../../server/campaigns/dispatcher.ts";
import { sendDueSchedules } from "../../server/schedules/sending.ts";
import { syncDueTemplates } from "../../server/whatsapp/providers/cloud_api/templates.ts";
import { eventually } from "../helpers/eventually.ts";
import { addContact } from "../helpers/tickets.ts";
import { saveSettings, seedList } from "../campaigns/helpers.ts";
import { type CloudSetup, ORDER_READY as ORDER, withCloud } from "./cloud_helpers.ts";

/**
 * Issue 45 item 6: campaigns, schedules and the external API on a Cloud API connection send
 * approved templates; free-form ones are refused when saved (422), not at dispatch.
 */
async function ready(s: CloudSetup) {
  s.graph.templates.push(ORDER);
  await syncDueTemplates(s.t.deps);
}

async function errorOf(res: Response, status: number) {
  const text = await res.text();
  assert.equal(res.status, status, text);
  return JSON.parse(text);
}

const templateSends = (s: CloudSetup) =>
  s.graph.sends().filter((b) => b.type === "template") as {
    to: string;
    template: { name: string; components: { parameters: { text: string }[] }[] };
  }[];

Deno.test("cloud campaigns - free text is refused when saved (422, pt/en/es); a template campaign sends each recipient's filled template", async () => {
  await withCloud(async (s) => {
    await ready(s);
    const { t, a } = s;
    await saveSettings(t, a, { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const listId = await seedList(t, a, 2);
    const base = { name: "Aviso", whatsappId: s.whatsappId, contactListId: listId };

    // Free text on a connection with the window: refused at once; the page says it in pt/en/es.
    const refused = await t.request("POST", "/api/campaigns", {
      token: a.admin.token,
      body: { ...base, message1: "Olá {nome}!" },
    });
    assert.equal((await errorOf(refused, 422)).error, "ERR_WHATSAPP_TEMPLATE_REQUIRED");
    for (const [lang, word] of [["pt", "modelo"], ["en", "template"], ["es", "plantilla"]]) {
      const texts = JSON.parse(await Deno.readTextFile(`locales/${lang}.json`));
      assert.match(texts.errors.ERR_WHATSAPP_TEMPLATE_REQUIRED, new RegExp(word));
    }
    assert.equal(
      await t.deps.db.selectFrom("campaigns").select("id").execute().then((r) => r.length),
      0,
    );

    // A template with the wrong number of variables, or one not approved: refused too.
    const wrong = await t.request("POST", "/api/campaigns", {
      token: a.admin.token,
      body: { ...base, template: { name: "pedido_pronto", language: "pt_BR", parameters: ["x"] } },
    });
    assert.equal((await errorOf(wrong, 400)).error, "ERR_WHATSAPP_TEMPLATE_PARAMS");
    const unknown = await t.request("POST", "/api/campaigns", {
      token: a.admin.token,
      body: { ...base, template: { name: "promo", language: "pt_BR", parameters: [] } },
    });
    assert.equal((await errorOf(unknown, 400)).error, "ERR_WHATSAPP_TEMPLATE_NOT_FOUND");

    // A confirmation request is free text: refused with the template too.
    const template = { name: "pedido_pronto", language: "pt_BR", parameters: ["{nome}", "42"] };
    const confirming = await t.request("POST", "/api/campaigns", {
      token: a.admin.token,
      body: { ...base, template, confirmation: true, confirmationMessage1: "Confirma?" },
    });
    assert.equal((await errorOf(confirming, 422)).error, "ERR_WHATSAPP_TEMPLATE_REQUIRED");

    const created = await t.request("POST", "/api/campaigns", {
      token: a.admin.token,
      body: { ...base, template },
    });
    const campaign = await errorOf(created, 201);
    assert.deepEqual(campaign.template, template);

    // Editing it back to free text (template null) is refused as well; the row keeps its template.
    const back = await t.request("PUT", `/api/campaigns/${campaign.id}`, {
      token: a.admin.token,
      body: { template: null, message1: "Oi" },
    });
    assert.equal((await errorOf(back, 422)).error, "ERR_WHATSAPP_TEMPLATE_REQUIRED");
    const scheduled = await t.request("PUT", `/api/campaigns/${campaign.id}`, {
      token: a.admin.token,
      body: { scheduledAt: t.clock.now().toISOString() },
    });
    assert.deepEqual((await errorOf(scheduled, 200)).template, template);

    for (let i = 0; i < 20; i++) {
      await dispatchTick(t.deps);
      await t.deps.sessions.outbox.idle();
      const row = await t.deps.db.selectFrom("campaigns").select("status")
        .where("id", "=", campaign.id).executeTakeFirstOrThrow();
      if (row.status === "FINALIZADA") break;
    }
    const sent = templateSends(s);
    assert.equal(sent.length, 2);
    assert.equal(s.graph.sends().length, 2, "no free text went");
    const people = await t.deps.db.selectFrom("contact_list_items").select(["name", "number"])
      .where("contactListId", "=", listId).orderBy("number").execute();
    assert.deepEqual(
      sent.map((b) => [b.to, b.template.components[0].parameters.map((p) => p.text)]).sort(),
      people.map((p) => [p.number, [p.name, "42"]]).sort(),
    );
    const shipping = await t.deps.db.selectFrom("campaign_shipping").select(["message", "status"])
      .where("campaignId", "=", campaign.id).orderBy("number").execute();
    assert.deepEqual(
      shipping.map((r) => r.message),
      people.map((p) => `Olá ${p.name}, seu pedido 42 está pronto.`),
    );
  });
});

Deno.test("cloud schedules - a free-form schedule on the default Cloud API connection is refused when saved; a template one sends the template", async () => {
  await withCloud(async (s) => {
    await ready(s);
    const { t, a } = s;
    await t.request("PUT", `/api/whatsapp/${s.whatsappId}`, {
      token: a.admin.token,
      body: { isDefault: true },
    });
    const contact = await addContact(t, a.id, "Bruna", "5511977776666");
    const sendAt = new Date(t.clock.now().getTime() + 60_000).toISOString();
    const free = await t.request("POST", "/api/schedules", {
      token: a.admin.token,
      body: { body: "Lembrete", contactId: contact, sendAt },
    });
    assert.equal((await errorOf(free, 422)).error, "ERR_WHATSAPP_TEMPLATE_REQUIRED");
    assert.equal((await t.deps.db.selectFrom("schedules").select("id").execute()).length, 0);

    const template = { name: "pedido_pronto", language: "pt_BR", parameters: ["{{name}}", "7"] };
    const saved = await errorOf(
      await t.request("POST", "/api/schedules", {
        token: a.admin.token,
        body: { body: "Lembrete", contactId: contact, sendAt, template },
      }),
      201,
    );
    assert.deepEqual(saved.template, template);
    t.clock.advance(2 * 60_000);
    await sendDueSchedules(t.deps);
    await eventually(() => templateSends(s).length === 1, { what: "the template sent" });
    const [sent] = templateSends(s);
    assert.equal(sent.to, "5511977776666");
    assert.deepEqual(sent.template.components[0].parameters.map((p) => p.text), ["Bruna", "7"]);
    const message = await t.deps.db.selectFrom("messages").select("body")
      .where("companyId", "=", a.id).where("fromMe", "=", 1).executeTakeFirstOrThrow();
    assert.equal(message.body, "Olá Bruna, seu pedido 7 está pronto.");
  });
});

Deno.test("cloud external API - free text to a contact outside the window is 422 before anything is queued; a template goes; another company's token cannot use the connection", async () => {
  await withCloud(async (s) => {
    await ready(s);
    const { t, a } = s;
    const made = await t.request("POST", `/api/whatsapp/${s.whatsappId}/token`, {
      token: a.admin.token,
    });
    const token = (await made.json()).token as string;
    const send = (body: unknown) => t.request("POST", "/api/messages/send", { token, body });

    const free = await send({ number: "5511966665555", body: "Oi" });
    assert.equal((await errorOf(free, 422)).error, "ERR_WHATSAPP_WINDOW_CLOSED");
    assert.equal((await t.deps.db.selectFrom("outbox").select("id").execute()).length, 0);

    const ok = await send({
      number: "5511966665555",
      template: { name: "pedido_pronto", language: "pt_BR", parameters: ["Caio", "9"] },
    });
    await errorOf(ok, 201);
    await eventually(() => templateSends(s).length === 1, { what: "the template sent" });
    assert.equal(templateSends(s)[0].to, "5511966665555");

    // Company B cannot reach A's connection or its templates.
    const b = await createCompany(t, "Beta");
    const other = await t.request("POST", `/api/whatsapp/${s.whatsappId}/token`, {
      token: b.admin.token,
    });
    assert.equal(other.status, 404);
  });
});
