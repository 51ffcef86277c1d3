import assert from "node:assert/strict";
import { createCompany, withApp } from "../helpers/app.ts";
import { fakeDialogflow } from "../fakes/dialogflow.ts";
import { fakeWebhook, hmacHex } from "../fakes/webhook.ts";
import { connectSimulator, phoneSends } from "./helpers.ts";
import { bodiesSent, ENV, integration, routedTo, ticketOf } from "./integration_helpers.ts";

/**
 * A simulator contact talks to each kind of queue integration, running against an in-process fake
 * of that service's documented API, until it is handed to a person. The pipeline, the bots, the
 * outbox and the simulator are the app's own.
 */
Deno.test("integrations - webhook: a signed POST per message, replies sent, handover on request", async () => {
  let secret = "";
  const hook = fakeWebhook({
    secret: () => secret,
    reply: (body) => {
      const text = (body.message as { body: string }).body;
      if (text === "tchau") return { replies: ["Até logo!"], action: { type: "close" } };
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
      // The timestamp is the request's own and inside the signed material (issue 35): the body
      // alone does not verify, and the same request under a later timestamp is refused.
      assert.equal(payload.timestamp, String(Math.floor(t.clock.now().getTime() / 1000)));
      assert.notEqual(payload.signature, `sha256=${await hmacHex(secret, payload.raw)}`);
      const replay = await fetch(hook.hookUrl, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-balcao-timestamp": String(Number(payload.timestamp) + 600),
          "x-balcao-signature": payload.signature,
        },
        body: payload.raw,
      });
      assert.equal(replay.status, 401);
      await replay.body?.cancel();
      hook.received.pop();
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

      // The close action: another contact says goodbye and the ticket is closed.
      await phoneSends(t, a.user.token, wid, { from: "5511955550009", body: "oi" });
      const bye = await phoneSends(t, a.user.token, wid, { from: "5511955550009", body: "tchau" });
      const closed = await ticketOf(t, bye.ticketId!);
      assert.deepEqual([closed.status, closed.useIntegration], ["closed", 0]);
      assert.ok(closed.closedAt);
    }, ENV);
  } finally {
    await hook.close();
  }
});

Deno.test("integrations - n8n: transfer to a queue of the company; a slow or garbled service hands over and keeps the message", async () => {
  let secret = "";
  let mode: "transfer" | "slow" | "garbage" = "transfer";
  let targetQueue = 0;
  // The slow service answers only once the test is done with it: past any timeout, no sleep.
  const released = Promise.withResolvers<void>();
  const n8n = fakeWebhook({
    secret: () => secret,
    reply: async () => {
      if (mode === "slow") await released.promise;
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
    released.resolve();
    await n8n.close();
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

Deno.test("integrations - a connection's integration takes every new ticket; a service down opens the circuit", async () => {
  let secret = "";
  let down = false;
  const hook = fakeWebhook({
    secret: () => secret,
    reply: () => ({ replies: ["Oi, sou o bot da conexão."] }),
    status: () => (down ? 503 : 200),
  });
  try {
    await withApp(async (t) => {
      const a = await createCompany(t, "Alpha");
      const b = await createCompany(t, "Beta");
      const created = await integration(t, a, {
        type: "webhook",
        name: "Eco",
        urlN8N: hook.hookUrl,
      });
      secret = created.secret;
      const foreign = await t.request("POST", "/api/whatsapp", {
        token: b.admin.token,
        body: { name: "Sim B", provider: "simulator", integrationId: created.id },
      });
      assert.equal(foreign.status, 404);
      assert.equal((await foreign.json()).error, "ERR_NO_INTEGRATION_FOUND");
      const wid = await connectSimulator(t, a, { integrationId: created.id });
      const first = await phoneSends(t, a.user.token, wid, { from: "5511955550050", body: "oi" });
      const ticket = await ticketOf(t, first.ticketId!);
      assert.deepEqual([ticket.useIntegration, ticket.integrationId], [1, created.id]);
      assert.equal((await bodiesSent(t, a, wid, 1))[0].body, "Oi, sou o bot da conexão.");

      // Down: each message is tried 3 times (2 retries) and handed over; after 3 such messages
      // the circuit opens and the 4th is handed over without calling the service at all.
      down = true;
      const before = hook.received.length;
      for (let i = 0; i < 4; i++) {
        const res = await phoneSends(t, a.user.token, wid, {
          from: `55119555501${i}0`,
          body: `tentativa ${i}`,
        });
        assert.equal(res.status, 201);
        const handed = await ticketOf(t, res.ticketId!);
        assert.deepEqual([handed.useIntegration, handed.status], [0, "pending"]);
      }
      assert.equal(hook.received.length - before, 9);
    }, ENV);
  } finally {
    await hook.close();
  }
});
