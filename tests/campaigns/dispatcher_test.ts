import assert from "node:assert/strict";
import { createTestApp, restartTestApp, type TestApp, twoCompanies } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { connectSimulator, phoneSends, sentBy } from "../whatsapp/helpers.ts";
import { dispatchTick } from "../../server/campaigns/dispatcher.ts";
import { type Provider, ProviderSendError } from "../../server/whatsapp/providers/provider.ts";
import { checkPendingNumbers } from "../../server/campaigns/number_check.ts";
import { addContact, addTicket } from "../helpers/tickets.ts";
import { createCampaign, numbers, saveSettings, seedList } from "./helpers.ts";

async function status(t: TestApp, id: number) {
  const row = await t.deps.db.selectFrom("campaigns").select(["status", "completedAt"])
    .where("id", "=", id).executeTakeFirstOrThrow();
  return row;
}

/** Ticks (with the outbox drained between ticks) until the campaign is FINALIZADA. */
async function runToEnd(t: TestApp, id: number, maxTicks = 100) {
  for (let i = 0; i < maxTicks; i++) {
    await dispatchTick(t.deps);
    await t.deps.sessions.outbox.idle();
    if ((await status(t, id)).status === "FINALIZADA") return i + 1;
  }
  throw new Error(`campaign ${id} did not finish in ${maxTicks} ticks`);
}

/** Two companies; A with a simulator connection (fast acks) and no intervals between messages. */
async function unpacedCompany(t: TestApp) {
  const { a, b } = await twoCompanies(t);
  t.deps.simulator.ackDelayMs = 5;
  const wid = await connectSimulator(t, a);
  await saveSettings(t, a, { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
  return { a, b, wid };
}

Deno.test("dispatcher - pacing per connection follows the settings on the test clock", async () => {
  const t = await createTestApp();
  try {
    const { a } = await twoCompanies(t);
    const wid = await connectSimulator(t, a);
    await saveSettings(t, a, { messageInterval: 5, longerIntervalAfter: 5, greaterInterval: 20 });
    const first = await seedList(t, a, 3, 0);
    const second = await seedList(t, a, 3, 100);
    const now = t.clock.now().toISOString();
    // Two campaigns on one connection share its pace: no burst of two at a time.
    const c1 = await createCampaign(t, a, {
      whatsappId: wid,
      contactListId: first,
      scheduledAt: now,
    });
    await createCampaign(t, a, { whatsappId: wid, contactListId: second, scheduledAt: now });
    const queuedAt: number[] = [];
    for (let second = 0; second <= 60; second++) {
      const report = await dispatchTick(t.deps);
      for (let i = 0; i < report.queued; i++) queuedAt.push(second);
      t.clock.advance(1000);
    }
    // 5 s apart; after every 5 messages a 20 s pause instead.
    assert.deepEqual(queuedAt, [0, 5, 10, 15, 20, 40]);
    await t.deps.sessions.outbox.idle();
    await dispatchTick(t.deps);
    assert.equal((await status(t, c1.id)).status, "FINALIZADA");
    assert.equal((await sentBy(t, a.admin.token, wid)).length, 6);
  } finally {
    await t.close();
  }
});

Deno.test("dispatcher - a crash mid-campaign of 1,000 recipients: each gets exactly one message", async () => {
  let t = await createTestApp();
  try {
    const { a, wid } = await unpacedCompany(t);
    const listId = await seedList(t, a, 1000);
    const campaign = await createCampaign(t, a, {
      whatsappId: wid,
      contactListId: listId,
      scheduledAt: t.clock.now().toISOString(),
      message2: "Oi {nome}, tudo bem?",
    });
    // The numbers are checked first (500 a tick), then the campaign starts.
    let first = await dispatchTick(t.deps);
    for (let i = 0; i < 5 && first.started === 0; i++) first = await dispatchTick(t.deps);
    assert.equal(first.started, 1);
    assert.ok(first.queued > 0);
    await eventually(async () => (await sentBy(t, a.admin.token, wid)).length >= 50);
    // The crash: the app goes down while the outbox is sending; besides, two rows had reached
    // the phone without being marked sent, as if the process died between the two.
    const pending = await t.deps.db.selectFrom("outbox").selectAll().where("status", "=", "pending")
      .orderBy("id").limit(2).execute();
    const stamp = t.clock.now().toISOString();
    for (const row of pending) {
      await t.deps.db.insertInto("simulator_sent").values({
        companyId: a.id,
        whatsappId: wid,
        wid: row.wid,
        toJid: row.toJid,
        body: row.body,
        mediaMimetype: null,
        mediaName: null,
        mediaSize: null,
        quotedId: null,
        createdAt: stamp,
        updatedAt: stamp,
        // The outbox may have reached that phone itself since the read (PostgreSQL runs it
        // beside this test's writes): then it is there once already.
      }).onConflict((oc) => oc.columns(["whatsappId", "wid"]).doNothing()).execute();
    }
    await t.deps.db.updateTable("outbox").set({ status: "sending", claimId: "dead" })
      .where("id", "in", pending.map((p) => p.id)).execute();
    t = await restartTestApp(t);
    t.deps.simulator.ackDelayMs = 5;
    await t.deps.sessions.restoreAll();
    await runToEnd(t, campaign.id);

    const sent = await t.deps.db.selectFrom("simulator_sent").select(["toJid", "body"])
      .where("whatsappId", "=", wid).execute();
    const perNumber = new Map<string, number>();
    for (const s of sent) perNumber.set(s.toJid, (perNumber.get(s.toJid) ?? 0) + 1);
    assert.equal(sent.length, 1000);
    assert.deepEqual(
      [...perNumber.keys()].sort(),
      numbers(1000).map((n) => `${n}@s.whatsapp.net`).sort(),
    );
    assert.ok([...perNumber.values()].every((n) => n === 1));
    // The two messages rotate, with the variables resolved.
    assert.ok(sent.some((s) => s.body === "Olá Pessoa 0!"));
    assert.ok(sent.some((s) => s.body === "Oi Pessoa 1, tudo bem?"));
    const view = await (await t.request("GET", `/api/campaigns/${campaign.id}`, {
      token: a.admin.token,
    })).json();
    assert.equal(view.status, "FINALIZADA");
    assert.equal(view.stats.validContacts, 1000);
    assert.equal(view.stats.delivered, 1000);
    assert.ok(view.completedAt);
  } finally {
    await t.close();
  }
});

Deno.test("dispatcher - confirmation first, the message after the answer; opt-out stops later campaigns", async () => {
  const t = await createTestApp();
  try {
    const { a, wid } = await unpacedCompany(t);
    const listId = await seedList(t, a, 2, 500);
    const [ana, bia] = numbers(2, 500);
    await dispatchTick(t.deps); // the answers cursor starts here
    const campaign = await createCampaign(t, a, {
      whatsappId: wid,
      contactListId: listId,
      confirmation: true,
      confirmationMessage1: "Podemos enviar a oferta, {nome}?",
      message1: "Oferta para {nome}",
      scheduledAt: t.clock.now().toISOString(),
    });
    await dispatchTick(t.deps);
    await t.deps.sessions.outbox.idle();
    let sent = await sentBy(t, a.admin.token, wid);
    assert.deepEqual(sent.map((s) => s.body).sort(), [
      "Podemos enviar a oferta, Pessoa 500?",
      "Podemos enviar a oferta, Pessoa 501?",
    ]);
    // Ana answers; Bia opts out.
    for (const [from, body] of [[ana, "Sim"], [bia, " parar "]]) {
      assert.equal((await phoneSends(t, a.admin.token, wid, { from, body })).status, 201);
    }
    await dispatchTick(t.deps);
    await runToEnd(t, campaign.id);
    sent = await sentBy(t, a.admin.token, wid);
    assert.deepEqual(sent.filter((s) => s.to.startsWith(ana)).map((s) => s.body).sort(), [
      "Oferta para Pessoa 500",
      "Podemos enviar a oferta, Pessoa 500?",
    ]);
    assert.equal(sent.filter((s) => s.to.startsWith(bia)).length, 1);
    const view = await (await t.request("GET", `/api/campaigns/${campaign.id}`, {
      token: a.admin.token,
    })).json();
    assert.equal(view.stats.confirmationRequested, 2);
    assert.equal(view.stats.confirmed, 1);
    assert.equal(view.stats.delivered, 1);
    const optOut = await t.deps.db.selectFrom("campaign_opt_outs").selectAll().executeTakeFirst();
    assert.equal(optOut?.number, bia);
    assert.equal(optOut?.word, "PARAR");
    // The contact's drawer reads it from the contact.
    const contact = await t.deps.db.selectFrom("contacts").select("id").where("number", "=", bia)
      .executeTakeFirstOrThrow();
    const drawer = await (await t.request("GET", `/api/contacts/${contact.id}`, {
      token: a.admin.token,
    })).json();
    assert.equal(drawer.campaignOptOut.word, "PARAR");

    // A later campaign to the same list never messages Bia.
    const later = await createCampaign(t, a, {
      whatsappId: wid,
      contactListId: listId,
      message1: "Nova oferta",
      scheduledAt: t.clock.now().toISOString(),
    });
    await runToEnd(t, later.id);
    sent = await sentBy(t, a.admin.token, wid);
    assert.equal(sent.filter((s) => s.body === "Nova oferta").length, 1);
    assert.equal(sent.filter((s) => s.to.startsWith(bia)).length, 1);
  } finally {
    await t.close();
  }
});

Deno.test("dispatcher - a campaign to a tag's contacts, with its own media", async () => {
  const t = await createTestApp();
  try {
    const { a, b, wid } = await unpacedCompany(t);
    const tag = await (await t.request("POST", "/api/tags", {
      token: a.admin.token,
      body: { name: "Clientes VIP" },
    })).json();
    const [vip, other] = numbers(2, 700);
    for (const [name, number, tagged] of [["Vip", vip, true], ["Outro", other, false]] as const) {
      const contactId = await addContact(t, a.id, name, number);
      const ticket = await addTicket(t, a.id, { contactId, whatsappId: wid, status: "open" });
      if (tagged) {
        await t.deps.db.insertInto("ticket_tags").values({
          companyId: a.id,
          ticketId: ticket.id,
          tagId: tag.id,
        })
          .execute();
      }
    }
    // Another company cannot target this tag.
    const foreign = await t.request("POST", "/api/campaigns", {
      token: b.admin.token,
      body: { name: "Alheia", tagListId: tag.id },
    });
    assert.equal(foreign.status, 404);
    const campaign = await createCampaign(t, a, { whatsappId: wid, tagListId: tag.id });
    const form = new FormData();
    form.append("file", new File(["JPEGDATA"], "oferta.jpg", { type: "image/jpeg" }));
    const upload = await t.request("POST", `/api/campaigns/${campaign.id}/media-upload`, {
      token: a.admin.token,
      body: form,
    });
    assert.equal(upload.status, 200, await upload.clone().text());
    assert.equal((await upload.json()).mediaName, "oferta.jpg");
    const scheduled = await t.request("PUT", `/api/campaigns/${campaign.id}`, {
      token: a.admin.token,
      body: { scheduledAt: t.clock.now().toISOString() },
    });
    assert.equal((await scheduled.json()).status, "PROGRAMADA");
    await runToEnd(t, campaign.id);
    const sent = await sentBy(t, a.admin.token, wid);
    assert.deepEqual(sent.map((s) => [s.to, s.body, s.media?.mimetype]), [
      [vip, "Olá Vip!", "image/jpeg"],
    ]);
  } finally {
    await t.close();
  }
});

Deno.test("dispatcher - a start interrupted while writing rows resumes after a restart of the campaign", async () => {
  const t = await createTestApp();
  try {
    const { a, wid } = await unpacedCompany(t);
    const listId = await seedList(t, a, 10, 800);
    await checkPendingNumbers(t.deps);
    const campaign = await createCampaign(t, a, {
      whatsappId: wid,
      contactListId: listId,
      scheduledAt: t.clock.now().toISOString(),
    });
    // What a cancel in the middle of the start leaves: some rows, no startedAt.
    const stamp = t.clock.now().toISOString();
    const first = numbers(10, 800).slice(0, 4);
    await t.deps.db.insertInto("campaign_shipping").values(first.map((number) => ({
      companyId: a.id,
      campaignId: campaign.id,
      contactListItemId: null,
      number,
      name: "x",
      message: "planned before the cancel",
      confirmationMessage: null,
      createdAt: stamp,
      updatedAt: stamp,
    }))).execute();
    const cancel = await t.request("POST", `/api/campaigns/${campaign.id}/cancel`, {
      token: a.admin.token,
    });
    assert.equal((await cancel.json()).status, "CANCELADA");
    const restart = await t.request("POST", `/api/campaigns/${campaign.id}/restart`, {
      token: a.admin.token,
    });
    assert.equal((await restart.json()).status, "PROGRAMADA");
    await runToEnd(t, campaign.id);
    const sent = await sentBy(t, a.admin.token, wid);
    assert.equal(sent.length, 10);
    assert.equal(new Set(sent.map((s) => s.to)).size, 10);
    assert.equal(sent.filter((s) => s.body === "planned before the cancel").length, 4);
  } finally {
    await t.close();
  }
});

Deno.test("dispatcher - two ticks at once (a tick that runs twice) still message each number once", async () => {
  const t = await createTestApp();
  try {
    const { a, wid } = await unpacedCompany(t);
    const listId = await seedList(t, a, 300, 1000);
    const campaign = await createCampaign(t, a, {
      whatsappId: wid,
      contactListId: listId,
      confirmation: true,
      confirmationMessage1: "Posso enviar, {nome}?",
      scheduledAt: t.clock.now().toISOString(),
    });
    for (let i = 0; i < 6; i++) {
      await Promise.all([dispatchTick(t.deps), dispatchTick(t.deps)]);
      await t.deps.sessions.outbox.idle();
    }
    // Everyone was asked once; then everyone answers and gets the message once.
    const sent = await sentBy(t, a.admin.token, wid);
    assert.equal(sent.length, 300);
    assert.equal(new Set(sent.map((s) => s.to)).size, 300);
    for (const number of numbers(300, 1000)) {
      await phoneSends(t, a.admin.token, wid, { from: number, body: "sim" });
    }
    for (let i = 0; i < 20 && (await status(t, campaign.id)).status !== "FINALIZADA"; i++) {
      await Promise.all([dispatchTick(t.deps), dispatchTick(t.deps)]);
      await t.deps.sessions.outbox.idle();
    }
    assert.equal((await status(t, campaign.id)).status, "FINALIZADA");
    // (simulator_sent itself: the simulator's /sent route answers the latest 500 only)
    const all = await t.deps.db.selectFrom("simulator_sent").select(["toJid", "body"])
      .where("whatsappId", "=", wid).execute();
    const offers = all.filter((s) => s.body.startsWith("Olá"));
    assert.equal(offers.length, 300);
    assert.equal(new Set(offers.map((s) => s.toJid)).size, 300);
    assert.equal(all.length, 600);
  } finally {
    await t.close();
  }
});

Deno.test("dispatcher - a confirmation request the outbox gives up on fails the row; the campaign ends", async () => {
  const t = await createTestApp();
  try {
    const { a, wid } = await unpacedCompany(t);
    const listId = await seedList(t, a, 2, 1500);
    const campaign = await createCampaign(t, a, {
      whatsappId: wid,
      contactListId: listId,
      confirmation: true,
      confirmationMessage1: "Posso enviar?",
      scheduledAt: t.clock.now().toISOString(),
    });
    const provider = t.deps.sessions.connectedProvider(wid) as Provider;
    provider.sendText = () =>
      Promise.reject(new ProviderSendError("blocked by the contact", { permanent: true }));
    await runToEnd(t, campaign.id);
    const rows = await t.deps.db.selectFrom("campaign_shipping").select("status")
      .where("campaignId", "=", campaign.id).execute();
    assert.deepEqual(rows.map((r) => r.status), ["failed", "failed"]);
  } finally {
    await t.close();
  }
});
