import assert from "node:assert/strict";
import { addVariable, LONGER_INTERVALS, MESSAGE_INTERVALS } from "../../contract/campaign_rules.ts";
import { progressPercent } from "../../contract/campaign_types.ts";
import { bodyOf, emptyForm } from "../../islands/campaigns/form.ts";

Deno.test("campaign settings - a variable is added only if its key is not there yet", () => {
  const one = addVariable([], { key: " loja ", value: "Centro" });
  assert.deepEqual(one, [{ key: "loja", value: "Centro" }]);
  assert.equal(addVariable(one, { key: "loja", value: "Outra" }), one);
  assert.equal(addVariable(one, { key: "  ", value: "x" }), one);
  assert.deepEqual(MESSAGE_INTERVALS, [0, 5, 10, 15, 20]);
  assert.deepEqual(LONGER_INTERVALS, [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120]);
});

Deno.test("campaign report - progress is delivered over valid contacts, times 100", () => {
  const stats = { validContacts: 3, delivered: 1, confirmationRequested: 0, confirmed: 0 };
  assert.equal(progressPercent(stats), 33);
  assert.equal(progressPercent({ ...stats, delivered: 3 }), 100);
  assert.equal(progressPercent({ ...stats, validContacts: 0, delivered: 0 }), 0);
});

Deno.test("campaign dialog - empty strings go as null, the schedule as YYYY-MM-DD HH:mm:ss", () => {
  const form = { ...emptyForm(), name: " Promo ", message1: "Oi", scheduledAt: "2026-12-01T09:30" };
  const body = bodyOf(form, false);
  assert.equal(body.name, "Promo");
  assert.equal(body.message1, "Oi");
  assert.equal(body.message2, null);
  assert.equal(body.whatsappId, null);
  assert.equal(body.scheduledAt, "2026-12-01 09:30:00");
  assert.equal(bodyOf(emptyForm(), false).scheduledAt, null);
});
