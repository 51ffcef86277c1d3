import assert from "node:assert/strict";
import { createTestApp, type TestApp, twoCompanies } from "../helpers/app.ts";
import { connectSimulator, sentBy } from "../whatsapp/helpers.ts";
import { dispatchTick } from "../../server/campaigns/dispatcher.ts";
import { CAMPAIGN_MESSAGE_VARIABLES } from "../../contract/message_variables.ts";
import { createCampaign, numbers, saveSettings } from "./helpers.ts";

async function runToEnd(t: TestApp, id: number) {
  for (let i = 0; i < 50; i++) {
    await dispatchTick(t.deps);
    await t.deps.sessions.outbox.idle();
    const row = await t.deps.db.selectFrom("campaigns").select("status").where("id", "=", id)
      .executeTakeFirstOrThrow();
    if (row.status === "FINALIZADA") return;
  }
  throw new Error(`campaign ${id} did not finish`);
}

async function oneRecipientList(t: TestApp, token: string) {
  const res = await t.request("POST", "/api/contact-lists", { token, body: { name: "VIP" } });
  const listId = (await res.json()).id as number;
  const [number] = numbers(1, 900);
  const item = await t.request("POST", "/api/contact-list-items", {
    token,
    body: { contactListId: listId, name: "Joana Lima", number, email: "joana@example.com" },
  });
  assert.equal(item.status, 201, await item.clone().text());
  return { listId, number };
}

Deno.test("campaign variables - every supported variable reaches the phone filled", async () => {
  const t = await createTestApp();
  try {
    const { a } = await twoCompanies(t);
    t.deps.simulator.ackDelayMs = 5;
    const wid = await connectSimulator(t, a);
    await saveSettings(t, a, {
      messageInterval: 0,
      longerIntervalAfter: 0,
      greaterInterval: 0,
      variables: [{ key: "cupom", value: "BLACK10" }],
    });
    const { listId, number } = await oneRecipientList(t, a.admin.token);
    const core = CAMPAIGN_MESSAGE_VARIABLES.map((v) => `${v}={{${v}}}`).join(" ");
    const campaign = await createCampaign(t, a, {
      whatsappId: wid,
      contactListId: listId,
      message1: `${core} | {nome} {name} {numero} {number} {email} {cupom}`,
      scheduledAt: t.clock.now().toISOString(),
    });
    assert.equal(campaign.status, "PROGRAMADA");
    await runToEnd(t, campaign.id);
    const sent = await sentBy(t, a.admin.token, wid);
    // The test clock reads 2026-11-22 12:00 UTC: 09:00 in São Paulo.
    assert.deepEqual(sent.map((s) => [s.to, s.body]), [[
      number,
      "firstName=Joana name=Joana Lima ms=Bom dia protocol=20261122090000 date=22/11/2026 " +
      `hour=09:00:00 | Joana Lima Joana Lima ${number} ${number} joana@example.com BLACK10`,
    ]]);
  } finally {
    await t.close();
  }
});

Deno.test("campaign variables - a campaign using an unknown variable is not scheduled; the error names it", async () => {
  const t = await createTestApp();
  try {
    const { a } = await twoCompanies(t);
    const wid = await connectSimulator(t, a);
    const { listId } = await oneRecipientList(t, a.admin.token);
    const now = t.clock.now().toISOString();
    const refused = await t.request("POST", "/api/campaigns", {
      token: a.admin.token,
      body: {
        name: "Black Friday",
        whatsappId: wid,
        contactListId: listId,
        message1: "Olá {nome}, use o cupom {cupom}!",
        scheduledAt: now,
      },
    });
    assert.equal(refused.status, 400);
    const body = await refused.json();
    assert.equal(body.error, "ERR_CAMPAIGN_UNKNOWN_VARIABLE");
    assert.equal(body.params.variable, "{cupom}");
    assert.match(body.message, /\{cupom\}/);
    assert.equal(
      await t.deps.db.selectFrom("campaigns").select("id").execute().then((r) => r.length),
      0,
    );

    // Saved without a schedule it may wait; scheduling it later is refused the same way, and
    // {{user}} (no attendant in a campaign) or a confirmation text count too.
    const draft = await createCampaign(t, a, {
      whatsappId: wid,
      contactListId: listId,
      message1: "Olá {{firstName}}",
      confirmation: true,
      confirmationMessage1: "Responda SIM, falou com {{user}}",
    });
    const schedule = () =>
      t.request("PUT", `/api/campaigns/${draft.id}`, {
        token: a.admin.token,
        body: { scheduledAt: t.clock.now().toISOString() },
      });
    const again = await schedule();
    assert.equal(again.status, 400);
    assert.equal((await again.json()).params.variable, "{{user}}");

    // Once the variable exists the campaign goes.
    await t.request("PUT", `/api/campaigns/${draft.id}`, {
      token: a.admin.token,
      body: { confirmationMessage1: "Responda SIM, {cupom}" },
    });
    assert.equal((await (await schedule()).json()).params.variable, "{cupom}");
    await saveSettings(t, a, { variables: [{ key: "cupom", value: "BLACK10" }] });
    const ok = await schedule();
    assert.equal(ok.status, 200, await ok.clone().text());
    assert.equal((await ok.json()).status, "PROGRAMADA");
    assert.deepEqual(await sentBy(t, a.admin.token, wid), []);
  } finally {
    await t.close();
  }
});
