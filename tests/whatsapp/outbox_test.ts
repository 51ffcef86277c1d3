import assert from "node:assert/strict";
import { createApp } from "../../server/app.ts";
import { buildDeps, closeDeps } from "../../server/deps.ts";
import { saveMedia } from "../../server/media/store.ts";
import {
  checkNumber,
  deleteForEveryone,
  queueOutgoing,
} from "../../server/whatsapp/outbox/outbox.ts";
import { createCompany, createTestApp, type TestApp, withApp } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { connectSimulator, phoneSends, sentBy } from "./helpers.ts";

const FROM = "5511976543210";

async function setup(t: TestApp) {
  t.deps.simulator.ackDelayMs = 5;
  const a = await createCompany(t, "Alpha");
  const wid = await connectSimulator(t, a);
  const got = await phoneSends(t, a.user.token, wid, { from: FROM, name: "Lia", body: "oi" });
  return { a, wid, ticketId: got.ticketId!, inboundId: got.id! };
}

async function rejects(promise: Promise<unknown>, code: string) {
  await assert.rejects(promise, (error: { code?: string }) => {
    assert.equal(error.code, code);
    return true;
  });
}

Deno.test("outbox - text, reply, media and voice note reach the phone; acks climb to 3", async () => {
  await withApp(async (t) => {
    const { a, wid, ticketId, inboundId } = await setup(t);
    const text = await queueOutgoing(t.deps, { companyId: a.id, ticketId, body: "Olá, Lia" });
    assert.equal(text.fromMe, true);
    assert.equal(text.ack, 0);
    const reply = await queueOutgoing(t.deps, {
      companyId: a.id,
      ticketId,
      body: "respondendo",
      quotedMsgId: inboundId,
    });
    assert.equal(reply.quotedMsg?.id, inboundId);
    const doc = await saveMedia(t.config, a.id, new TextEncoder().encode("%PDF-1"), {
      mimetype: "application/pdf",
      filename: "proposta.pdf",
    });
    const media = await queueOutgoing(t.deps, {
      companyId: a.id,
      ticketId,
      body: "segue",
      media: { path: doc.path, mimetype: doc.mimetype, filename: doc.filename },
    });
    assert.equal(media.mediaType, "application");
    assert.equal(media.mediaUrl, `/api/messages/${media.id}/media`);
    const voice = await saveMedia(t.config, a.id, new Uint8Array(12000), {
      mimetype: "audio/ogg",
      filename: "audio.ogg",
    });
    const ptt = await queueOutgoing(t.deps, {
      companyId: a.id,
      ticketId,
      body: "",
      media: { path: voice.path, mimetype: voice.mimetype, filename: voice.filename, ptt: true },
    });
    assert.equal(ptt.mediaType, "audio");

    const sent = await eventually(async () => {
      const s = await sentBy(t, a.user.token, wid);
      return s.length === 4 && s.every((x) => x.ack === 3) ? s : undefined;
    });
    const inbound = await t.deps.db.selectFrom("messages").select("wid").where("id", "=", inboundId)
      .executeTakeFirstOrThrow();
    assert.deepEqual(sent.map((s) => [s.to, s.body]), [
      [FROM, "Olá, Lia"],
      [FROM, "respondendo"],
      [FROM, "segue"],
      [FROM, ""],
    ]);
    assert.equal(sent[1].quotedId, inbound.wid);
    assert.deepEqual(sent[2].media, {
      mimetype: "application/pdf",
      filename: "proposta.pdf",
      size: 6,
      ptt: false,
    });
    assert.equal(sent[3].media?.ptt, true);
    const rows = await eventually(async () => {
      const r = await t.deps.db.selectFrom("messages").selectAll()
        .where("id", "in", [text.id, reply.id, media.id, ptt.id]).orderBy("id").execute();
      return r.every((m) => m.ack === 3) ? r : undefined;
    });
    assert.deepEqual(rows.map((r) => r.wid), sent.map((s) => s.id));
    const outbox = await t.deps.db.selectFrom("outbox").select(["status", "attempts"]).execute();
    assert.ok(outbox.every((o) => o.status === "sent" && o.attempts === 1));
    const ticket = await t.deps.db.selectFrom("tickets").select("lastMessage").where(
      "id",
      "=",
      ticketId,
    )
      .executeTakeFirstOrThrow();
    assert.equal(ticket.lastMessage, "audio.ogg");
  });
});

Deno.test("outbox - accepted while offline, sent on reconnect; ERR_WAPP_NOT_INITIALIZED without a connection", async () => {
  await withApp(async (t) => {
    const { a, wid, ticketId } = await setup(t);
    await t.deps.sessions.disconnect(a.id, wid);
    const queued = await queueOutgoing(t.deps, { companyId: a.id, ticketId, body: "volto já" });
    await t.deps.sessions.outbox.idle();
    assert.equal((await sentBy(t, a.user.token, wid)).length, 0);
    const pending = await t.deps.db.selectFrom("outbox").select("status").executeTakeFirstOrThrow();
    assert.equal(pending.status, "pending");

    await t.deps.sessions.start(a.id, wid);
    await t.request("POST", `/api/simulator/${wid}/scan`, { token: a.admin.token });
    const sent = await eventually(async () => {
      const s = await sentBy(t, a.user.token, wid);
      return s.length === 1 ? s : undefined;
    });
    assert.equal(sent[0].body, "volto já");
    const row = await eventually(async () => {
      const m = await t.deps.db.selectFrom("messages").selectAll().where("id", "=", queued.id)
        .executeTakeFirstOrThrow();
      return m.ack >= 1 ? m : undefined;
    });
    assert.equal(row.wid, sent[0].id);

    // a ticket whose connection is gone cannot send
    await t.deps.db.updateTable("tickets").set({ whatsappId: null }).where("id", "=", ticketId)
      .execute();
    await rejects(
      queueOutgoing(t.deps, { companyId: a.id, ticketId, body: "x" }),
      "ERR_WAPP_NOT_INITIALIZED",
    );
    await rejects(
      queueOutgoing(t.deps, { companyId: a.id, ticketId: 999, body: "x" }),
      "ERR_NO_TICKET_FOUND",
    );
    await rejects(
      queueOutgoing(t.deps, { companyId: a.id, ticketId, body: "  " }),
      "ERR_VALIDATION",
    );
  });
});

Deno.test("outbox - a permanent failure marks the message ERR_SENDING_WAPP_MSG; transient ones retry", async () => {
  await withApp(async (t) => {
    const { a, wid, ticketId } = await setup(t);
    t.deps.sessions.outbox.retryBaseMs = 5;
    // a contact whose number is not a WhatsApp identity: the simulator refuses for good
    const ticket = await t.deps.db.selectFrom("tickets").select("contactId").where(
      "id",
      "=",
      ticketId,
    )
      .executeTakeFirstOrThrow();
    await t.deps.db.updateTable("contacts").set({ number: "12ab" }).where(
      "id",
      "=",
      ticket.contactId,
    )
      .execute();
    const failed = await queueOutgoing(t.deps, { companyId: a.id, ticketId, body: "não vai" });
    const row = await eventually(async () => {
      const m = await t.deps.db.selectFrom("messages").selectAll().where("id", "=", failed.id)
        .executeTakeFirstOrThrow();
      return m.sendError ? m : undefined;
    });
    assert.equal(row.sendError, "ERR_SENDING_WAPP_MSG");
    assert.equal(row.ack, 0);
    const outbox = await t.deps.db.selectFrom("outbox").selectAll().where(
      "messageId",
      "=",
      failed.id,
    )
      .executeTakeFirstOrThrow();
    assert.equal(outbox.status, "failed");
    assert.equal(outbox.attempts, 1);

    // transient: the first two attempts throw, the third goes through
    await t.deps.db.updateTable("contacts").set({ number: FROM }).where("id", "=", ticket.contactId)
      .execute();
    const provider = t.deps.simulator.phone(wid)!;
    const original = provider.sendText.bind(provider);
    let calls = 0;
    provider.sendText = (to, text, options) => {
      calls++;
      return calls <= 2 ? Promise.reject(new Error("socket hiccup")) : original(to, text, options);
    };
    const retried = await queueOutgoing(t.deps, { companyId: a.id, ticketId, body: "insisto" });
    const sent = await eventually(async () => {
      const o = await t.deps.db.selectFrom("outbox").selectAll().where("messageId", "=", retried.id)
        .executeTakeFirstOrThrow();
      return o.status === "sent" ? o : undefined;
    });
    assert.equal(sent.attempts, 3);
    const phone = await sentBy(t, a.user.token, wid);
    assert.deepEqual(phone.map((s) => s.body), ["insisto"]);
  });
});

Deno.test("outbox - delete for everyone: a queued message is never sent, a sent one is revoked", async () => {
  await withApp(async (t) => {
    const { a, wid, ticketId } = await setup(t);
    const sentMsg = await queueOutgoing(t.deps, { companyId: a.id, ticketId, body: "ops" });
    await eventually(async () => (await sentBy(t, a.user.token, wid)).length === 1);
    await t.deps.sessions.outbox.idle();
    const deleted = await deleteForEveryone(t.deps, a.id, sentMsg.id);
    assert.equal(deleted.isDeleted, true);
    const phone = await sentBy(t, a.user.token, wid);
    assert.equal(phone[0].deleted, true);

    await t.deps.sessions.remove(a.id, wid, false); // offline: the next one waits in the outbox
    const queued = await queueOutgoing(t.deps, { companyId: a.id, ticketId, body: "rascunho" });
    const cancelled = await deleteForEveryone(t.deps, a.id, queued.id);
    assert.equal(cancelled.isDeleted, true);
    const row = await t.deps.db.selectFrom("outbox").select("status").where(
      "messageId",
      "=",
      queued.id,
    )
      .executeTakeFirstOrThrow();
    assert.equal(row.status, "cancelled");
    await t.deps.sessions.start(a.id, wid);
    await t.deps.sessions.outbox.idle();
    assert.equal((await sentBy(t, a.user.token, wid)).length, 1);

    // offline and already sent: ERR_DELETE_WAPP_MSG, and the message stays
    const other = await queueOutgoing(t.deps, { companyId: a.id, ticketId, body: "fica" });
    await eventually(async () => (await sentBy(t, a.user.token, wid)).length === 2);
    await t.deps.sessions.outbox.idle();
    await t.deps.sessions.remove(a.id, wid, false);
    await rejects(deleteForEveryone(t.deps, a.id, other.id), "ERR_DELETE_WAPP_MSG");
    await rejects(deleteForEveryone(t.deps, a.id + 1000, other.id), "ERR_NO_MESSAGE_FOUND");
    const kept = await t.deps.db.selectFrom("messages").select("isDeleted").where(
      "id",
      "=",
      other.id,
    )
      .executeTakeFirstOrThrow();
    assert.equal(kept.isDeleted, 0);
  });
});

Deno.test("outbox - checkNumber answers the connection's view of a number", async () => {
  await withApp(async (t) => {
    const { a, wid } = await setup(t);
    const ok = await checkNumber(t.deps, a.id, "+55 (11) 91234-5678");
    assert.deepEqual(ok, {
      number: "5511912345678",
      jid: "5511912345678@s.whatsapp.net",
      whatsappId: wid,
    });
    await rejects(checkNumber(t.deps, a.id, "123"), "ERR_WAPP_INVALID_CONTACT");
    await rejects(checkNumber(t.deps, a.id, "123456789"), "ERR_WAPP_INVALID_CONTACT"); // not on WhatsApp
    await rejects(checkNumber(t.deps, a.id, "5511912345678", 999), "ERR_NO_WAPP_FOUND");
    await t.deps.sessions.remove(a.id, wid, false);
    await rejects(checkNumber(t.deps, a.id, "5511912345678"), "ERR_WAPP_NOT_INITIALIZED");
    const b = await createCompany(t, "Beta");
    await rejects(checkNumber(t.deps, b.id, "5511912345678"), "ERR_NO_DEF_WAPP_FOUND");
  });
});

/** Rebuilds the whole app on the same DATA_DIR, as a process restart does. */
async function restart(t: TestApp) {
  await closeDeps(t.deps);
  const { deps } = await buildDeps(t.config, t.clock);
  deps.simulator.ackDelayMs = 5;
  const app = createApp(deps);
  return {
    deps,
    sent: async (token: string, wid: number) => {
      const res = await app.request(`/api/simulator/${wid}/sent`, {
        headers: { authorization: `Bearer ${token}` },
      });
      return (await res.json()).sent as { id: string; body: string }[];
    },
  };
}

Deno.test("outbox - a restart in the middle of sending sends each message exactly once", async () => {
  const t = await createTestApp();
  let second: Awaited<ReturnType<typeof restart>> | undefined;
  try {
    const { a, wid, ticketId } = await setup(t);
    // offline, so that the test decides what the crash left behind
    await t.deps.sessions.remove(a.id, wid, false);
    const queued = [];
    for (let i = 0; i < 6; i++) {
      queued.push(await queueOutgoing(t.deps, { companyId: a.id, ticketId, body: `msg ${i}` }));
    }
    const rows = await t.deps.db.selectFrom("outbox").selectAll().orderBy("id").execute();
    const now = t.clock.now().toISOString();
    // The crash: rows 0-1 had reached the phone but were not marked sent; row 2 was claimed but
    // never reached it; rows 3-5 were still waiting.
    for (const row of rows.slice(0, 2)) {
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
        createdAt: now,
        updatedAt: now,
      }).execute();
    }
    await t.deps.db.updateTable("outbox").set({ status: "sending", claimId: "dead-process" })
      .where("id", "in", rows.slice(0, 3).map((r) => r.id)).execute();

    second = await restart(t);
    await second.deps.sessions.restoreAll();
    const sent = await eventually(async () => {
      const s = await second!.sent(a.user.token, wid);
      return s.length >= 6 ? s : undefined;
    });
    await second.deps.sessions.outbox.idle();
    const final = await second.sent(a.user.token, wid);
    assert.deepEqual(final.map((s) => s.body), queued.map((_, i) => `msg ${i}`));
    assert.equal(new Set(sent.map((s) => s.id)).size, 6);
    const outbox = await second.deps.db.selectFrom("outbox").select(["status", "wid"]).orderBy("id")
      .execute();
    assert.ok(outbox.every((o) => o.status === "sent"));
    const messages = await second.deps.db.selectFrom("messages").select(["wid", "ack"])
      .where("id", "in", queued.map((q) => q.id)).orderBy("id").execute();
    assert.deepEqual(messages.map((m) => m.wid), final.map((s) => s.id));
    assert.ok(messages.every((m) => m.ack >= 1));
  } finally {
    if (second) await closeDeps(second.deps);
    else await closeDeps(t.deps);
    await Deno.remove(t.dir, { recursive: true }).catch(() => {});
  }
});

Deno.test("outbox - stopping while sending, then restarting, still sends each message once", async () => {
  const t = await createTestApp();
  let second: Awaited<ReturnType<typeof restart>> | undefined;
  try {
    const { a, wid, ticketId } = await setup(t);
    for (let i = 0; i < 30; i++) {
      await queueOutgoing(t.deps, { companyId: a.id, ticketId, body: `n${i}` });
    }
    // stop right away: some were sent, one may be in flight, the rest wait
    second = await restart(t);
    await second.deps.sessions.restoreAll();
    const final = await eventually(async () => {
      const s = await second!.sent(a.user.token, wid);
      return s.length >= 30 ? s : undefined;
    });
    await second.deps.sessions.outbox.idle();
    const again = await second.sent(a.user.token, wid);
    assert.equal(again.length, 30);
    assert.deepEqual(final.map((s) => s.body), Array.from({ length: 30 }, (_, i) => `n${i}`));
  } finally {
    if (second) await closeDeps(second.deps);
    else await closeDeps(t.deps);
    await Deno.remove(t.dir, { recursive: true }).catch(() => {});
  }
});
