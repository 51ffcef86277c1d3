import assert from "node:assert/strict";
import { createCompany, type TestApp, type TestCompany, withApp } from "../helpers/app.ts";
import { fakeDialogflow } from "../fakes/dialogflow.ts";
import { fakeTypebot } from "../fakes/typebot.ts";
import { fakeWebhook } from "../fakes/webhook.ts";
import { connectSimulator, eventually, phoneSends, sentBy } from "./helpers.ts";

/**
 * A simulator contact talks to each kind of queue integration, running against an in-process fake
 * of that service's documented API, until it is handed to a person. The pipeline, the bots, the
 * outbox and the simulator are the app's own.
 */
const ENV = { INTEGRATIONS_ALLOW_PRIVATE_URLS: "true" };

async function integration(t: TestApp, c: TestCompany, body: Record<string, unknown>) {
  const res = await t.request("POST", "/api/queueIntegration", { token: c.admin.token, body });
  assert.equal(res.status, 201, await res.clone().text());
  return await res.json() as { id: number; secret: string };
}

/** A queue bound to the integration, and a connection whose only queue it is. */
async function routedTo(t: TestApp, c: TestCompany, integrationId: number) {
  const res = await t.request("POST", "/api/queue", {
    token: c.admin.token,
    body: { name: `Bot ${integrationId}`, color: `#0000${10 + integrationId}`, integrationId },
  });
  assert.equal(res.status, 201, await res.clone().text());
  const queueId = (await res.json()).id as number;
  const wid = await connectSimulator(t, c, { queueIds: [queueId] });
  return { queueId, wid };
}

async function ticketOf(t: TestApp, id: number) {
  return await t.deps.db.selectFrom("tickets").selectAll().where("id", "=", id)
    .executeTakeFirstOrThrow();
}

async function bodiesSent(t: TestApp, c: TestCompany, wid: number, count: number) {
  return await eventually(async () => {
    const sent = await sentBy(t, c.admin.token, wid);
    return sent.length >= count ? sent : undefined;
  });
}

Deno.test("integrations - webhook: a signed POST per message, replies sent, handover on request", async () => {
  let secret = "";
  const hook = fakeWebhook({
    secret: () => secret,
    reply: (body) => {
      const text = (body.message as { body: string }).body;
      return text === "humano"
        ? { replies: ["Chamando alguém."], action: { type: "handover" } }
        : { replies: [`Eco: ${text}`] };
    },
  });
  try {
    await withApp(async (t) => {
      const a = await createCompany(t, "Alpha");
      const created = await integration(t, a, {
        type: "webhook",
        name: "Eco",
        urlN8N: hook.hookUrl,
      });
      secret = created.secret;
      const { queueId, wid } = await routedTo(t, a, created.id);
      const first = await phoneSends(t, a.user.token, wid, {
        from: "5511955550001",
        name: "Maria",
        body: "oi",
      });
      assert.equal(first.status, 201);
      let ticket = await ticketOf(t, first.ticketId!);
      assert.deepEqual(
        [ticket.queueId, ticket.useIntegration, ticket.integrationId, ticket.status],
        [queueId, 1, created.id, "pending"],
      );
      assert.equal(hook.received.length, 1);
      const payload = hook.received[0];
      assert.equal(payload.signatureOk, true);
      assert.deepEqual(payload.body.contact, {
        id: ticket.contactId,
        name: "Maria",
        number: "5511955550001",
        email: "",
      });
      assert.deepEqual(payload.body.message, {
        body: "oi",
        mediaType: null,
        timestamp: t.clock.now().toISOString(),
      });
      assert.deepEqual(
        (await bodiesSent(t, a, wid, 1)).map((s) => s.body),
        ["Eco: oi"],
      );

      await phoneSends(t, a.user.token, wid, { from: "5511955550001", body: "humano" });
      ticket = await ticketOf(t, first.ticketId!);
      assert.deepEqual(
        [
          ticket.status,
          ticket.queueId,
          ticket.useIntegration,
          ticket.integrationId,
          ticket.chatbot,
        ],
        ["pending", queueId, 0, null, 0],
      );
      const sent = await bodiesSent(t, a, wid, 2);
      assert.equal(sent[1].body, "Chamando alguém.");
      // With people now: the webhook hears no more.
      await phoneSends(t, a.user.token, wid, { from: "5511955550001", body: "ainda aí?" });
      assert.equal(hook.received.length, 2);
    }, ENV);
  } finally {
    await hook.close();
  }
});

Deno.test("integrations - n8n: transfer to a queue of the company; a slow or garbled service hands over and keeps the message", async () => {
  let secret = "";
  let mode: "transfer" | "slow" | "garbage" = "transfer";
  let targetQueue = 0;
  const n8n = fakeWebhook({
    secret: () => secret,
    reply: async () => {
      if (mode === "slow") await new Promise((r) => setTimeout(r, 1500));
      if (mode === "garbage") return "<html>oops</html>";
      return { replies: ["Transferindo."], action: { type: "transfer", queueId: targetQueue } };
    },
  });
  try {
    await withApp(async (t) => {
      const a = await createCompany(t, "Alpha");
      const b = await createCompany(t, "Beta");
      const created = await integration(t, a, { type: "n8n", name: "Fluxo", urlN8N: n8n.hookUrl });
      secret = created.secret;
      const { wid } = await routedTo(t, a, created.id);
      const sales = (await (await t.request("POST", "/api/queue", {
        token: a.admin.token,
        body: { name: "Vendas", color: "#aa0000" },
      })).json()).id;
      const foreign = (await (await t.request("POST", "/api/queue", {
        token: b.admin.token,
        body: { name: "Fila B", color: "#bb0000" },
      })).json()).id;

      targetQueue = sales;
      const one = await phoneSends(t, a.user.token, wid, {
        from: "5511955550002",
        body: "comprar",
      });
      const moved = await ticketOf(t, one.ticketId!);
      assert.deepEqual([moved.queueId, moved.useIntegration, moved.status], [sales, 0, "pending"]);

      // Another company's queue in the answer is ignored: the ticket goes to people, stays put.
      targetQueue = foreign;
      const two = await phoneSends(t, a.user.token, wid, { from: "5511955550003", body: "oi" });
      const stayed = await ticketOf(t, two.ticketId!);
      assert.notEqual(stayed.queueId, foreign);
      assert.equal(stayed.useIntegration, 0);

      for (const [i, m] of (["slow", "garbage"] as const).entries()) {
        mode = m;
        const from = `551195555001${i}`;
        const res = await phoneSends(t, a.user.token, wid, { from, body: `mensagem ${m}` });
        assert.equal(res.status, 201);
        const ticket = await ticketOf(t, res.ticketId!);
        assert.deepEqual([ticket.useIntegration, ticket.integrationId, ticket.status], [
          0,
          null,
          "pending",
        ]);
        const kept = await t.deps.db.selectFrom("messages").select("body")
          .where("ticketId", "=", ticket.id).where("fromMe", "=", 0).execute();
        assert.deepEqual(kept.map((k) => k.body), [`mensagem ${m}`]);
      }
    }, { ...ENV, INTEGRATION_TIMEOUT_MS: "200" });
  } finally {
    await n8n.close();
  }
});

Deno.test("integrations - typebot: startChat with the contact, continueChat, unknown input, handover", async () => {
  const typebot = fakeTypebot();
  try {
    await withApp(async (t) => {
      const a = await createCompany(t, "Alpha");
      const created = await integration(t, a, {
        type: "typebot",
        name: "Suporte",
        urlN8N: `${typebot.url}/`,
        typebotSlug: "support",
        typebotDelayMessage: 50,
        typebotUnknownMessage: "Não entendi, digite 1 ou 2.",
        typebotKeywordRestart: "#reiniciar",
        typebotRestartMessage: "Vamos recomeçar.",
      });
      const { wid } = await routedTo(t, a, created.id);
      const from = "5511955550020";
      const first = await phoneSends(t, a.user.token, wid, { from, name: "João", body: "olá" });
      const start = typebot.calls[0];
      assert.equal(start.path, "/api/v1/typebots/support/startChat");
      assert.deepEqual(
        [
          (start.body.prefilledVariables as Record<string, unknown>).number,
          (start.body.prefilledVariables as Record<string, unknown>).name,
        ],
        [from, "João"],
      );
      let ticket = await ticketOf(t, first.ticketId!);
      assert.ok(ticket.botSession?.startsWith("s-"));
      // Two text bubbles and the image, in that order of kinds (texts first), spaced.
      const sent = await bodiesSent(t, a, wid, 3);
      assert.deepEqual(sent.slice(0, 2).map((s) => s.body), [
        "Olá João! Sou o bot.",
        "Digite 1 ou 2",
      ]);
      assert.equal(sent[2].media?.mimetype, "image/png");

      await phoneSends(t, a.user.token, wid, { from, body: "1" });
      assert.equal(typebot.calls[1].path, `/api/v1/sessions/${ticket.botSession}/continueChat`);
      assert.deepEqual(typebot.calls[1].body.message, { type: "text", text: "1" });
      assert.equal((await bodiesSent(t, a, wid, 4))[3].body, "Horário: 8h às 18h.");

      await phoneSends(t, a.user.token, wid, { from, body: "banana" });
      assert.equal((await bodiesSent(t, a, wid, 5))[4].body, "Não entendi, digite 1 ou 2.");

      await phoneSends(t, a.user.token, wid, { from, body: "#reiniciar" });
      assert.equal((await bodiesSent(t, a, wid, 6))[5].body, "Vamos recomeçar.");
      ticket = await ticketOf(t, first.ticketId!);
      assert.equal(ticket.botSession, null);
      await phoneSends(t, a.user.token, wid, { from, body: "oi de novo" });
      assert.equal(typebot.calls.at(-1)!.path, "/api/v1/typebots/support/startChat");

      await phoneSends(t, a.user.token, wid, { from, body: "2" });
      ticket = await ticketOf(t, first.ticketId!);
      assert.deepEqual([ticket.useIntegration, ticket.integrationId, ticket.botSession], [
        0,
        null,
        null,
      ]);
      const last = await eventually(async () => {
        const all = await sentBy(t, a.admin.token, wid);
        return all.find((s) => s.body === "Vou chamar uma pessoa.");
      });
      assert.ok(last);
    }, ENV);
  } finally {
    await typebot.close();
  }
});

Deno.test("integrations - typebot: an idle session expires after typebotExpires minutes and people take over", async () => {
  const typebot = fakeTypebot();
  try {
    await withApp(async (t) => {
      const a = await createCompany(t, "Alpha");
      const created = await integration(t, a, {
        type: "typebot",
        name: "Suporte",
        urlN8N: typebot.url,
        typebotSlug: "support",
        typebotDelayMessage: 0,
        typebotExpires: 5,
      });
      const { wid } = await routedTo(t, a, created.id);
      const first = await phoneSends(t, a.user.token, wid, { from: "5511955550030", body: "oi" });
      t.clock.advance(4 * 60_000);
      await phoneSends(t, a.user.token, wid, { from: "5511955550030", body: "1" });
      assert.equal((await ticketOf(t, first.ticketId!)).useIntegration, 1);
      t.clock.advance(6 * 60_000);
      const calls = typebot.calls.length;
      await phoneSends(t, a.user.token, wid, { from: "5511955550030", body: "1" });
      const ticket = await ticketOf(t, first.ticketId!);
      assert.deepEqual([ticket.useIntegration, ticket.botSession, ticket.status], [
        0,
        null,
        "pending",
      ]);
      assert.equal(typebot.calls.length, calls);
    }, ENV);
  } finally {
    await typebot.close();
  }
});

Deno.test("integrations - dialogflow: a token signed from the service account, fulfilment texts, an endInteraction intent hands over", async () => {
  const google = await fakeDialogflow();
  try {
    await withApp(async (t) => {
      const a = await createCompany(t, "Alpha");
      const created = await integration(t, a, {
        type: "dialogflow",
        name: "Agente",
        jsonContent: JSON.stringify(google.account),
        language: "pt-BR",
      });
      const { wid } = await routedTo(t, a, created.id);
      const from = "5511955550040";
      const first = await phoneSends(t, a.user.token, wid, { from, body: "oi" });
      assert.equal((await bodiesSent(t, a, wid, 1))[0].body, "Olá! Em que posso ajudar?");
      await phoneSends(t, a.user.token, wid, { from, body: "quero um atendente" });
      const ticket = await ticketOf(t, first.ticketId!);
      assert.deepEqual([ticket.useIntegration, ticket.integrationId, ticket.status], [
        0,
        null,
        "pending",
      ]);
      assert.equal((await bodiesSent(t, a, wid, 2))[1].body, "Transferindo para um atendente.");
      // The token was fetched once and reused; one dialogflow session per contact.
      assert.equal(google.calls.token, 1);
      assert.equal(google.calls.detect, 2);
      assert.equal(new Set(google.calls.sessions).size, 1);
    }, { ...ENV, DIALOGFLOW_API_URL: google.url });
  } finally {
    await google.close();
  }
});
