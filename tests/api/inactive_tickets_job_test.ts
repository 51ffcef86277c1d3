import assert from "node:assert/strict";
import { createCompany, withApp } from "../helpers/app.ts";
import { expireInactiveTickets } from "../../server/tickets/inactive.ts";
import { connectSimulator, createQueue, phoneSends } from "../whatsapp/helpers.ts";

Deno.test("inactive tickets job - timeUseBotQueues hands over, expiresTicket closes with its message once", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const q1 = await createQueue(t, a.id, { name: "Vendas" });
    const q2 = await createQueue(t, a.id, { name: "Suporte" });
    const wid = await connectSimulator(t, a, {
      queueIds: [q1, q2],
      greetingMessage: "Escolha:",
      timeUseBotQueues: 10,
      expiresTicket: 30,
      expiresInactiveMessage: "Atendimento encerrado por inatividade.",
    });
    const menu = await phoneSends(t, a.user.token, wid, { from: "5511977770001", body: "oi" });
    const ticketOf = (id: number) =>
      t.deps.db.selectFrom("tickets").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    assert.equal((await ticketOf(menu.ticketId!)).chatbot, 1);

    t.clock.advance(9 * 60_000);
    assert.deepEqual(await expireInactiveTickets(t.deps), { handedOver: [], closed: [] });
    t.clock.advance(2 * 60_000);
    assert.deepEqual(await expireInactiveTickets(t.deps), {
      handedOver: [menu.ticketId],
      closed: [],
    });
    let ticket = await ticketOf(menu.ticketId!);
    assert.deepEqual([ticket.status, ticket.chatbot], ["pending", 0]);

    // An attendant accepts; the chat then goes quiet for longer than expiresTicket.
    const accept = await t.request("PUT", `/api/tickets/${ticket.id}`, {
      token: a.admin.token,
      body: { status: "open", userId: a.admin.id },
    });
    assert.equal(accept.status, 200, await accept.clone().text());
    t.clock.advance(31 * 60_000);
    const [first, second] = await Promise.all([
      expireInactiveTickets(t.deps),
      expireInactiveTickets(t.deps),
    ]);
    assert.deepEqual([...first.closed, ...second.closed], [ticket.id]);
    ticket = await ticketOf(ticket.id);
    assert.equal(ticket.status, "closed");
    // (The test clock moved past the access tokens' life: read what was queued directly.)
    const queued = await t.deps.db.selectFrom("outbox").select(["body", "ticketId"])
      .where("body", "like", "Atendimento encerrado%").execute();
    assert.deepEqual(queued, [{
      body: "Atendimento encerrado por inatividade.",
      ticketId: ticket.id,
    }]);
    assert.deepEqual(await expireInactiveTickets(t.deps), { handedOver: [], closed: [] });
  }));

Deno.test("bot phase - accepting a ticket takes it from its integration", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const wid = await connectSimulator(t, a);
    const first = await phoneSends(t, a.user.token, wid, { from: "5511977770002", body: "oi" });
    await t.deps.db.updateTable("tickets").set({
      useIntegration: 1,
      integrationId: 42,
      botSession: "s-1",
      botSessionAt: t.clock.now().toISOString(),
    }).where("id", "=", first.ticketId!).execute();
    const accept = await t.request("PUT", `/api/tickets/${first.ticketId}`, {
      token: a.admin.token,
      body: { status: "open", userId: a.admin.id },
    });
    assert.equal(accept.status, 200);
    const ticket = await t.deps.db.selectFrom("tickets").selectAll()
      .where("id", "=", first.ticketId!).executeTakeFirstOrThrow();
    assert.deepEqual(
      [ticket.status, ticket.useIntegration, ticket.integrationId, ticket.botSession],
      ["open", 0, null, null],
    );
  }));
