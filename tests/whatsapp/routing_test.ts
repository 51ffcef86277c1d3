import assert from "node:assert/strict";
import { createCompany, login, type TestApp, withApp } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import {
  connectSimulator,
  createOption,
  createQueue,
  phoneSends,
  sentBy,
  setSetting,
} from "./helpers.ts";

const FROM = "5511987650000";

/** Waits until the connection has sent `count` messages to FROM and returns their bodies. */
async function botSaid(t: TestApp, token: string, wid: number, count: number): Promise<string[]> {
  const sent = await eventually(async () => {
    const all = (await sentBy(t, token, wid)).filter((s) => s.to === FROM);
    return all.length >= count ? all : undefined;
  });
  assert.equal(sent.length, count);
  return sent.map((s) => s.body);
}

async function ticketOf(t: TestApp, ticketId: number) {
  return await t.deps.db.selectFrom("tickets").selectAll().where("id", "=", ticketId)
    .executeTakeFirstOrThrow();
}

/** A queue's week with the same hours every day, as the queue's form stores it. */
function everyDay(startTime: string, endTime: string): string {
  const days = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"];
  return JSON.stringify(days.map((d) => ({ weekday: d, weekdayEn: d, startTime, endTime })));
}

Deno.test("routing - greeting and numbered queue menu; the answer routes the ticket", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const sales = await createQueue(t, a.id, {
      name: "Vendas",
      greetingMessage: "Bem-vindo a Vendas",
    });
    const support = await createQueue(t, a.id, { name: "Suporte" });
    const wid = await connectSimulator(t, a, {
      queueIds: [sales, support],
      greetingMessage: "{{ms}}, {{firstName}}! Escolha uma opção:",
    });
    const first = await phoneSends(t, a.user.token, wid, {
      from: FROM,
      name: "Ana Souza",
      body: "oi",
    });
    const [menu] = await botSaid(t, a.user.token, wid, 1);
    // 12:00 UTC is 09:00 in São Paulo
    assert.equal(menu, "Bom dia, Ana! Escolha uma opção:\n\n*1* - Vendas\n*2* - Suporte");
    let ticket = await ticketOf(t, first.ticketId!);
    assert.equal(ticket.queueId, null);
    assert.equal(ticket.status, "pending");
    // the bot's message is on the ticket as fromMe, and went through the outbox
    const fromMe = await t.deps.db.selectFrom("messages").selectAll().where(
      "ticketId",
      "=",
      ticket.id,
    )
      .where("fromMe", "=", 1).execute();
    assert.equal(fromMe.length, 1);
    assert.equal(fromMe[0].body, menu);

    await phoneSends(t, a.user.token, wid, { from: FROM, body: "1" });
    const said = await botSaid(t, a.user.token, wid, 2);
    assert.equal(said[1], "Bem-vindo a Vendas");
    ticket = await ticketOf(t, first.ticketId!);
    assert.equal(ticket.queueId, sales);
    assert.equal(ticket.status, "pending");
    assert.equal(ticket.chatbot, 0);
  });
});

Deno.test("routing - invalid answers re-send the menu up to maxUseBotQueues", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const q1 = await createQueue(t, a.id, { name: "A" });
    const q2 = await createQueue(t, a.id, { name: "B" });
    const wid = await connectSimulator(t, a, {
      queueIds: [q1, q2],
      greetingMessage: "Escolha:",
      maxUseBotQueues: 2,
    });
    const first = await phoneSends(t, a.user.token, wid, { from: FROM, body: "oi" });
    for (const answer of ["9", "abc", "nada"]) {
      await phoneSends(t, a.user.token, wid, { from: FROM, body: answer });
    }
    await t.deps.sessions.outbox.idle();
    // the first menu, then 2 repeats; the third wrong answer gets no menu
    const said = await botSaid(t, a.user.token, wid, 3);
    assert.ok(said.every((s) => s === "Escolha:\n\n*1* - A\n*2* - B"));
    let ticket = await ticketOf(t, first.ticketId!);
    assert.equal(ticket.amountUsedBotQueues, 2);
    assert.equal(ticket.queueId, null);
    // a valid answer still routes it
    await phoneSends(t, a.user.token, wid, { from: FROM, body: "2" });
    ticket = await ticketOf(t, first.ticketId!);
    assert.equal(ticket.queueId, q2);
    assert.equal(ticket.amountUsedBotQueues, 0);
  });
});

Deno.test("routing - a queue's option tree is walked; a leaf ends the bot in that queue", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const queue = await createQueue(t, a.id, {
      name: "Atendimento",
      greetingMessage: "Como podemos ajudar?",
    });
    const finance = await createOption(t, a.id, queue, {
      title: "Financeiro",
      option: "2",
      message: "Sobre o financeiro:",
    });
    await createOption(t, a.id, queue, {
      title: "Comercial",
      option: "1",
      message: "Um vendedor já vem.",
    });
    await createOption(t, a.id, queue, {
      title: "Boletos",
      option: "1",
      message: "Um atendente do financeiro vai te ajudar.",
      parentId: finance,
    });
    await createOption(t, a.id, queue, { title: "Notas", option: "2", parentId: finance });
    const wid = await connectSimulator(t, a, { queueIds: [queue], greetingMessage: "Olá!" });
    const first = await phoneSends(t, a.user.token, wid, { from: FROM, body: "oi" });
    let said = await botSaid(t, a.user.token, wid, 1);
    assert.equal(said[0], "Olá!\n\nComo podemos ajudar?\n\n*1* - Comercial\n*2* - Financeiro");
    let ticket = await ticketOf(t, first.ticketId!);
    assert.equal(ticket.queueId, queue);
    assert.equal(ticket.chatbot, 1);

    await phoneSends(t, a.user.token, wid, { from: FROM, body: "7" }); // not an option
    await phoneSends(t, a.user.token, wid, { from: FROM, body: "2" });
    said = await botSaid(t, a.user.token, wid, 3);
    assert.equal(said[1], "Como podemos ajudar?\n\n*1* - Comercial\n*2* - Financeiro");
    assert.equal(said[2], "Sobre o financeiro:\n\n*1* - Boletos\n*2* - Notas\n*#* - Voltar");
    ticket = await ticketOf(t, first.ticketId!);
    assert.equal(ticket.queueOptionId, finance);

    await phoneSends(t, a.user.token, wid, { from: FROM, body: "#" });
    said = await botSaid(t, a.user.token, wid, 4);
    assert.equal(said[3], "Como podemos ajudar?\n\n*1* - Comercial\n*2* - Financeiro");
    await phoneSends(t, a.user.token, wid, { from: FROM, body: "2" });
    await phoneSends(t, a.user.token, wid, { from: FROM, body: "1" });
    said = await botSaid(t, a.user.token, wid, 6);
    assert.equal(said[5], "Um atendente do financeiro vai te ajudar.");
    ticket = await ticketOf(t, first.ticketId!);
    assert.equal(ticket.chatbot, 0);
    assert.equal(ticket.queueId, queue);
    assert.equal(ticket.status, "pending");
    // after the leaf the bot is quiet
    await phoneSends(t, a.user.token, wid, { from: FROM, body: "obrigado" });
    await t.deps.sessions.outbox.idle();
    assert.equal((await sentBy(t, a.user.token, wid)).length, 6);
  });
});

Deno.test("routing - a choice with no text of its own (a queue without greeting, an option without message) is acknowledged (issue 50 item 11)", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const sales = await createQueue(t, a.id, { name: "Vendas" });
    const support = await createQueue(t, a.id, { name: "Suporte", greetingMessage: "Suporte:" });
    await createOption(t, a.id, support, { title: "Segunda via", option: "1" });
    const wid = await connectSimulator(t, a, {
      queueIds: [sales, support],
      greetingMessage: "Escolha:",
    });
    await phoneSends(t, a.user.token, wid, { from: FROM, body: "oi" });
    await phoneSends(t, a.user.token, wid, { from: FROM, body: "1" });
    let said = await botSaid(t, a.user.token, wid, 2);
    assert.equal(said[1], "Recebemos sua escolha: *Vendas*. Aguarde, já vamos te atender!");

    const OTHER = "5511987651111";
    await phoneSends(t, a.user.token, wid, { from: OTHER, body: "oi" });
    await phoneSends(t, a.user.token, wid, { from: OTHER, body: "2" });
    await phoneSends(t, a.user.token, wid, { from: OTHER, body: "1" });
    said = await eventually(async () => {
      const all = (await sentBy(t, a.user.token, wid)).filter((s) => s.to === OTHER);
      return all.length >= 3 ? all.map((s) => s.body) : undefined;
    });
    assert.equal(said[1], "Suporte:\n\n*1* - Segunda via");
    assert.equal(said[2], "Recebemos sua escolha: *Segunda via*. Aguarde, já vamos te atender!");
  });
});

Deno.test("routing - outside company hours the out-of-hours message is sent and the ticket waits", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    await setSetting(t, a.id, "scheduleType", "company");
    const q1 = await createQueue(t, a.id, { name: "A" });
    const q2 = await createQueue(t, a.id, { name: "B" });
    const wid = await connectSimulator(t, a, {
      queueIds: [q1, q2],
      greetingMessage: "Escolha:",
      outOfHoursMessage: "Estamos fechados, {{name}}.",
    });
    // Sunday: closed by the default hours (companies.schedules is empty)
    const first = await phoneSends(t, a.user.token, wid, { from: FROM, name: "Rui", body: "oi" });
    let said = await botSaid(t, a.user.token, wid, 1);
    assert.equal(said[0], "Estamos fechados, Rui.");
    let ticket = await ticketOf(t, first.ticketId!);
    assert.equal(ticket.status, "pending");
    assert.equal(ticket.queueId, null);

    // Monday 12:00 in São Paulo: open, the menu comes
    t.clock.set("2026-11-23T15:00:00.000Z");
    const { token } = await login(t, a.user.email, a.user.password); // a day later: a new token
    const second = await phoneSends(t, token, wid, { from: FROM, body: "1" });
    assert.equal(second.status, 201, JSON.stringify(second));
    ticket = await ticketOf(t, first.ticketId!);
    assert.equal(ticket.queueId, q1);
    // Queue A has no greeting and no options: the choice is acknowledged (issue 50 item 11).
    said = await botSaid(t, token, wid, 2);
    assert.equal(said[1], "Recebemos sua escolha: *A*. Aguarde, já vamos te atender!");
  });
});

Deno.test("routing - outside a queue's hours its out-of-hours message is sent (scheduleType queue)", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    await setSetting(t, a.id, "scheduleType", "queue");
    const night = everyDay("20:00", "23:00");
    const queue = await createQueue(t, a.id, {
      name: "Noite",
      outOfHoursMessage: "A fila Noite abre às 20h.",
      schedules: night,
    });
    const wid = await connectSimulator(t, a, { queueIds: [queue] });
    const first = await phoneSends(t, a.user.token, wid, { from: FROM, body: "oi" });
    const said = await botSaid(t, a.user.token, wid, 1);
    assert.equal(said[0], "A fila Noite abre às 20h.");
    const ticket = await ticketOf(t, first.ticketId!);
    assert.equal(ticket.queueId, queue);
    assert.equal(ticket.status, "pending");
  });
});

Deno.test("routing - a queue chosen outside its hours with no out-of-hours text anywhere still answers the choice (issue 50 item 11)", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    await setSetting(t, a.id, "scheduleType", "queue");
    const closed = everyDay("20:00", "23:00");
    const night = await createQueue(t, a.id, { name: "Noite", schedules: closed });
    const other = await createQueue(t, a.id, { name: "Dia" });
    const wid = await connectSimulator(t, a, { queueIds: [night, other], greetingMessage: "Oi!" });
    await phoneSends(t, a.user.token, wid, { from: FROM, body: "oi" });
    await phoneSends(t, a.user.token, wid, { from: FROM, body: "1" });
    const said = await botSaid(t, a.user.token, wid, 2);
    assert.equal(said[0], "Oi!\n\n*1* - Noite\n*2* - Dia");
    assert.equal(
      said[1],
      "Recebemos sua escolha: *Noite*. Estamos fora do horário de atendimento; responderemos assim que possível.",
    );
  });
});

Deno.test("routing - group messages are ignored when CheckMsgIsGroup is enabled", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const wid = await connectSimulator(t, a);
    const ignored = await phoneSends(t, a.user.token, wid, {
      group: "120363000000000001",
      from: FROM,
      body: "grupo",
    });
    assert.equal(ignored.status, 202);
    assert.equal(ignored.ignored, "group message");
    assert.equal((await t.deps.db.selectFrom("messages").select("id").execute()).length, 0);

    await setSetting(t, a.id, "CheckMsgIsGroup", "disabled");
    const stored = await phoneSends(t, a.user.token, wid, {
      group: "120363000000000001",
      from: FROM,
      name: "Membro",
      body: "grupo",
    });
    assert.equal(stored.status, 201);
    const ticket = await ticketOf(t, stored.ticketId!);
    assert.equal(ticket.isGroup, 1);
    const contacts = await t.deps.db.selectFrom("contacts").selectAll().where(
      "companyId",
      "=",
      a.id,
    )
      .orderBy("id").execute();
    assert.deepEqual(contacts.map((c) => [c.number, c.isGroup]), [
      ["120363000000000001", 1],
      [FROM, 0],
    ]);
    const message = await t.deps.db.selectFrom("messages").selectAll().where("id", "=", stored.id!)
      .executeTakeFirstOrThrow();
    assert.equal(message.contactId, contacts[1].id); // the author, in the group's ticket
    assert.equal(message.participant, `${FROM}@s.whatsapp.net`);
  });
});

Deno.test("routing - calls are rejected with a message when the call setting is disabled", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const wid = await connectSimulator(t, a);
    const res = await t.request("POST", `/api/simulator/${wid}/call`, {
      token: a.user.token,
      body: { from: FROM, isVideo: true, id: "CALL-1" },
    });
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.equal(body.rejected, true);
    const log = await t.deps.db.selectFrom("messages").selectAll().where("wid", "=", "CALL-1")
      .executeTakeFirstOrThrow();
    assert.equal(log.mediaType, "call_log");
    assert.equal(log.body, "Chamada de vídeo recusada às 09:00");
    const said = await botSaid(t, a.user.token, wid, 1);
    assert.match(said[0], /chamadas de voz e vídeo estão desabilitadas/);

    await setSetting(t, a.id, "call", "enabled");
    const ok = await t.request("POST", `/api/simulator/${wid}/call`, {
      token: a.user.token,
      body: { from: FROM, id: "CALL-2" },
    });
    assert.equal((await ok.json()).rejected, false);
    const received = await t.deps.db.selectFrom("messages").selectAll().where("wid", "=", "CALL-2")
      .executeTakeFirstOrThrow();
    assert.equal(received.body, "Chamada de voz recebida às 09:00");
    await t.deps.sessions.outbox.idle();
    assert.equal((await sentBy(t, a.user.token, wid)).length, 1);
  });
});

Deno.test("routing - a rating answer on a closed ticket is recorded and opens no ticket", async () => {
  await withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const wid = await connectSimulator(t, a);
    const first = await phoneSends(t, a.user.token, wid, { from: FROM, body: "oi" });
    const close = async () =>
      await t.deps.db.updateTable("tickets").set({
        status: "closed",
        userId: a.user.id,
        awaitingRating: 1,
      }).where("id", "=", first.ticketId!).execute();
    await close();
    const rated = await phoneSends(t, a.user.token, wid, { from: FROM, body: " 3 " });
    assert.equal(rated.status, 201);
    assert.equal(rated.ticketId, first.ticketId);
    const ratings = await t.deps.db.selectFrom("user_ratings").selectAll().execute();
    assert.deepEqual(ratings.map((r) => [r.ticketId, r.userId, r.rate]), [[
      first.ticketId,
      a.user.id,
      3,
    ]]);
    let tickets = await t.deps.db.selectFrom("tickets").selectAll().where("companyId", "=", a.id)
      .execute();
    assert.equal(tickets.length, 1);
    assert.equal(tickets[0].awaitingRating, 0);
    assert.equal(tickets[0].status, "closed");

    // another answer while waiting clears the wait and goes the normal way: a new ticket
    await t.deps.db.updateTable("tickets").set({ awaitingRating: 1 }).where(
      "id",
      "=",
      first.ticketId!,
    )
      .execute();
    const other = await phoneSends(t, a.user.token, wid, { from: FROM, body: "5" });
    assert.notEqual(other.ticketId, first.ticketId);
    tickets = await t.deps.db.selectFrom("tickets").selectAll().where("companyId", "=", a.id)
      .orderBy("id").execute();
    assert.deepEqual(tickets.map((x) => [x.status, x.awaitingRating]), [["closed", 0], [
      "pending",
      0,
    ]]);
    assert.equal((await t.deps.db.selectFrom("user_ratings").selectAll().execute()).length, 1);
  });
});
