import assert from "node:assert/strict";
import { type TestApp, type TestCompany, twoCompanies, withApp } from "../helpers/app.ts";
import { addQueue, ticketRow } from "../helpers/tickets.ts";
import { eventually } from "../helpers/eventually.ts";
import { connectSimulator, phoneSends, sentBy, setSetting } from "../whatsapp/helpers.ts";

/** A connected simulator connection and a pending ticket opened by a phone message. */
async function inbound(
  t: TestApp,
  company: TestCompany,
  fields: Record<string, unknown> = {},
  from = "5511988887777",
) {
  const whatsappId = await connectSimulator(t, company, fields);
  const delivery = await phoneSends(t, company.admin.token, whatsappId, {
    from,
    name: "Maria Souza",
    body: "Olá, preciso de ajuda",
  });
  assert.equal(delivery.status, 201, JSON.stringify(delivery));
  const ticketId = delivery.ticketId!;
  return { whatsappId, ticketId, wid: delivery.wid!, messageId: delivery.id! };
}

async function put(t: TestApp, token: string, id: number, body: Record<string, unknown>) {
  const res = await t.request("PUT", `/api/tickets/${id}`, { token, body });
  assert.equal(res.status, 200, await res.clone().text());
  return await res.json();
}

async function send(t: TestApp, token: string, ticketId: number, body: unknown) {
  return await t.request("POST", `/api/messages/${ticketId}`, { token, body });
}

Deno.test("ticket accept - with sendGreetingAccepted the greeting with the user's name goes first", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    await setSetting(t, a.id, "sendGreetingAccepted", "enabled");
    const { whatsappId, ticketId } = await inbound(t, a);
    const accepted = await put(t, a.admin.token, ticketId, { action: "accept" });
    assert.equal(accepted.status, "open");
    const reply = await send(t, a.admin.token, ticketId, { body: "Como posso ajudar?" });
    assert.equal(reply.status, 201);
    const sent = await eventually(async () => {
      const list = await sentBy(t, a.admin.token, whatsappId);
      return list.length === 2 ? list : undefined;
    });
    assert.match(sent[0].body, /\*Maria Souza\*! Meu nome é \*Alpha Admin\*/);
    assert.match(sent[0].body, /^(Bom dia|Boa tarde|Boa noite|Boa madrugada), /);
    assert.equal(sent[1].body, "Como posso ajudar?");
    assert.equal((await ticketRow(t, ticketId)).lastMessage, "Como posso ajudar?");
  }));

Deno.test("ticket accept - without the setting nothing is sent", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const { whatsappId, ticketId } = await inbound(t, a);
    await put(t, a.admin.token, ticketId, { status: "open", userId: a.admin.id });
    await send(t, a.admin.token, ticketId, { body: "Oi!" });
    const sent = await eventually(async () => {
      const list = await sentBy(t, a.admin.token, whatsappId);
      return list.length >= 1 ? list : undefined;
    });
    assert.deepEqual(sent.map((s) => s.body), ["Oi!"]);
  }));

Deno.test("ticket resolve - sends the completion message then the rating request", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    await setSetting(t, a.id, "userRating", "enabled");
    const { whatsappId, ticketId } = await inbound(t, a, {
      complationMessage: "Obrigado, {{firstName}}! Protocolo {{protocol}}",
      ratingMessage: "Avalie nosso atendimento",
    });
    await put(t, a.admin.token, ticketId, { action: "accept" });
    const closed = await put(t, a.admin.token, ticketId, { status: "closed" });
    assert.equal(closed.status, "closed");
    const sent = await eventually(async () => {
      const list = await sentBy(t, a.admin.token, whatsappId);
      return list.length === 2 ? list : undefined;
    });
    assert.match(sent[0].body, new RegExp(`^Obrigado, Maria! Protocolo \\d{14}${ticketId}$`));
    assert.match(sent[1].body, /^Avalie nosso atendimento\n\nDigite de 1 a 3/);
    assert.match(sent[1].body, /\*1\* - _Insatisfeito_\n\*2\* - _Satisfeito_\n\*3\* - _Muito/);
    const row = await ticketRow(t, ticketId);
    assert.equal(row.awaitingRating, 1);
    assert.equal(row.status, "closed");
  }));

Deno.test("ticket transfer - with sendMsgTransfTicket the contact is told the queue and the agent", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    await setSetting(t, a.id, "sendMsgTransfTicket", "enabled");
    const queueId = await addQueue(t, a.id, "Financeiro");
    const { whatsappId, ticketId } = await inbound(t, a);
    await put(t, a.admin.token, ticketId, { action: "accept" });
    await put(t, a.admin.token, ticketId, { action: "transfer", queueId, userId: a.user.id });
    await put(t, a.admin.token, ticketId, { action: "transfer", queueId });
    const sent = await eventually(async () => {
      const list = await sentBy(t, a.admin.token, whatsappId);
      return list.length === 2 ? list : undefined;
    });
    assert.match(sent[0].body, /atendente \*Alpha User\* no departamento \*Financeiro\*/);
    assert.match(sent[1].body, /departamento \*Financeiro\*/);
    const row = await ticketRow(t, ticketId);
    assert.deepEqual([row.status, row.userId, row.queueId], ["pending", null, queueId]);
  }));

Deno.test("messages send - a reply quoting the contact's message reaches the phone with the quoted id", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const { whatsappId, ticketId, wid, messageId } = await inbound(t, a);
    await put(t, a.admin.token, ticketId, { action: "accept" });
    const res = await send(t, a.admin.token, ticketId, {
      body: "*Alpha Admin*:\nClaro!",
      quotedMsg: { id: messageId, body: "Olá, preciso de ajuda" },
      read: 1,
      fromMe: true,
    });
    assert.equal(res.status, 201);
    const { messages } = await res.json();
    assert.equal(messages[0].quotedMsg.id, messageId);
    assert.equal(messages[0].fromMe, true);
    const sent = await eventually(async () => {
      const list = await sentBy(t, a.admin.token, whatsappId);
      return list.length === 1 ? list : undefined;
    });
    assert.equal(sent[0].quotedId, wid);
    assert.equal(sent[0].body, "*Alpha Admin*:\nClaro!");
  }));

Deno.test("messages send - media by multipart reaches the phone; delete for everyone marks it deleted", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const { whatsappId, ticketId } = await inbound(t, a);
    await put(t, a.admin.token, ticketId, { action: "accept" });
    const form = new FormData();
    const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3, 4]);
    form.append("medias", new File([png], "foto.png", { type: "image/png" }));
    form.append("medias", new File(["a,b\n1,2\n"], "dados.csv", { type: "text/csv" }));
    form.append("body", "Segue a foto");
    const res = await send(t, a.admin.token, ticketId, form);
    assert.equal(res.status, 201, await res.clone().text());
    const { messages } = await res.json();
    assert.equal(messages.length, 2);
    assert.equal(messages[0].mediaType, "image");
    assert.equal(messages[0].body, "Segue a foto");
    assert.equal(messages[0].mediaUrl, `/api/messages/${messages[0].id}/media`);
    assert.equal(messages[1].mediaName, "dados.csv");
    const sent = await eventually(async () => {
      const list = await sentBy(t, a.admin.token, whatsappId);
      return list.length === 2 && list.every((s) => s.ack >= 1) ? list : undefined;
    });
    assert.deepEqual(sent[0].media, {
      mimetype: "image/png",
      filename: "foto.png",
      size: png.byteLength,
      ptt: false,
    });
    const media = await t.request("GET", messages[0].mediaUrl, { token: a.admin.token });
    assert.deepEqual(new Uint8Array(await media.arrayBuffer()), png);

    const del = await t.request("DELETE", `/api/messages/${messages[0].id}`, {
      token: a.admin.token,
    });
    assert.equal(del.status, 200, await del.clone().text());
    assert.equal((await del.json()).isDeleted, true);
    await eventually(async () =>
      (await sentBy(t, a.admin.token, whatsappId))[0].deleted ? true : undefined
    );
    const row = await t.deps.db.selectFrom("messages").select("isDeleted")
      .where("id", "=", messages[0].id).executeTakeFirstOrThrow();
    assert.equal(row.isDeleted, 1);
  }));

Deno.test("messages send - blank text, pending or closed tickets, bad attachments: clear codes, nothing written", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const { ticketId, messageId } = await inbound(t, a);
    const count = async () => {
      const m = await t.deps.db.selectFrom("messages").select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow();
      const o = await t.deps.db.selectFrom("outbox" as never).select((eb) =>
        eb.fn.countAll().as("n")
      ).executeTakeFirstOrThrow() as { n: number };
      const files = [...Deno.readDirSync(t.dir)].some((e) => e.name === "media")
        ? [...Deno.readDirSync(`${t.dir}/media/${a.id}`)].length
        : 0;
      return [Number(m.n), Number(o.n), files];
    };
    // Inbound message: one message, no outbox rows, no media.
    const initial = await count();

    const pending = await send(t, a.admin.token, ticketId, { body: "oi" });
    assert.equal(pending.status, 400);
    assert.equal((await pending.json()).error, "ERR_INVALID_TRANSITION");

    await put(t, a.admin.token, ticketId, { action: "accept" });
    const blank = await send(t, a.admin.token, ticketId, { body: "  \n " });
    assert.equal(blank.status, 400);
    assert.equal((await blank.json()).error, "ERR_VALIDATION");

    const exe = new FormData();
    exe.append("medias", new File(["MZ..."], "virus.exe", { type: "application/x-msdownload" }));
    const badType = await send(t, a.admin.token, ticketId, exe);
    assert.equal(badType.status, 400);
    assert.equal((await badType.json()).error, "ERR_INVALID_MEDIA");
    const svg = new FormData();
    svg.append("medias", new File(["<svg/>"], "x.png", { type: "image/svg+xml" }));
    svg.append("medias", new File([new Uint8Array([1])], "ok.png", { type: "image/png" }));
    const mixed = await send(t, a.admin.token, ticketId, svg);
    assert.equal(mixed.status, 400);
    assert.equal((await mixed.json()).error, "ERR_INVALID_MEDIA");

    const big = new FormData();
    big.append(
      "medias",
      new File([new Uint8Array(5000)], "grande.pdf", { type: "application/pdf" }),
    );
    const tooLarge = await send(t, a.admin.token, ticketId, big);
    assert.equal(tooLarge.status, 413);
    assert.equal((await tooLarge.json()).error, "ERR_MEDIA_TOO_LARGE");

    const missingQuote = await send(t, a.admin.token, ticketId, { body: "x", quotedMsg: 999999 });
    assert.equal(missingQuote.status, 404);
    assert.equal((await missingQuote.json()).error, "ERR_NO_MESSAGE_FOUND");
    // The contact's message cannot be deleted for everyone.
    const notMine = await t.request("DELETE", `/api/messages/${messageId}`, {
      token: a.admin.token,
    });
    assert.equal(notMine.status, 400);
    assert.equal((await notMine.json()).error, "ERR_DELETE_WAPP_MSG");

    // Company B can neither send on A's ticket nor delete A's messages.
    const fromB = await send(t, b.admin.token, ticketId, { body: "intruso" });
    assert.equal(fromB.status, 404);
    assert.equal((await fromB.json()).error, "ERR_NO_TICKET_FOUND");
    const delB = await t.request("DELETE", `/api/messages/${messageId}`, { token: b.admin.token });
    assert.equal(delB.status, 404);
    assert.equal((await delB.json()).error, "ERR_NO_MESSAGE_FOUND");

    await put(t, a.admin.token, ticketId, { status: "closed" });
    const closed = await send(t, a.admin.token, ticketId, { body: "depois de fechar" });
    assert.equal(closed.status, 400);
    assert.equal((await closed.json()).error, "ERR_INVALID_TRANSITION");
    assert.deepEqual(await count(), initial);
  }, { MEDIA_MAX_BYTES: "4096" }));
