import assert from "node:assert/strict";
import { createCompany, type TestApp, type TestCompany, withApp } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import {
  connectSimulator,
  createOption,
  createQueue,
  phoneSends,
  sentBy,
  type SentItem,
} from "./helpers.ts";

const FROM = "5511987650001";

/** Waits until the connection has sent `count` messages to `to`, and returns them. */
async function botSent(
  t: TestApp,
  token: string,
  wid: number,
  count: number,
  to = FROM,
): Promise<SentItem[]> {
  await eventually(async () => {
    const all = (await sentBy(t, token, wid)).filter((s) => s.to === to);
    return all.length >= count ? all : undefined;
  });
  // Then nothing more is on its way: exactly `count`, never more.
  await t.deps.sessions.outbox.idle();
  const settled = (await sentBy(t, token, wid)).filter((s) => s.to === to);
  assert.equal(settled.length, count, JSON.stringify(settled.map((s) => s.body)));
  return settled;
}

/** Attaches a file through the admin API (queue or option). */
async function upload(
  t: TestApp,
  company: TestCompany,
  url: string,
  file: File,
): Promise<void> {
  const form = new FormData();
  form.append("file", file);
  const res = await t.request("POST", url, { token: company.admin.token, body: form });
  assert.equal(res.status, 200, await res.clone().text());
}

async function botRows(t: TestApp, ticketId: number) {
  return await t.deps.db.selectFrom("messages").selectAll().where("ticketId", "=", ticketId)
    .where("fromMe", "=", 1).orderBy("id").execute();
}

const PDF = "%PDF-1.4 cardápio da casa";
const PNG = "\x89PNG boleto";

Deno.test("routing media - choosing a queue sends its greeting, then its file, through the outbox", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const sales = await createQueue(t, a.id, {
      name: "Vendas",
      greetingMessage: "Bem-vindo a Vendas",
    });
    const support = await createQueue(t, a.id, { name: "Suporte" });
    await upload(
      t,
      a,
      `/api/queue/${sales}/media-upload`,
      new File([PDF], "cardápio.pdf", { type: "application/pdf" }),
    );
    const queueRow = await t.deps.db.selectFrom("queues").select("mediaPath")
      .where("id", "=", sales).executeTakeFirstOrThrow();
    const wid = await connectSimulator(t, a, {
      queueIds: [sales, support],
      greetingMessage: "Escolha:",
    });
    const first = await phoneSends(t, a.user.token, wid, { from: FROM, body: "oi" });
    await botSent(t, a.user.token, wid, 1);
    await phoneSends(t, a.user.token, wid, { from: FROM, body: "1" });
    const sent = await botSent(t, a.user.token, wid, 3);
    assert.equal(sent[1].body, "Bem-vindo a Vendas");
    assert.equal(sent[1].media, null);
    assert.equal(sent[2].body, "");
    assert.deepEqual(sent[2].media, {
      mimetype: "application/pdf",
      filename: "cardápio.pdf",
      size: new TextEncoder().encode(PDF).byteLength,
      ptt: false,
    });

    // The rows: greeting then a media message, both sent (outbox delivered, ack >= 1).
    const rows = await botRows(t, first.ticketId!);
    assert.equal(rows.length, 3);
    const media = rows[2];
    assert.equal(media.body, "");
    assert.equal(media.mediaType, "application");
    assert.equal(media.mediaMimetype, "application/pdf");
    assert.equal(media.mediaName, "cardápio.pdf");
    assert.ok(media.ack >= 1);
    assert.equal(media.wid, sent[2].id);
    // The message owns its own key to the bytes, not the queue's.
    assert.notEqual(media.mediaUrl, queueRow.mediaPath);
    assert.match(media.mediaUrl!, new RegExp(`^${a.id}/[0-9a-f-]{36}\\.pdf$`));
    const outbox = await t.deps.db.selectFrom("outbox").selectAll()
      .where("messageId", "=", media.id).executeTakeFirstOrThrow();
    assert.equal(outbox.status, "sent");
    assert.equal(outbox.mediaPath, media.mediaUrl);
    const ticket = await t.deps.db.selectFrom("tickets").selectAll()
      .where("id", "=", first.ticketId!).executeTakeFirstOrThrow();
    assert.equal(ticket.queueId, sales);
    assert.equal(ticket.lastMessage, "cardápio.pdf");

    // The admin replaces the queue's file: the old one is gone, the message's file is intact.
    await upload(
      t,
      a,
      `/api/queue/${sales}/media-upload`,
      new File(["novo"], "novo.pdf", { type: "application/pdf" }),
    );
    await assert.rejects(Deno.stat(`${t.dir}/media/${queueRow.mediaPath}`), Deno.errors.NotFound);
    const download = await t.request("GET", `/api/messages/${media.id}/media`, {
      token: a.admin.token,
    });
    assert.equal(download.status, 200);
    assert.equal(await download.text(), PDF);
  }));

Deno.test("routing media - picking an option sends its message, then its file", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const queue = await createQueue(t, a.id, {
      name: "Atendimento",
      greetingMessage: "Como podemos ajudar?",
    });
    await createOption(t, a.id, queue, { title: "Comercial", option: "1", message: "Vendas." });
    const finance = await createOption(t, a.id, queue, {
      title: "Financeiro",
      option: "2",
      message: "Segue o boleto.",
    });
    await upload(
      t,
      a,
      `/api/queue-options/${finance}/media-upload`,
      new File([PNG], "boleto.png", { type: "image/png" }),
    );
    const wid = await connectSimulator(t, a, { queueIds: [queue], greetingMessage: "Olá!" });
    const first = await phoneSends(t, a.user.token, wid, { from: FROM, body: "oi" });
    // Entering the queue (it has no file of its own): text only.
    let sent = await botSent(t, a.user.token, wid, 1);
    assert.equal(sent[0].media, null);
    await phoneSends(t, a.user.token, wid, { from: FROM, body: "2" });
    sent = await botSent(t, a.user.token, wid, 3);
    assert.equal(sent[1].body, "Segue o boleto.");
    assert.equal(sent[1].media, null);
    assert.equal(sent[2].media?.mimetype, "image/png");
    assert.equal(sent[2].media?.filename, "boleto.png");
    assert.equal(sent[2].media?.size, new TextEncoder().encode(PNG).byteLength);

    const rows = await botRows(t, first.ticketId!);
    assert.deepEqual(
      rows.map((r) => [r.body, r.mediaType, r.mediaName, r.mediaMimetype]),
      [
        [sent[0].body, null, null, null],
        ["Segue o boleto.", null, null, null],
        ["", "image", "boleto.png", "image/png"],
      ],
    );
    assert.equal(await Deno.readTextFile(`${t.dir}/media/${rows[2].mediaUrl}`), PNG);
    const ticket = await t.deps.db.selectFrom("tickets").selectAll()
      .where("id", "=", first.ticketId!).executeTakeFirstOrThrow();
    assert.equal(ticket.queueOptionId, finance);
    assert.equal(ticket.chatbot, 0);
    // Only the leaf's message goes out with the file: the one media row of the ticket.
    const mediaRows = await t.deps.db.selectFrom("messages").select("id")
      .where("ticketId", "=", first.ticketId!).where("mediaUrl", "is not", null).execute();
    assert.equal(mediaRows.length, 1);
  }));

Deno.test("routing media - a company's bot never sends another company's file", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const b = await createCompany(t, "Beta");
    const qa = await createQueue(t, a.id, { name: "A", greetingMessage: "Fila A" });
    const qb = await createQueue(t, b.id, { name: "B", greetingMessage: "Fila B" });
    await upload(
      t,
      b,
      `/api/queue/${qb}/media-upload`,
      new File(["segredo de B"], "b.pdf", { type: "application/pdf" }),
    );
    const bPath = (await t.deps.db.selectFrom("queues").select("mediaPath")
      .where("id", "=", qb).executeTakeFirstOrThrow()).mediaPath!;
    // A forged row: A's queue pointing at B's stored file.
    await t.deps.db.updateTable("queues").set({ mediaPath: bPath, mediaName: "b.pdf" })
      .where("id", "=", qa).execute();
    const wa = await connectSimulator(t, a, { queueIds: [qa] });
    const wb = await connectSimulator(t, b, { queueIds: [qb] });

    const fromA = await phoneSends(t, a.user.token, wa, { from: FROM, body: "oi" });
    const sentA = await botSent(t, a.user.token, wa, 1);
    assert.equal(sentA[0].body, "Fila A");
    assert.equal(sentA[0].media, null);
    const rowsA = await botRows(t, fromA.ticketId!);
    assert.equal(rowsA.length, 1);
    assert.equal(rowsA[0].mediaUrl, null);
    // Nothing was linked or written into A's media folder from B's file.
    const aFiles = [];
    try {
      for await (const f of Deno.readDir(`${t.dir}/media/${a.id}`)) aFiles.push(f.name);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    assert.deepEqual(aFiles, []);

    // B's own contact gets B's file, from B's connection only.
    const fromB = await phoneSends(t, b.user.token, wb, { from: FROM, body: "oi" });
    const sentB = await botSent(t, b.user.token, wb, 2);
    assert.equal(sentB[1].media?.filename, "b.pdf");
    const rowsB = await botRows(t, fromB.ticketId!);
    assert.equal(rowsB[1].companyId, b.id);
    assert.match(rowsB[1].mediaUrl!, new RegExp(`^${b.id}/`));
    assert.equal((await sentBy(t, a.user.token, wa)).length, 1);
  }));

Deno.test("routing media - a queue without a file sends only its text", () =>
  withApp(async (t) => {
    const a = await createCompany(t, "Alpha");
    const queue = await createQueue(t, a.id, { name: "Suporte", greetingMessage: "Oi, suporte" });
    const other = await createQueue(t, a.id, { name: "Outra" });
    const wid = await connectSimulator(t, a, { queueIds: [queue, other], greetingMessage: "Menu" });
    const first = await phoneSends(t, a.user.token, wid, { from: FROM, body: "oi" });
    await botSent(t, a.user.token, wid, 1);
    await phoneSends(t, a.user.token, wid, { from: FROM, body: "1" });
    const sent = await botSent(t, a.user.token, wid, 2);
    assert.equal(sent[1].body, "Oi, suporte");
    assert.ok(sent.every((s) => s.media === null));
    const rows = await botRows(t, first.ticketId!);
    assert.equal(rows.length, 2);
    assert.ok(rows.every((r) => r.mediaUrl === null && r.mediaType === null));
    const outbox = await t.deps.db.selectFrom("outbox").select("mediaPath")
      .where("ticketId", "=", first.ticketId!).execute();
    assert.ok(outbox.length === 2 && outbox.every((o) => o.mediaPath === null));
  }));
