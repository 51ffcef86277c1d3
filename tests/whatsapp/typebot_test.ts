import assert from "node:assert/strict";
import { createCompany, createTestApp, withApp } from "../helpers/app.ts";
import { closeDeps } from "../../server/deps.ts";
import { fakeTypebot } from "../fakes/typebot.ts";
import { eventually } from "../helpers/eventually.ts";
import { phoneSends, sentBy } from "./helpers.ts";
import { bodiesSent, ENV, integration, routedTo, ticketOf } from "./integration_helpers.ts";

/** typebot integrations against a fake of typebot's chat API (startChat / continueChat). */
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
      // Two text bubbles, the choice input's options as text, then the image, spaced.
      const sent = await bodiesSent(t, a, wid, 4);
      assert.deepEqual(sent.slice(0, 3).map((s) => s.body), [
        "Olá João! Sou o bot.",
        "Digite 1 ou 2",
        "▶️ 1\n▶️ 2",
      ]);
      assert.equal(sent[3].media?.mimetype, "image/png");
      // typebotDelayMessage: each text is due that much after the previous one.
      const rows = await t.deps.db.selectFrom("outbox").select(["createdAt", "nextAttemptAt"])
        .where("ticketId", "=", ticket.id).orderBy("id").execute();
      assert.deepEqual(
        rows.map((r) => Date.parse(r.nextAttemptAt) - Date.parse(r.createdAt)),
        [0, 50, 100, 150],
      );

      await phoneSends(t, a.user.token, wid, { from, body: "1" });
      assert.equal(typebot.calls[1].path, `/api/v1/sessions/${ticket.botSession}/continueChat`);
      assert.deepEqual(typebot.calls[1].body.message, { type: "text", text: "1" });
      assert.equal((await bodiesSent(t, a, wid, 6))[4].body, "Horário: 8h às 18h.");

      await phoneSends(t, a.user.token, wid, { from, body: "banana" });
      assert.equal((await bodiesSent(t, a, wid, 8))[6].body, "Não entendi, digite 1 ou 2.");

      await phoneSends(t, a.user.token, wid, { from, body: "#reiniciar" });
      assert.equal((await bodiesSent(t, a, wid, 9))[8].body, "Vamos recomeçar.");
      ticket = await ticketOf(t, first.ticketId!);
      assert.equal(ticket.botSession, null);
      await phoneSends(t, a.user.token, wid, { from, body: "oi de novo" });
      assert.equal(typebot.calls.at(-1)!.path, "/api/v1/typebots/support/startChat");

      // typebot forgot the session (its own expiry): the flow starts again, the ticket stays.
      typebot.sessions.clear();
      await phoneSends(t, a.user.token, wid, { from, body: "1" });
      assert.equal(typebot.calls.at(-1)!.path, "/api/v1/typebots/support/startChat");
      assert.equal((await ticketOf(t, first.ticketId!)).useIntegration, 1);

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

Deno.test("integrations - after a restart the typebot conversation continues (its session is on the ticket)", async () => {
  const typebot = fakeTypebot();
  let t = await createTestApp(ENV);
  try {
    const a = await createCompany(t, "Alpha");
    const created = await integration(t, a, {
      type: "typebot",
      name: "Suporte",
      urlN8N: typebot.url,
      typebotSlug: "support",
      typebotDelayMessage: 0,
    });
    const { wid } = await routedTo(t, a, created.id);
    const first = await phoneSends(t, a.user.token, wid, { from: "5511955550060", body: "oi" });
    const session = (await ticketOf(t, first.ticketId!)).botSession;
    assert.ok(session);
    // The same data folder and settings, a new process.
    await closeDeps(t.deps);
    t = await createTestApp({ ...t.env, DATA_DIR: t.dir }, t.clock);
    await t.deps.sessions.restoreAll();
    await phoneSends(t, a.user.token, wid, { from: "5511955550060", body: "1" });
    assert.equal(typebot.calls.at(-1)!.path, `/api/v1/sessions/${session}/continueChat`);
    assert.equal((await ticketOf(t, first.ticketId!)).botSession, session);
  } finally {
    await t.close();
    await typebot.close();
  }
});
