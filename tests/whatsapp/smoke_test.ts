import assert from "node:assert/strict";
import { createCompany, withApp } from "../helpers/app.ts";
import { queueOutgoing } from "../../server/whatsapp/outbox.ts";
import { connectSimulator, eventually, phoneSends, sentBy } from "./helpers.ts";

Deno.test("smoke - message in, reply out", async () => {
  await withApp(async (t) => {
    t.deps.simulator.ackDelayMs = 5;
    const a = await createCompany(t, "Alpha");
    const wid = await connectSimulator(t, a);
    const got = await phoneSends(t, a.user.token, wid, {
      from: "5511999990001",
      name: "Ana",
      body: "oi",
    });
    assert.equal(got.status, 201, JSON.stringify(got));
    const view = await queueOutgoing(t.deps, {
      companyId: a.id,
      ticketId: got.ticketId!,
      body: "olá",
    });
    assert.equal(view.ack, 0);
    const sent = await eventually(async () => {
      const s = await sentBy(t, a.user.token, wid);
      return s.length === 1 && s[0].ack === 3 ? s : undefined;
    });
    assert.equal(sent[0].body, "olá");
    const msg = await eventually(async () => {
      const m = await t.deps.db.selectFrom("messages").selectAll().where("id", "=", view.id)
        .executeTakeFirst();
      return m && m.ack === 3 ? m : undefined;
    });
    assert.equal(msg.wid, sent[0].id);
  });
});
