import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { addContact, addTicket } from "../helpers/tickets.ts";
import { messagesPost } from "../fakes/graph.ts";
import { type CloudSetup, postWebhook, withCloud } from "./cloud_helpers.ts";
import { connectSimulator } from "./helpers.ts";

/** Issue 45: reactions in (shown on the message, removable) and out (Graph `type: reaction`). */
const ANA = "5511988887777";

async function inbound(s: CloudSetup, message: Record<string, unknown>) {
  const at = String(Math.floor(s.t.clock.now().getTime() / 1000));
  const res = await postWebhook(
    s,
    messagesPost(s.graph.phoneNumberId, {
      contacts: [{ profile: { name: "Ana" }, wa_id: ANA }],
      messages: [{ from: ANA, timestamp: at, ...message }],
    }),
  );
  assert.equal(res.status, 200);
}

const row = (s: CloudSetup, wid: string) =>
  s.t.deps.db.selectFrom("messages").select(["id", "ticketId", "reaction", "ownReaction"])
    .where("wid", "=", wid).executeTakeFirst();

Deno.test("cloud reactions - the contact's reaction and its removal show on the message (no message of their own); the attendant's goes as type reaction", async () => {
  await withCloud(async (s) => {
    await inbound(s, { id: "wamid.IN", type: "text", text: { body: "oi" } });
    const first = await eventually(() => row(s, "wamid.IN"), { what: "the text stored" });
    const token = s.a.admin.token;
    assert.equal(
      (await s.t.request("PUT", `/api/tickets/${first.ticketId}`, {
        token,
        body: { action: "accept" },
      })).status,
      200,
    );
    const sent = await s.t.request("POST", `/api/messages/${first.ticketId}`, {
      token,
      body: { body: "olá, Ana" },
    });
    assert.equal(sent.status, 201);
    const ours = await eventually(async () => {
      const m = await s.t.deps.db.selectFrom("messages").select(["id", "wid"])
        .where("fromMe", "=", 1).where("ack", ">=", 1).executeTakeFirst();
      return m?.wid ? m : undefined;
    }, { what: "our text sent" });
    const count = async () =>
      (await s.t.deps.db.selectFrom("messages").select("id").execute()).length;
    const before = await count();

    await inbound(s, {
      id: "wamid.R1",
      type: "reaction",
      reaction: { message_id: ours.wid, emoji: "❤️" },
    });
    await eventually(async () => (await row(s, ours.wid!))?.reaction === "❤️", {
      what: "the reaction on our message",
    });
    assert.equal(await count(), before, "a reaction is not a message");
    const page = await (await s.t.request("GET", `/api/messages/${first.ticketId}`, { token }))
      .json();
    const shown = page.messages.find((m: { id: number }) => m.id === ours.id);
    assert.equal(shown.reaction, "❤️");

    // Removed: Meta sends the reaction without an emoji.
    await inbound(s, { id: "wamid.R2", type: "reaction", reaction: { message_id: ours.wid } });
    await eventually(async () => (await row(s, ours.wid!))?.reaction === null, {
      what: "the reaction removed",
    });

    // The attendant reacts to the contact's message, then takes it back.
    const react = await s.t.request("POST", `/api/messages/${first.id}/reaction`, {
      token,
      body: { emoji: "👍" },
    });
    assert.equal(react.status, 200, await react.clone().text());
    assert.equal((await react.json()).ownReaction, "👍");
    // Through the outbox: sent once the worker takes it.
    const reactionsSent = () => s.graph.sends().filter((b) => b.type === "reaction");
    const out = await eventually(() => reactionsSent().length === 1 ? reactionsSent() : undefined, {
      what: "the reaction sent",
    });
    assert.deepEqual(out.at(-1)?.reaction, { message_id: "wamid.IN", emoji: "👍" });
    assert.equal(out.at(-1)?.to, ANA);
    const undo = await s.t.request("POST", `/api/messages/${first.id}/reaction`, {
      token,
      body: { emoji: "" },
    });
    assert.equal((await undo.json()).ownReaction, null);
    await eventually(() => reactionsSent().length === 2, { what: "the removal sent" });
    assert.deepEqual(s.graph.sends().at(-1)?.reaction, { message_id: "wamid.IN", emoji: "" });

    // Meta refuses one for good: the message shows what it showed before (nothing).
    s.graph.failNext({ code: 131026, message: "Message undeliverable" });
    const refused = await s.t.request("POST", `/api/messages/${first.id}/reaction`, {
      token,
      body: { emoji: "😮" },
    });
    assert.equal((await refused.json()).ownReaction, "😮", "shown while it is sent");
    await eventually(async () => (await row(s, "wamid.IN"))?.ownReaction === null, {
      what: "the refused reaction taken back",
    });
    assert.equal(reactionsSent().length, 3, "tried once: a refused reaction is not retried");

    // Another company cannot react to it.
    const b = await createCompany(s.t, "Beta");
    const foreign = await s.t.request("POST", `/api/messages/${first.id}/reaction`, {
      token: b.admin.token,
      body: { emoji: "👍" },
    });
    assert.equal(foreign.status, 404);
  });
});

Deno.test("cloud reactions - a channel without the reactions capability refuses (ERR_WHATSAPP_NO_REACTIONS) and sends nothing", async () => {
  await withCloud(async (s) => {
    const simulator = await connectSimulator(s.t, s.a);
    const contact = await addContact(s.t, s.a.id, "Caio", "5511955554444");
    const ticket = await addTicket(s.t, s.a.id, {
      contactId: contact,
      whatsappId: simulator,
      status: "open",
      userId: s.a.admin.id,
    });
    const stamp = s.t.clock.now().toISOString();
    const message = await s.t.deps.db.insertInto("messages").values({
      companyId: s.a.id,
      ticketId: ticket.id,
      contactId: contact,
      whatsappId: simulator,
      wid: "SIM1",
      remoteJid: null,
      participant: null,
      body: "oi",
      fromMe: 0,
      read: 1,
      mediaType: null,
      mediaUrl: null,
      mediaName: null,
      quotedMsgId: null,
      dataJson: null,
      createdAt: stamp,
      updatedAt: stamp,
    }).returning("id").executeTakeFirstOrThrow();
    const res = await s.t.request("POST", `/api/messages/${message.id}/reaction`, {
      token: s.a.admin.token,
      body: { emoji: "👍" },
    });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).error, "ERR_WHATSAPP_NO_REACTIONS");
    assert.equal(s.graph.sends().length, 0);
  });
});
