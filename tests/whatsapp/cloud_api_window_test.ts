import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { messagesPost } from "../fakes/graph.ts";
import { type CloudSetup, postWebhook, withCloud } from "./cloud_helpers.ts";
import { BACKOFF_BASE_MS } from "../../server/whatsapp/providers/cloud_api/provider.ts";

const ANA = "5511988887777";

const TEMPLATES = [
  {
    name: "pedido_pronto",
    language: "pt_BR",
    status: "APPROVED",
    category: "UTILITY",
    components: [{ type: "BODY", text: "Olá {{1}}, seu pedido {{2}} está pronto." }],
  },
  {
    name: "promo",
    language: "pt_BR",
    status: "PENDING",
    category: "MARKETING",
    components: [{ type: "BODY", text: "Promoção!" }],
  },
  {
    name: "retomar",
    language: "en_US",
    status: "APPROVED",
    category: "UTILITY",
    components: [{ type: "HEADER", text: "Hi" }, { type: "BODY", text: "Hello {{1}}" }],
  },
];

/** A contact's text `hoursAgo` before the app's clock, through the signed webhook. */
async function contactWrites(s: CloudSetup, id: string, body: string, hoursAgo: number) {
  const at = Math.floor((s.t.clock.now().getTime() - hoursAgo * 3600_000) / 1000);
  const res = await postWebhook(
    s,
    messagesPost(s.graph.phoneNumberId, {
      messages: [{ from: ANA, id, timestamp: String(at), type: "text", text: { body } }],
    }),
  );
  assert.equal(res.status, 200);
  await eventually(async () => {
    const row = await s.t.deps.db.selectFrom("messages").select("id").where("wid", "=", id)
      .executeTakeFirst();
    return row !== undefined;
  }, { what: `message ${id} stored` });
}

async function openTicket(s: CloudSetup): Promise<number> {
  const ticket = await s.t.deps.db.selectFrom("tickets").select("id")
    .where("companyId", "=", s.a.id).executeTakeFirstOrThrow();
  const accepted = await s.t.request("PUT", `/api/tickets/${ticket.id}`, {
    token: s.a.admin.token,
    body: { action: "accept" },
  });
  assert.equal(accepted.status, 200);
  return ticket.id;
}

Deno.test("cloud templates - sync reads every page; the list answers name, language, status, category, parameters", async () => {
  await withCloud(async (s) => {
    s.graph.templates.push(...TEMPLATES);
    const sync = await s.t.request("POST", `/api/whatsapp/${s.whatsappId}/templates/sync`, {
      token: s.a.admin.token,
    });
    assert.equal(sync.status, 200);
    const pages = s.graph.requests.filter((r) => r.path.endsWith("/message_templates"));
    assert.equal(pages.length, 2, "two pages of two");
    const list = await s.t.request("GET", `/api/whatsapp/${s.whatsappId}/templates`, {
      token: s.a.user.token,
    });
    assert.deepEqual(
      (await list.json()).templates.map((t: Record<string, unknown>) => ({
        name: t.name,
        language: t.language,
        status: t.status,
        category: t.category,
        parameters: t.parameters,
      })),
      [
        {
          name: "pedido_pronto",
          language: "pt_BR",
          status: "approved",
          category: "utility",
          parameters: 2,
        },
        {
          name: "promo",
          language: "pt_BR",
          status: "pending",
          category: "marketing",
          parameters: 0,
        },
        {
          name: "retomar",
          language: "en_US",
          status: "approved",
          category: "utility",
          parameters: 1,
        },
      ],
    );
    // A template removed at Meta disappears at the next sync.
    s.graph.templates.splice(1, 1);
    await s.t.request("POST", `/api/whatsapp/${s.whatsappId}/templates/sync`, {
      token: s.a.admin.token,
    });
    const after = await (await s.t.request("GET", `/api/whatsapp/${s.whatsappId}/templates`, {
      token: s.a.admin.token,
    })).json();
    assert.deepEqual(after.templates.map((t: { name: string }) => t.name), [
      "pedido_pronto",
      "retomar",
    ]);
    const b = await createCompany(s.t, "Beta");
    const foreign = await s.t.request("GET", `/api/whatsapp/${s.whatsappId}/templates`, {
      token: b.admin.token,
    });
    assert.equal(foreign.status, 404);
  });
});

Deno.test("cloud window - past 24 hours free text is refused (422) and a template goes; the contact's reply reopens it", async () => {
  await withCloud(async (s) => {
    s.graph.templates.push(...TEMPLATES);
    await s.t.request("POST", `/api/whatsapp/${s.whatsappId}/templates/sync`, {
      token: s.a.admin.token,
    });
    await contactWrites(s, "wamid.OLD", "oi, ontem", 25);
    const ticketId = await openTicket(s);
    const sendsBefore = s.graph.sends().length;
    const closed = await s.t.request("POST", `/api/messages/${ticketId}`, {
      token: s.a.admin.token,
      body: { body: "Bom dia!" },
    });
    assert.equal(closed.status, 422);
    assert.equal((await closed.json()).error, "ERR_WHATSAPP_WINDOW_CLOSED");
    for (const lang of ["pt", "en", "es"]) {
      const texts = JSON.parse(await Deno.readTextFile(`locales/${lang}.json`));
      assert.ok(texts.errors.ERR_WHATSAPP_WINDOW_CLOSED, `${lang} has the text`);
    }
    // Parameters must match the template's variables; an unapproved one is refused.
    const wrongCount = await s.t.request("POST", `/api/messages/${ticketId}`, {
      token: s.a.admin.token,
      body: { template: { name: "pedido_pronto", language: "pt_BR", parameters: ["Ana"] } },
    });
    assert.equal((await wrongCount.json()).error, "ERR_WHATSAPP_TEMPLATE_PARAMS");
    const pending = await s.t.request("POST", `/api/messages/${ticketId}`, {
      token: s.a.admin.token,
      body: { template: { name: "promo", language: "pt_BR", parameters: [] } },
    });
    assert.equal((await pending.json()).error, "ERR_WHATSAPP_TEMPLATE_NOT_FOUND");
    const template = await s.t.request("POST", `/api/messages/${ticketId}`, {
      token: s.a.admin.token,
      body: { template: { name: "pedido_pronto", language: "pt_BR", parameters: ["Ana", "42"] } },
    });
    assert.equal(template.status, 201);
    assert.equal((await template.json()).messages[0].body, "Olá Ana, seu pedido 42 está pronto.");
    const sent = await eventually(() => s.graph.sends().slice(sendsBefore).at(0));
    // Our outbox id rides along, for the statuses to name it (a send whose answer was lost).
    const [row] = await s.t.deps.db.selectFrom("outbox").select("wid").where(
      "template",
      "is not",
      null,
    )
      .execute();
    assert.deepEqual(sent, {
      biz_opaque_callback_data: row.wid,
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: ANA,
      type: "template",
      template: {
        name: "pedido_pronto",
        language: { code: "pt_BR", policy: "deterministic" },
        components: [{
          type: "body",
          parameters: [{ type: "text", text: "Ana" }, { type: "text", text: "42" }],
        }],
      },
    });
    // The contact answers: free text again.
    await contactWrites(s, "wamid.NEW", "obrigada!", 0);
    const open = await s.t.request("POST", `/api/messages/${ticketId}`, {
      token: s.a.admin.token,
      body: { body: "De nada!" },
    });
    assert.equal(open.status, 201);
    const text = await eventually(() =>
      s.graph.sends().find((b) => (b.text as { body?: string })?.body === "De nada!")
    );
    assert.equal(text.to, ANA);
  });
});

Deno.test("cloud window - Meta's 131047 on a send maps to ERR_WHATSAPP_WINDOW_CLOSED; 130429 is retried", async () => {
  await withCloud(async (s) => {
    await contactWrites(s, "wamid.HI", "oi", 1);
    const ticketId = await openTicket(s);
    s.graph.failNext({ code: 130429, message: "Rate limit hit" });
    const retried = await s.t.request("POST", `/api/messages/${ticketId}`, {
      token: s.a.admin.token,
      body: { body: "depois do limite" },
    });
    assert.equal(retried.status, 201);
    const retriedId = (await retried.json()).messages[0].id;
    s.t.deps.sessions.outbox.retryBaseMs = 1;
    // 130429 pauses the whole number (cloud_api_backoff_test.ts): past the pause it goes again.
    await eventually(async () => {
      const row = await s.t.deps.db.selectFrom("whatsapp_cloud").select("backoffUntil")
        .where("whatsappId", "=", s.whatsappId).executeTakeFirstOrThrow();
      return row.backoffUntil !== null;
    }, { what: "the number paused" });
    s.t.clock.advance(BACKOFF_BASE_MS + 1);
    s.t.deps.sessions.kickOutbox(s.whatsappId);
    await eventually(async () => {
      const row = await s.t.deps.db.selectFrom("messages").select(["ack", "sendError"])
        .where("id", "=", retriedId).executeTakeFirstOrThrow();
      return row.ack === 1 && row.sendError === null;
    }, { what: "the rate-limited send went on a retry" });
    s.graph.failNext({ code: 131047, message: "Re-engagement message" });
    const refused = await s.t.request("POST", `/api/messages/${ticketId}`, {
      token: s.a.admin.token,
      body: { body: "fora da janela segundo a Meta" },
    });
    const id = (await refused.json()).messages[0].id;
    await eventually(async () => {
      const row = await s.t.deps.db.selectFrom("messages").select("sendError")
        .where("id", "=", id).executeTakeFirstOrThrow();
      return row.sendError === "ERR_WHATSAPP_WINDOW_CLOSED";
    }, { what: "131047 shown as the window closed" });
    // Final: not sent again.
    const attempts = s.graph.sends().filter((b) =>
      (b.text as { body?: string })?.body === "fora da janela segundo a Meta"
    );
    assert.equal(attempts.length, 1);
  });
});
