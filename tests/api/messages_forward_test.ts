import assert from "node:assert/strict";
import { type TestApp, type TestCompany, twoCompanies, withApp } from "../helpers/app.ts";
import { addContact, addQueue, addUserToQueues } from "../helpers/tickets.ts";
import { eventually } from "../helpers/eventually.ts";
import { base64, connectSimulator, phoneSends, sentBy } from "../whatsapp/helpers.ts";

/**
 * POST /api/messages/forward (issue 28 item 1): every id of the body is the caller's company's,
 * the caller sees the sources, a contact's open ticket gets them unless it is another
 * attendant's, the others get a new ticket; sends go through the outbox marked forwarded.
 */

const MARIA = "5511988887777";
const JOAO = "5511977776666";

async function say(t: TestApp, c: TestCompany, whatsappId: number, from: string, body: unknown) {
  const delivery = await phoneSends(t, c.admin.token, whatsappId, {
    from,
    name: `Phone ${from.slice(-4)}`,
    ...(typeof body === "string" ? { body } : body as Record<string, unknown>),
  });
  assert.equal(delivery.status, 201, JSON.stringify(delivery));
  return { ticketId: delivery.ticketId!, messageId: delivery.id! };
}

async function accept(t: TestApp, token: string, ticketId: number) {
  const res = await t.request("PUT", `/api/tickets/${ticketId}`, {
    token,
    body: { action: "accept" },
  });
  assert.equal(res.status, 200, await res.clone().text());
}

const forward = (t: TestApp, token: string, body: unknown) =>
  t.request("POST", "/api/messages/forward", { token, body });

/** Maria's ticket (in a queue of a's user) with a text and an image, and Joao's open ticket. */
async function scene(t: TestApp, a: TestCompany) {
  const whatsappId = await connectSimulator(t, a);
  const text = await say(t, a, whatsappId, MARIA, "Segue o comprovante");
  const image = await say(t, a, whatsappId, MARIA, {
    body: "foto",
    media: { base64: base64("PNGDATA"), mimetype: "image/png", filename: "nota.png" },
  });
  const queueId = await addQueue(t, a.id, "Vendas");
  await addUserToQueues(t, a.id, a.user.id, [queueId]);
  await t.deps.db.updateTable("tickets").set({ queueId }).where("id", "=", text.ticketId)
    .execute();
  const joao = await say(t, a, whatsappId, JOAO, "oi");
  return { whatsappId, text, image, joao, queueId };
}

Deno.test("forward - to an open ticket and to a new one: queued through the outbox, marked forwarded, media reused", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    await accept(t, a.admin.token, s.joao.ticketId);
    const ana = await addContact(t, a.id, "Ana", "5511966665555");
    const res = await forward(t, a.admin.token, {
      messageIds: [s.image.messageId, s.text.messageId],
      contactIds: [await contactOf(t, s.joao.ticketId), ana],
    });
    assert.equal(res.status, 200, await res.clone().text());
    const { results } = await res.json();
    assert.equal(results.length, 2);
    assert.equal(results[0].ticketId, s.joao.ticketId);
    assert.equal(results[0].messages.length, 2);
    const created = await t.deps.db.selectFrom("tickets").selectAll()
      .where("contactId", "=", ana).executeTakeFirstOrThrow();
    assert.equal(results[1].ticketId, created.id);
    assert.equal(created.status, "open");
    assert.equal(created.userId, a.admin.id);
    assert.equal(created.queueId, s.queueId, "the new ticket takes the source's queue");

    // On the phones, in the conversation's order, marked forwarded.
    const sent = await eventually(async () => {
      const list = await sentBy(t, a.admin.token, s.whatsappId);
      return list.length === 4 ? list : undefined;
    });
    for (const to of [JOAO, "5511966665555"]) {
      const theirs = sent.filter((m) => m.to === to);
      assert.deepEqual(theirs.map((m) => m.body), ["Segue o comprovante", "foto"]);
      assert.ok(theirs.every((m) => (m as unknown as { forwarded: boolean }).forwarded));
      assert.equal(theirs[1].media?.mimetype, "image/png");
      assert.equal(theirs[1].media?.size, 7);
    }
    const rows = await t.deps.db.selectFrom("messages").selectAll()
      .where("id", "in", [...results[0].messages, ...results[1].messages]).execute();
    assert.ok(rows.every((m) => m.isForwarded === 1 && m.fromMe === 1));
    const source = await t.deps.db.selectFrom("messages").select("mediaUrl")
      .where("id", "=", s.image.messageId).executeTakeFirstOrThrow();
    assert.equal(rows.filter((m) => m.mediaUrl === source.mediaUrl).length, 2, "same file");
    const outbox = await t.deps.db.selectFrom("outbox").selectAll()
      .where("messageId", "in", rows.map((m) => m.id)).execute();
    assert.equal(outbox.length, 4);
    assert.ok(outbox.every((o) => o.forwarded === 1));

    // The API's view marks them too.
    const page = await t.request("GET", `/api/messages/${created.id}`, { token: a.admin.token });
    const messages = (await page.json()).messages;
    assert.ok(messages.every((m: { isForwarded: boolean }) => m.isForwarded));
  }));

async function contactOf(t: TestApp, ticketId: number): Promise<number> {
  const row = await t.deps.db.selectFrom("tickets").select("contactId")
    .where("id", "=", ticketId).executeTakeFirstOrThrow();
  return row.contactId;
}

Deno.test("forward - another attendant's open ticket is refused with its code; the other contacts still get them", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    await accept(t, a.user.token, s.text.ticketId);
    await accept(t, a.admin.token, s.joao.ticketId);
    const ana = await addContact(t, a.id, "Ana", "5511966665555");
    const res = await forward(t, a.user.token, {
      messageIds: [s.text.messageId],
      contactIds: [await contactOf(t, s.joao.ticketId), ana],
    });
    assert.equal(res.status, 200, await res.clone().text());
    const { results } = await res.json();
    assert.equal(results[0].error, "ERR_FORWARD_OTHER_ATTENDANT");
    assert.match(results[0].message, /outro atendente/);
    assert.equal(results[1].messages.length, 1);
    const sent = await eventually(async () => {
      const list = await sentBy(t, a.admin.token, s.whatsappId);
      return list.length === 1 ? list : undefined;
    });
    assert.equal(sent[0].to, "5511966665555");
    const intoJoao = await t.deps.db.selectFrom("messages").select("id")
      .where("ticketId", "=", s.joao.ticketId).where("fromMe", "=", 1).execute();
    assert.equal(intoJoao.length, 0);
  }));

/**
 * Forwards Maria's text to Joao as `token`: his one result (a refusal) and how many of our
 * messages went into his ticket (none for a refusal).
 */
async function forwardToJoao(t: TestApp, token: string, s: Awaited<ReturnType<typeof scene>>) {
  const res = await forward(t, token, {
    messageIds: [s.text.messageId],
    contactIds: [await contactOf(t, s.joao.ticketId)],
  });
  assert.equal(res.status, 200, await res.clone().text());
  const { results } = await res.json();
  const intoJoao = await t.deps.db.selectFrom("messages").select("id")
    .where("ticketId", "=", s.joao.ticketId).where("fromMe", "=", 1).execute();
  return { result: results[0], written: intoJoao.length };
}

Deno.test("forward - a contact whose ticket waits in a queue is refused with why and what to do (issue 50 item 9)", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    const waiting = await t.deps.db.selectFrom("tickets").select("status")
      .where("id", "=", s.joao.ticketId).executeTakeFirstOrThrow();
    assert.equal(waiting.status, "pending");
    const { result, written } = await forwardToJoao(t, a.admin.token, s);
    assert.equal(result.error, "ERR_FORWARD_TICKET_PENDING");
    assert.match(result.message, /aguardando na fila: aceite-o/);
    const pt = JSON.parse(await Deno.readTextFile("locales/pt.json"));
    assert.match(pt.errors.ERR_FORWARD_TICKET_PENDING, /aceite-o em Aguardando/);
    assert.equal(written, 0);
  }));

Deno.test("forward - a contact waiting in a queue the attendant does not serve: told to ask that queue, not to accept what they cannot see (issue 50 item 9)", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    await accept(t, a.user.token, s.text.ticketId);
    const suporte = await addQueue(t, a.id, "Suporte");
    await t.deps.db.updateTable("tickets").set({ queueId: suporte })
      .where("id", "=", s.joao.ticketId).execute();
    const seen = await t.request("GET", `/api/tickets/${s.joao.ticketId}`, {
      token: a.user.token,
    });
    assert.equal(seen.status, 403, "the attendant cannot see Joao's ticket to accept it");
    const { result, written } = await forwardToJoao(t, a.user.token, s);
    assert.equal(result.error, "ERR_FORWARD_TICKET_PENDING_OTHER_QUEUE");
    assert.match(result.message, /fila que você não atende/);
    for (const lng of ["pt", "en", "es"]) {
      const texts = JSON.parse(await Deno.readTextFile(`locales/${lng}.json`));
      assert.ok(texts.errors.ERR_FORWARD_TICKET_PENDING_OTHER_QUEUE, lng);
    }
    assert.equal(written, 0);
  }));

Deno.test("forward - every id of the body is the company's: another company's message or contact answers like a missing one, and nothing is queued", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const s = await scene(t, a);
    const ana = await addContact(t, a.id, "Ana", "5511966665555");
    const theirs = await addContact(t, b.id, "Bia", "5511955554444");
    const wB = await connectSimulator(t, b);
    const theirMessage = await say(t, b, wB, "5511944443333", "deles");

    const foreignMessage = await forward(t, a.admin.token, {
      messageIds: [s.text.messageId, theirMessage.messageId],
      contactIds: [ana],
    });
    assert.equal(foreignMessage.status, 404);
    assert.equal((await foreignMessage.json()).error, "ERR_NO_MESSAGE_FOUND");
    const missing = await forward(t, a.admin.token, {
      messageIds: [999_999],
      contactIds: [ana],
    });
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).error, "ERR_NO_MESSAGE_FOUND");

    const foreignContact = await forward(t, a.admin.token, {
      messageIds: [s.text.messageId],
      contactIds: [ana, theirs],
    });
    assert.equal(foreignContact.status, 404);
    assert.equal((await foreignContact.json()).error, "ERR_NO_CONTACT_FOUND");
    const missingContact = await forward(t, a.admin.token, {
      messageIds: [s.text.messageId],
      contactIds: [999_999],
    });
    assert.equal((await missingContact.json()).error, "ERR_NO_CONTACT_FOUND");

    const queued = await t.deps.db.selectFrom("outbox").select("id").execute();
    assert.equal(queued.length, 0);
    const anaTickets = await t.deps.db.selectFrom("tickets").select("id")
      .where("contactId", "=", ana).execute();
    assert.equal(anaTickets.length, 0);
  }));

Deno.test("forward - roles and input: a source the caller may not see is refused, bad bodies are 400", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    const ana = await addContact(t, a.id, "Ana", "5511966665555");
    // Maria's ticket moves to a queue the user is not in.
    const other = await addQueue(t, a.id, "Financeiro");
    await t.deps.db.updateTable("tickets").set({ queueId: other })
      .where("id", "=", s.text.ticketId).execute();
    const hidden = await forward(t, a.user.token, {
      messageIds: [s.text.messageId],
      contactIds: [ana],
    });
    assert.equal(hidden.status, 403);
    assert.equal((await hidden.json()).error, "ERR_NO_PERMISSION");

    for (
      const body of [
        {},
        { messageIds: [], contactIds: [ana] },
        { messageIds: [s.text.messageId], contactIds: [] },
        { messageIds: Array.from({ length: 101 }, (_, i) => i + 1), contactIds: [ana] },
        { messageIds: [s.text.messageId], contactIds: Array.from({ length: 21 }, (_, i) => i + 1) },
        { messageIds: ["x"], contactIds: [ana] },
      ]
    ) {
      const res = await forward(t, a.admin.token, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal((await res.json()).error, "ERR_VALIDATION");
    }
    const anonymous = await t.request("POST", "/api/messages/forward", {
      body: { messageIds: [s.text.messageId], contactIds: [ana] },
    });
    assert.equal(anonymous.status, 401);
  }));

Deno.test("forward and edit - in the OpenAPI document with their schemas' limits", () =>
  withApp(async (t) => {
    const doc = await (await t.request("GET", "/api/openapi.json")).json();
    const forwardBody =
      doc.paths["/messages/forward"].post.requestBody.content["application/json"].schema;
    assert.equal(forwardBody.properties.messageIds.maxItems, 100);
    assert.equal(forwardBody.properties.contactIds.maxItems, 20);
    const editBody = doc.paths["/messages/{id}"].put.requestBody.content["application/json"].schema;
    assert.equal(editBody.properties.body.maxLength, 65_536);
  }));

Deno.test("forward - an Idempotency-Key: a retry gets the first answer and queues nothing more; another body with it is 422", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    const ana = await addContact(t, a.id, "Ana", "5511966665555");
    const body = { messageIds: [s.text.messageId, s.image.messageId], contactIds: [ana] };
    const post = (b: unknown, key: string) =>
      t.request("POST", "/api/messages/forward", {
        token: a.admin.token,
        body: b,
        headers: { "idempotency-key": key },
      });
    const first = await post(body, "fwd-1");
    assert.equal(first.status, 200, await first.clone().text());
    const again = await post(body, "fwd-1");
    assert.equal(again.status, 200);
    assert.deepEqual(await again.json(), await first.json());
    const queued = await t.deps.db.selectFrom("outbox").select("id").where("forwarded", "=", 1)
      .execute();
    assert.equal(queued.length, 2);

    const other = await post({ ...body, messageIds: [s.text.messageId] }, "fwd-1");
    assert.equal(other.status, 422);
    assert.equal((await other.json()).error, "ERR_IDEMPOTENCY_KEY_REUSED");
    const bad = await post(body, "chave inválida");
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).error, "ERR_VALIDATION");
  }));

Deno.test("forward - a contact's forwarded message is stored and shown forwarded", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const whatsappId = await connectSimulator(t, a);
    const forwarded = await say(t, a, whatsappId, MARIA, { body: "corrente", forwarded: true });
    const plain = await say(t, a, whatsappId, MARIA, "meu texto");
    const page = await t.request("GET", `/api/messages/${forwarded.ticketId}`, {
      token: a.admin.token,
    });
    const messages: { id: number; isForwarded: boolean }[] = (await page.json()).messages;
    assert.equal(messages.find((m) => m.id === forwarded.messageId)?.isForwarded, true);
    assert.equal(messages.find((m) => m.id === plain.messageId)?.isForwarded, false);
  }));
