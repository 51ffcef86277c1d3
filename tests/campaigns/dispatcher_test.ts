import assert from "node:assert/strict";
import { createTestApp, restartTestApp, type TestApp, twoCompanies } from "../helpers/app.ts";
import { connectSimulator, phoneSends, sentBy } from "../whatsapp/helpers.ts";
import { dispatchTick } from "../../server/campaigns/dispatcher.ts";
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
    const { a } = await twoCompanies(t);
    t.deps.simulator.ackDelayMs = 5;
    const wid = await connectSimulator(t, a);
    await saveSettings(t, a, { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
    const listId = await seedList(t, a, 1000);
    const campaign = await createCampaign(t, a, {
      whatsappId: wid,
      contactListId: listId,
      scheduledAt: t.clock.now().toISOString(),
      message2: "Oi {nome}, tudo bem?",
    });
    // First tick: started, checked and the first batch written to the outbox; sending begins.
    const first = await dispatchTick(t.deps);
    assert.equal(first.started, 1);
    assert.ok(first.queued > 0);
    while ((await sentBy(t, a.admin.token, wid)).length < 50) {
      await new Promise((r) => setTimeout(r, 5));
    }
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
      }).execute();
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
    const { a } = await twoCompanies(t);
    t.deps.simulator.ackDelayMs = 5;
    const wid = await connectSimulator(t, a);
    await saveSettings(t, a, { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 });
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
