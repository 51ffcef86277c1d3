import assert from "node:assert/strict";
import { createTestApp, twoCompanies } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { serve } from "../helpers/server.ts";
import { ticketRow } from "../helpers/tickets.ts";
import { FakePushService, PushDevice } from "../fakes/push_service.ts";
import { distributionTick } from "../../server/distribution/tick.ts";
import { pushCapture } from "../../server/push/capture.ts";
import { sendDuePushes } from "../../server/push/send.ts";
import { outgoingSettled, recoverOutgoing } from "../../server/events/outgoing.ts";
import type { PushPayload } from "../../contract/push_types.ts";
import { contacts, distributionScene, goOnline, newPending, served, userRow } from "./helpers.ts";

/**
 * Issue 50 item 17: the attendant a ticket is taken back from has closed their tab, so the socket
 * cannot tell them; their devices get a push (the new owner, online, hears the socket's bell:
 * the second test below). Against the fake push service, decrypted with the device's own keys.
 */
Deno.test("taken back - the attendant offline is pushed where the ticket went (to them only, once); the note is closed", async () => {
  const service = new FakePushService();
  const t = await createTestApp({ INTEGRATIONS_ALLOW_PRIVATE_URLS: "true" });
  const s = serve(t);
  try {
    const { a, b } = await twoCompanies(t);
    const { queueId, attendants } = await distributionScene(t, a, {
      distribution: "round_robin",
      attendants: 2,
    });
    const [away, stays] = attendants;
    const subscribe = async (token: string, language: string) => {
      const device = new PushDevice(service);
      const res = await t.request("POST", "/api/push/subscriptions", {
        token,
        body: { ...device.subscription(), language },
      });
      assert.equal(res.status, 201, await res.clone().text());
      return device;
    };
    const awayPhone = await subscribe(away.token, "pt");
    const staysPhone = await subscribe(stays.token, "en");
    const foreign = await subscribe(b.admin.token, "pt");

    const awaySocket = await goOnline(t, s.wsUrl, away);
    const [contactId] = await contacts(t, a.id, 1);
    const ticket = await newPending(t, a.admin.token, contactId, queueId);
    await eventually(async () => (await ticketRow(t, ticket.id)).userId === away.id);
    await awaySocket.close();
    await eventually(async () => (await userRow(t, away.id)).online === 0);
    const staysSocket = await goOnline(t, s.wsUrl, stays);
    const flush = async () => {
      await t.deps.afterAnswer.drain();
      await outgoingSettled(t.deps.events);
      await pushCapture(t.deps.events)!.idle();
      await sendDuePushes(t.deps);
    };
    await flush();
    const before = service.received.length;

    t.clock.advance(11 * 60_000);
    await distributionTick(t.deps);
    await flush();
    assert.equal((await ticketRow(t, ticket.id)).userId, stays.id);
    const pushed = awayPhone.received<PushPayload>().slice(-1)[0];
    assert.deepEqual(pushed, {
      kind: "transfer",
      title: "Repassado enquanto você estava offline: Cliente 0",
      body: "Agora com Atendente q 2",
      url: "/tickets",
      tag: `ticket-${ticket.id}`,
    });
    // Nobody else hears of the take-back by a push (the new owner has the bell), and no other
    // company's device.
    assert.ok(
      !staysPhone.received<PushPayload>().some((p) => p.title.includes("offline")),
      "the new owner is not pushed the attendant's notice",
    );
    assert.deepEqual(foreign.received(), []);
    const told = await t.deps.db.selectFrom("outgoing_events").select("capturedAt")
      .where("companyId", "=", a.id).where("event", "=", "ticket.takenBack").execute();
    assert.equal(told.length, 1);
    assert.notEqual(told[0].capturedAt, null, "the note closed by the live path");

    // A second tick takes nothing more and pushes nothing more.
    const sent = service.received.length;
    assert.ok(sent > before);
    await distributionTick(t.deps);
    await flush();
    assert.equal(service.received.length, sent);

    // The database as a process leaves it when it dies between the take-back's commit and the
    // push's queueing: the note open, no delivery. The `outgoing` job reads the take-back back
    // from its notice and pushes it.
    await t.deps.db.updateTable("outgoing_events").set({ capturedAt: null })
      .where("companyId", "=", a.id).where("event", "=", "ticket.takenBack").execute();
    await t.deps.db.deleteFrom("push_deliveries").where("companyId", "=", a.id)
      .where("eventKey", "like", "takenBack:%").execute();
    t.clock.advance(t.deps.config.outgoingGraceMs + 1000);
    assert.ok(await recoverOutgoing(t.deps) >= 1);
    await flush();
    assert.deepEqual(awayPhone.received<PushPayload>().slice(-2), [pushed, pushed]);
    await staysSocket.close();
  } finally {
    t.deps.hub.closeAll();
    await s.close();
    await t.close();
    await service.close();
  }
});

Deno.test("taken back - an attendant offline past the setting's minutes loses untouched tickets to someone online", () =>
  served(async (t, wsUrl) => {
    const { a, b } = await twoCompanies(t);
    const { queueId, attendants } = await distributionScene(t, a, {
      distribution: "round_robin",
      attendants: 2,
    });
    const [away, stays] = attendants;
    const [c1, c2] = await contacts(t, a.id, 2);
    const awaySocket = await goOnline(t, wsUrl, away);
    const untouched = await newPending(t, a.admin.token, c1, queueId);
    await eventually(async () => (await ticketRow(t, untouched.id)).userId === away.id);
    const answered = await newPending(t, a.admin.token, c2, queueId);
    await eventually(async () => (await ticketRow(t, answered.id)).userId === away.id);
    // The attendant answers one of them before leaving.
    await t.deps.db.insertInto("messages").values({
      companyId: a.id,
      ticketId: answered.id,
      contactId: null,
      whatsappId: null,
      wid: null,
      remoteJid: null,
      participant: null,
      body: "Olá!",
      fromMe: 1,
      read: 1,
      mediaType: null,
      mediaUrl: null,
      mediaName: null,
      quotedMsgId: null,
      dataJson: null,
      createdAt: t.clock.now().toISOString(),
      updatedAt: t.clock.now().toISOString(),
    }).execute();
    await awaySocket.close();
    await eventually(async () =>
      (await t.deps.db.selectFrom("users").select("online").where("id", "=", away.id)
        .executeTakeFirstOrThrow()).online === 0
    );
    const staysSocket = await goOnline(t, wsUrl, stays);
    // Not yet past the default 10 minutes: nothing moves.
    t.clock.advance(9 * 60_000);
    await distributionTick(t.deps);
    assert.equal((await ticketRow(t, untouched.id)).userId, away.id);
    t.clock.advance(2 * 60_000);
    await distributionTick(t.deps);
    await t.deps.afterAnswer.drain();
    assert.equal((await ticketRow(t, untouched.id)).userId, stays.id);
    // The answered one stays with its attendant.
    assert.equal((await ticketRow(t, answered.id)).userId, away.id);
    // Issue 50 item 17: who got it hears from whom (the bell) ...
    const given = await staysSocket.next((e) => e.event === `company-${a.id}-ticketTakenBack`);
    const data = given.data as { action: string; ticket: { id: number }; fromName: string };
    assert.deepEqual([data.action, data.ticket.id, data.fromName], [
      "given",
      untouched.id,
      "Atendente q 1",
    ]);
    // ... and the attendant, back, reads where it went until they close the notice.
    const read = async (token: string) =>
      await (await t.request("GET", "/api/tickets/taken-back", { token })).json();
    // The session counts them, so the shell asks for the list only when there are some.
    const unseen = async (token: string) =>
      (await (await t.request("GET", "/api/auth/me", { token })).json()).takenBack;
    assert.deepEqual(
      [await unseen(away.token), await unseen(stays.token), await unseen(b.admin.token)],
      [1, 0, 0],
    );
    const [notice, ...more] = await read(away.token);
    assert.deepEqual(more, []);
    assert.equal(notice.ticketId, untouched.id);
    assert.equal(notice.contactName, "Cliente 0");
    assert.equal(notice.toUserName, "Atendente q 2");
    assert.deepEqual(await read(stays.token), []);
    assert.deepEqual(await read(b.admin.token), []);
    const closed = await t.request("POST", "/api/tickets/taken-back/seen", { token: away.token });
    assert.deepEqual([closed.status, await closed.json()], [200, { closed: 1 }]);
    assert.deepEqual(await read(away.token), []);
    assert.equal(await unseen(away.token), 0);
    // A second tick finds nothing more to take or to tell.
    await distributionTick(t.deps);
    assert.equal(
      (await t.deps.db.selectFrom("taken_back_notices").selectAll().execute()).length,
      1,
    );
    await staysSocket.close();
  }));
