import assert from "node:assert/strict";
import { ServerOnDisk } from "../helpers/server_on_disk.ts";
import { eventually } from "../helpers/eventually.ts";

/**
 * Issue 28: a real server process (main.ts) killed (SIGKILL, no goodbye) while it sends a
 * 50-message forward; started again on the same data, every message reaches the phone exactly
 * once. The forward is queued in one transaction (server/messages/forward.ts); the outbox sends
 * each row under the WhatsApp id chosen when it was queued, so a row interrupted mid-send is
 * sent again under the same id, which the simulator (like WhatsApp) recognises
 * (simulator_sent_wid): nothing lost, nothing doubled.
 */
const ADMIN = { email: "root@forward.test", password: "root-password" };
const COUNT = 50;
const ANA = "5511966665555";
const BOUND_MS = 60_000;

const sentToAna = (box: ServerOnDisk) =>
  box.query<{ wid: string; body: string; forwarded: number }>(
    "SELECT wid, body, forwarded FROM simulator_sent WHERE toJid = ? ORDER BY id",
    `${ANA}@s.whatsapp.net`,
  );

Deno.test("forward - SIGKILL during a 50-message forward: after the restart each message reached the phone exactly once", async () => {
  const box = await ServerOnDisk.make("forward-kill", ADMIN);
  try {
    await box.start();
    const token = await box.login();
    const whatsappId = await box.simulatorConnection(token);

    let ticketId = 0;
    for (let i = 1; i <= COUNT; i++) {
      const said = await box.call("POST", `/api/simulator/${whatsappId}/messages`, token, {
        from: "5511988887777",
        name: "Maria",
        body: `mensagem ${i}`,
      });
      assert.equal(said.status, 201, JSON.stringify(said.body));
      ticketId = said.body.ticketId;
    }
    assert.equal(
      (await box.call("PUT", `/api/tickets/${ticketId}`, token, { action: "accept" })).status,
      200,
    );
    const ana = await box.call("POST", "/api/contacts", token, { name: "Ana", number: ANA });
    assert.equal(ana.status, 201, JSON.stringify(ana.body));
    const messageIds = box.query<{ id: number }>(
      "SELECT id FROM messages WHERE ticketId = ? AND fromMe = 0 ORDER BY id",
      ticketId,
    ).map((m) => m.id);
    assert.equal(messageIds.length, COUNT);

    const forwarded = await box.call("POST", "/api/messages/forward", token, {
      messageIds,
      contactIds: [ana.body.id],
    });
    assert.equal(forwarded.status, 200, JSON.stringify(forwarded.body));
    assert.equal(forwarded.body.results[0].messages.length, COUNT);
    // Killed as soon as the phone has the first one, while the rest are being sent.
    await eventually(() => sentToAna(box).length > 0, {
      timeoutMs: BOUND_MS,
      what: "the first forwarded message reached the phone",
    });
    await box.kill();
    const atKill = sentToAna(box).length;
    const unsent = box.count(
      "SELECT count(*) AS n FROM outbox WHERE forwarded = 1 AND status <> 'sent'",
    );
    // A figure for the report: where the kill fell.
    // deno-lint-ignore no-console
    console.log(`killed with ${atKill} of ${COUNT} on the phone, ${unsent} outbox rows unsent`);
    assert.ok(unsent > 0, "killed while the forward was still being sent");

    await box.start();
    const phone = await eventually(() => {
      const rows = sentToAna(box);
      return rows.length >= COUNT ? rows : undefined;
    }, { timeoutMs: BOUND_MS, what: "every forwarded message on the phone after the restart" });
    await eventually(
      () =>
        box.count("SELECT count(*) AS n FROM outbox WHERE forwarded = 1 AND status <> 'sent'") ===
          0,
      { timeoutMs: BOUND_MS, what: "every outbox row marked sent" },
    );
    // Exactly once each, in the conversation's order, marked forwarded.
    const final = sentToAna(box);
    assert.equal(final.length, COUNT, "nothing doubled");
    assert.equal(new Set(final.map((m) => m.wid)).size, COUNT);
    assert.deepEqual(
      phone.map((m) => m.body),
      Array.from({ length: COUNT }, (_, i) => `mensagem ${i + 1}`),
    );
    assert.ok(final.every((m) => m.forwarded === 1));
    const stored = box.count(
      "SELECT count(*) AS n FROM messages WHERE isForwarded = 1 AND fromMe = 1 AND ack >= 1",
    );
    assert.equal(stored, COUNT, "every forwarded message stored once and sent");
  } finally {
    await box.dispose();
  }
});
