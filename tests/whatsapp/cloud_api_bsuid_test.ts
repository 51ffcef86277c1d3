import assert from "node:assert/strict";
import { eventually } from "../helpers/eventually.ts";
import { messagesPost } from "../fakes/graph.ts";
import { postWebhook, withCloud } from "./cloud_helpers.ts";

/**
 * Issue 45: a contact Meta names only by its business-scoped user id (no `from`, no `wa_id`)
 * still gets a contact and a ticket, and the attendant's answer goes to it in `recipient`.
 */
const BSUID = "BR.7kQ2cZ9xLmP4";

Deno.test("cloud BSUID - a contact without a phone number gets a contact and a ticket; the reply goes in recipient; its statuses become acks", async () => {
  await withCloud(async (s) => {
    const at = String(Math.floor(s.t.clock.now().getTime() / 1000));
    const res = await postWebhook(
      s,
      messagesPost(s.graph.phoneNumberId, {
        contacts: [{ profile: { name: "Duda", username: "duda" }, user_id: BSUID }],
        messages: [{
          from_user_id: BSUID,
          id: "wamid.B1",
          timestamp: at,
          type: "text",
          text: { body: "oi, sem número" },
        }],
      }),
    );
    assert.equal(res.status, 200);
    const stored = await eventually(
      () =>
        s.t.deps.db.selectFrom("messages").select(["ticketId", "contactId", "body"])
          .where("wid", "=", "wamid.B1").executeTakeFirst(),
      { what: "the message stored" },
    );
    assert.equal(stored.body, "oi, sem número");
    const contact = await s.t.deps.db.selectFrom("contacts").select(["name", "number", "lid"])
      .where("id", "=", stored.contactId!).executeTakeFirstOrThrow();
    assert.deepEqual(contact, { name: "Duda", number: BSUID, lid: BSUID });
    const list = await s.t.request("GET", "/api/tickets?status=pending", {
      token: s.a.admin.token,
    });
    const tickets = (await list.json()).tickets as { id: number }[];
    assert.ok(tickets.some((t) => t.id === stored.ticketId), "the ticket is in the list");

    const accepted = await s.t.request("PUT", `/api/tickets/${stored.ticketId}`, {
      token: s.a.admin.token,
      body: { action: "accept" },
    });
    assert.equal(accepted.status, 200);
    const sent = await s.t.request("POST", `/api/messages/${stored.ticketId}`, {
      token: s.a.admin.token,
      body: { body: "olá, Duda" },
    });
    assert.equal(sent.status, 201);
    const body = await eventually(
      () => s.graph.sends().find((b) => (b.text as { body?: string })?.body === "olá, Duda"),
      { what: "the reply sent" },
    );
    assert.equal(body.recipient, BSUID);
    assert.equal(body.to, undefined, "never in `to`, where Meta drops it");

    const ours = await eventually(async () => {
      const m = await s.t.deps.db.selectFrom("messages").select(["wid", "ack"])
        .where("fromMe", "=", 1).executeTakeFirst();
      return m?.ack === 1 ? m : undefined;
    }, { what: "our reply sent" });
    await postWebhook(
      s,
      messagesPost(s.graph.phoneNumberId, {
        statuses: [{ id: ours.wid, status: "read", timestamp: at, recipient_user_id: BSUID }],
      }),
    );
    await eventually(async () => {
      const m = await s.t.deps.db.selectFrom("messages").select("ack")
        .where("wid", "=", ours.wid).executeTakeFirstOrThrow();
      return m.ack === 3;
    }, { what: "read without a recipient number" });
  });
});
