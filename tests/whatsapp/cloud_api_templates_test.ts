import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { messagesPost } from "../fakes/graph.ts";
import { syncDueTemplates } from "../../server/whatsapp/providers/cloud_api/templates.ts";
import { type CloudSetup, postWebhook, withCloud } from "./cloud_helpers.ts";

const APPROVED = {
  name: "pedido_pronto",
  language: "pt_BR",
  status: "APPROVED",
  category: "UTILITY",
  components: [{ type: "BODY", text: "Olá {{1}}, seu pedido {{2}} está pronto." }],
};
const PENDING = {
  name: "promo",
  language: "pt_BR",
  status: "PENDING",
  category: "MARKETING",
  components: [{ type: "BODY", text: "Promoção!" }],
};

const templateGets = (s: CloudSetup) =>
  s.graph.requests.filter((r) => r.path.endsWith("/message_templates")).length;

async function syncedAt(s: CloudSetup) {
  const row = await s.t.deps.db.selectFrom("whatsapp_cloud").select("templatesSyncedAt")
    .where("whatsappId", "=", s.whatsappId).executeTakeFirstOrThrow();
  return row.templatesSyncedAt;
}

Deno.test("cloud templates job - syncs each connection once an hour, state in the database; a failure is retried next tick", async () => {
  await withCloud(async (s) => {
    s.graph.templates.push(APPROVED, PENDING);
    assert.equal(await syncedAt(s), null);
    await syncDueTemplates(s.t.deps);
    assert.equal(await syncedAt(s), s.t.clock.now().toISOString());
    const rows = await s.t.deps.db.selectFrom("whatsapp_cloud_templates").select(["name", "status"])
      .where("whatsappId", "=", s.whatsappId).orderBy("name").execute();
    assert.deepEqual(rows, [
      { name: "pedido_pronto", status: "approved" },
      { name: "promo", status: "pending" },
    ]);
    // A second tick within the hour reads nothing (not due); the rows stay as they are.
    const gets = templateGets(s);
    await syncDueTemplates(s.t.deps);
    assert.equal(templateGets(s), gets);

    // An hour later Meta has approved 'promo'; the token then expires: the sync fails and keeps
    // its state, so the next tick (token renewed) tries again.
    s.t.clock.advance(61 * 60 * 1000);
    PENDING.status = "APPROVED";
    const token = s.graph.token;
    s.graph.token = "EAAG-some-other-token-000000";
    const before = await syncedAt(s);
    await syncDueTemplates(s.t.deps);
    assert.equal(await syncedAt(s), before);
    s.graph.token = token;
    await syncDueTemplates(s.t.deps);
    assert.equal(await syncedAt(s), s.t.clock.now().toISOString());
    const promo = await s.t.deps.db.selectFrom("whatsapp_cloud_templates").select("status")
      .where("whatsappId", "=", s.whatsappId).where("name", "=", "promo")
      .executeTakeFirstOrThrow();
    assert.equal(promo.status, "approved");
    PENDING.status = "PENDING";
  });
});

Deno.test("cloud window route - the composer learns the window is closed and the approved templates; another company learns nothing", async () => {
  await withCloud(async (s) => {
    s.graph.templates.push(APPROVED, PENDING);
    await syncDueTemplates(s.t.deps);
    const at = Math.floor((s.t.clock.now().getTime() - 25 * 3600_000) / 1000);
    const res = await postWebhook(
      s,
      messagesPost(s.graph.phoneNumberId, {
        contacts: [{ profile: { name: "Ana" }, wa_id: "5511988887777" }],
        messages: [{
          from: "5511988887777",
          id: "wamid.W1",
          timestamp: String(at),
          type: "text",
          text: { body: "oi" },
        }],
      }),
    );
    assert.equal(res.status, 200);
    const ticket = await eventually(() =>
      s.t.deps.db.selectFrom("tickets").select("id").where("companyId", "=", s.a.id)
        .executeTakeFirst()
    );
    const window = await s.t.request("GET", `/api/messages/${ticket.id}/window`, {
      token: s.a.admin.token,
    });
    assert.equal(window.status, 200);
    assert.deepEqual(await window.json(), {
      window24h: true,
      open: false,
      closesAt: new Date(at * 1000 + 24 * 3600_000).toISOString(),
      templates: [{
        name: "pedido_pronto",
        language: "pt_BR",
        category: "utility",
        parameters: 2,
        body: "Olá {{1}}, seu pedido {{2}} está pronto.",
      }],
    });
    const b = await createCompany(s.t, "Beta");
    const foreign = await s.t.request("GET", `/api/messages/${ticket.id}/window`, {
      token: b.admin.token,
    });
    assert.equal(foreign.status, 404);
    assert.equal((await foreign.json()).error, "ERR_NO_TICKET_FOUND");
    const foreignList = await s.t.request("GET", `/api/whatsapp/${s.whatsappId}/templates`, {
      token: b.admin.token,
    });
    assert.equal(foreignList.status, 404);
  });
});
