import assert from "node:assert/strict";
import type { Bot, BotTurn } from "../../server/bots/bot.ts";
import { createCompany, type TestApp, withApp } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { connectSimulator, phoneSends, sentBy } from "./helpers.ts";

/**
 * The automation seam (server/bots/): the inbound pipeline asks the registry which bot owns a
 * ticket and writes what that bot decided. A bot here is a real implementation of the interface,
 * registered the way queue integrations will be; the pipeline, the outbox and the simulator are
 * the app's own.
 */
async function ticketOf(t: TestApp, id: number) {
  return await t.deps.db.selectFrom("tickets").selectAll().where("id", "=", id)
    .executeTakeFirstOrThrow();
}

Deno.test("bots - a ticket with an integration hears that bot: its reply goes out, its changes stay", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const wid = await connectSimulator(t, a);
    const turns: BotTurn[] = [];
    const echo: Bot = {
      kind: "integration",
      decide: (turn) => {
        turns.push(turn);
        return Promise.resolve({
          replies: [`Você disse: ${turn.body}`],
          changes: { amountUsedBotQueues: turns.length },
        });
      },
    };
    t.deps.sessions.bots.register(echo);
    const first = await phoneSends(t, a.user.token, wid, { from: "5511911110001", body: "oi" });
    assert.equal(first.status, 201);
    // The first message went to the menu (no integration yet); now the ticket is with the bot.
    await t.deps.db.updateTable("tickets").set({ useIntegration: 1, integrationId: 7 })
      .where("id", "=", first.ticketId!).execute();
    const second = await phoneSends(t, a.user.token, wid, { from: "5511911110001", body: "preço" });
    assert.equal(second.status, 201);
    assert.equal(turns.length, 1);
    assert.equal(turns[0].ticket.integrationId, 7);
    assert.equal(turns[0].companyId, a.id);
    const sent = await eventually(async () => {
      const items = await sentBy(t, a.admin.token, wid);
      return items.some((s) => s.body === "Você disse: preço") ? items : undefined;
    });
    assert.ok(sent.some((s) => s.body === "Você disse: preço"));
    const ticket = await ticketOf(t, second.ticketId!);
    assert.equal(ticket.amountUsedBotQueues, 1);
    assert.equal(ticket.useIntegration, 1);
    // An attendant takes the ticket: the bot is asked no more.
    await t.deps.db.updateTable("tickets").set({ status: "open", userId: a.user.id })
      .where("id", "=", ticket.id).execute();
    await phoneSends(t, a.user.token, wid, { from: "5511911110001", body: "alô" });
    assert.equal(turns.length, 1);
  }));

Deno.test("bots - a failing bot, or a kind with no bot, hands the ticket to people; the message is kept", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const wid = await connectSimulator(t, a);
    t.deps.sessions.bots.register({
      kind: "integration",
      decide: () => Promise.reject(new Error("typebot is down")),
    });
    const first = await phoneSends(t, a.user.token, wid, { from: "5511911110002", body: "oi" });
    await t.deps.db.updateTable("tickets").set({ useIntegration: 1, integrationId: 3, chatbot: 1 })
      .where("id", "=", first.ticketId!).execute();
    const failed = await phoneSends(t, a.user.token, wid, { from: "5511911110002", body: "e aí?" });
    assert.equal(failed.status, 201);
    let ticket = await ticketOf(t, failed.ticketId!);
    assert.deepEqual(
      [ticket.status, ticket.chatbot, ticket.useIntegration, ticket.integrationId],
      ["pending", 0, 0, null],
    );
    const stored = await t.deps.db.selectFrom("messages").select("body")
      .where("ticketId", "=", ticket.id).where("fromMe", "=", 0).orderBy("id").execute();
    assert.deepEqual(stored.map((m) => m.body), ["oi", "e aí?"]);

    // No "prompt" bot is registered yet: a ticket with a prompt goes to people as well.
    await t.deps.db.updateTable("tickets").set({ promptId: 5, chatbot: 1 })
      .where("id", "=", ticket.id).execute();
    await phoneSends(t, a.user.token, wid, { from: "5511911110002", body: "oi de novo" });
    ticket = await ticketOf(t, ticket.id);
    assert.deepEqual([ticket.chatbot, ticket.promptId], [0, null]);
  }));
