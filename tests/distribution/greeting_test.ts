import assert from "node:assert/strict";
import { createUser, twoCompanies } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { addQueue, ticketRow } from "../helpers/tickets.ts";
import { distributionTick } from "../../server/distribution/tick.ts";
import {
  connectSimulator,
  createOption,
  phoneSends,
  sentBy,
  setSetting,
} from "../whatsapp/helpers.ts";
import { goOnline, served } from "./helpers.ts";

/**
 * Issue 50 item 11, as the contact's phone hears it (the simulator's sent list): a ticket given
 * out by distribution greets like a manual accept, once however often the tick runs, and a menu
 * choice is always answered.
 */
const GREETED = /^(Bom dia|Boa tarde|Boa noite|Boa madrugada), \*Ana Souza\*! Meu nome é \*Bia\*/;

Deno.test("distribution greeting - the phone hears the greeting-on-accept once when distribution gives the ticket, however often the tick runs", () =>
  served(async (t, wsUrl) => {
    const { a } = await twoCompanies(t);
    await setSetting(t, a.id, "sendGreetingAccepted", "enabled");
    const queueId = await addQueue(t, a.id, "Suporte");
    const policy = await t.request("PUT", `/api/queue/${queueId}`, {
      token: a.admin.token,
      body: { distribution: "round_robin" },
    });
    assert.equal(policy.status, 200, await policy.clone().text());
    const bia = await createUser(t, a.id, {
      name: "Bia",
      email: "bia@greet.test",
      queueIds: [queueId],
    });
    const wid = await connectSimulator(t, a, { queueIds: [queueId] });
    // Nobody online: the ticket waits in the queue, the phone has heard nothing yet.
    const first = await phoneSends(t, a.admin.token, wid, {
      from: "5511987650001",
      name: "Ana Souza",
      body: "oi",
    });
    assert.equal(first.status, 201, JSON.stringify(first));
    assert.equal((await ticketRow(t, first.ticketId!)).userId, null);

    // Bia comes online; ticks (two at once, then another) find the ticket and give it to her.
    const socket = await goOnline(t, wsUrl, bia);
    await Promise.all([distributionTick(t.deps), distributionTick(t.deps)]);
    await distributionTick(t.deps);
    const row = await eventually(async () => {
      const r = await ticketRow(t, first.ticketId!);
      return r.userId !== null && r;
    }, { what: "the ticket given out" });
    assert.equal(row.userId, bia.id);
    assert.equal(row.status, "open");
    await t.deps.sessions.outbox.idle();
    const heard = (await sentBy(t, a.admin.token, wid)).filter((s) => s.to === "5511987650001");
    assert.equal(heard.length, 1, JSON.stringify(heard.map((s) => s.body)));
    assert.match(heard[0].body, GREETED);
    // One greeting message on the ticket too (the guarded UPDATE gives a ticket once; the
    // greeting is queued in that same transaction).
    const mine = await t.deps.db.selectFrom("messages").select("body")
      .where("ticketId", "=", first.ticketId!).where("fromMe", "=", 1).execute();
    assert.equal(mine.length, 1);
    await socket.close();
  }));

Deno.test("distribution greeting - through the menu: the chosen queue's options, the option's message, then the attendant's greeting", () =>
  served(async (t, wsUrl) => {
    const { a } = await twoCompanies(t);
    await setSetting(t, a.id, "sendGreetingAccepted", "enabled");
    const sales = await addQueue(t, a.id, "Vendas");
    const support = await addQueue(t, a.id, "Suporte");
    for (const id of [sales, support]) {
      const res = await t.request("PUT", `/api/queue/${id}`, {
        token: a.admin.token,
        body: { distribution: "round_robin" },
      });
      assert.equal(res.status, 200, await res.clone().text());
    }
    await createOption(t, a.id, support, {
      title: "Segunda via",
      option: "1",
      message: "Envie o CPF do titular.",
    });
    await createOption(t, a.id, support, { title: "Outros", option: "2" });
    const bia = await createUser(t, a.id, {
      name: "Bia",
      email: "bia2@greet.test",
      queueIds: [sales, support],
    });
    const socket = await goOnline(t, wsUrl, bia);
    const wid = await connectSimulator(t, a, {
      queueIds: [sales, support],
      greetingMessage: "Olá! Escolha:",
    });
    const said = async (from: string, count: number) =>
      await eventually(async () => {
        const all = (await sentBy(t, a.admin.token, wid)).filter((s) => s.to === from);
        return all.length >= count ? all.map((s) => s.body) : undefined;
      }, { what: `${count} messages to ${from}` });

    // Queues are offered by name (no orderQueue): Suporte is 1.
    // An option with a message: the contact hears it, then the attendant distribution chose.
    const ANA = "5511987650002";
    await phoneSends(t, a.admin.token, wid, { from: ANA, name: "Ana Souza", body: "oi" });
    await phoneSends(t, a.admin.token, wid, { from: ANA, body: "1" });
    const chose = await phoneSends(t, a.admin.token, wid, { from: ANA, body: "1" });
    let heard = await said(ANA, 4);
    assert.equal(heard[0], "Olá! Escolha:\n\n*1* - Suporte\n*2* - Vendas");
    assert.equal(heard[1], "*1* - Segunda via\n*2* - Outros");
    assert.equal(heard[2], "Envie o CPF do titular.");
    assert.match(heard[3], GREETED);
    assert.equal((await ticketRow(t, chose.ticketId!)).userId, bia.id);

    // An option without a message: a clear default text, then the greeting.
    const RUI = "5511987650003";
    await phoneSends(t, a.admin.token, wid, { from: RUI, name: "Ana Souza", body: "oi" });
    await phoneSends(t, a.admin.token, wid, { from: RUI, body: "1" });
    await phoneSends(t, a.admin.token, wid, { from: RUI, body: "2" });
    heard = await said(RUI, 4);
    assert.equal(heard[2], "Recebemos sua escolha: *Outros*. Aguarde, já vamos te atender!");
    assert.match(heard[3], GREETED);
    await distributionTick(t.deps);
    await t.deps.sessions.outbox.idle();
    assert.equal((await said(RUI, 4)).length, 4, "the tick greets nobody twice");
    await socket.close();
  }));
