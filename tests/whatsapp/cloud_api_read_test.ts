import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { eventually } from "../helpers/eventually.ts";
import { messagesPost } from "../fakes/graph.ts";
import { type CloudSetup, postWebhook, withCloud } from "./cloud_helpers.ts";

const ANA = "5511988887777";

const readReceipts = (s: CloudSetup) =>
  s.graph.requests.filter((r) => (r.body as { status?: string } | null)?.status === "read")
    .map((r) => r.body);

async function anaWrites(s: CloudSetup, id: string) {
  const at = Math.floor(s.t.clock.now().getTime() / 1000);
  const res = await postWebhook(
    s,
    messagesPost(s.graph.phoneNumberId, {
      contacts: [{ profile: { name: "Ana" }, wa_id: ANA }],
      messages: [{ from: ANA, id, timestamp: String(at), type: "text", text: { body: id } }],
    }),
  );
  assert.equal(res.status, 200);
  return await eventually(() =>
    s.t.deps.db.selectFrom("tickets").select(["id", "unreadMessages"])
      .where("companyId", "=", s.a.id).where("unreadMessages", ">", 0).executeTakeFirst()
  );
}

Deno.test("cloud read receipts - an attendant opening the chat marks the contact's last message read on Meta; a peek or another company does not", async () => {
  await withCloud(async (s) => {
    await anaWrites(s, "wamid.R1");
    const ticket = await anaWrites(s, "wamid.R2");
    // Another company cannot read the chat, so no receipt goes.
    const b = await createCompany(s.t, "Beta");
    const foreign = await s.t.request("GET", `/api/messages/${ticket.id}`, {
      token: b.admin.token,
    });
    assert.equal(foreign.status, 404);
    // A peek (the preview of a pending ticket) leaves it unread: no receipt either.
    const peek = await s.t.request("GET", `/api/messages/${ticket.id}?peek=true`, {
      token: s.a.admin.token,
    });
    assert.equal(peek.status, 200);
    assert.deepEqual(readReceipts(s), []);

    const opened = await s.t.request("GET", `/api/messages/${ticket.id}`, {
      token: s.a.admin.token,
    });
    assert.equal(opened.status, 200);
    const receipts = await eventually(() => {
      const found = readReceipts(s);
      return found.length > 0 ? found : undefined;
    }, { what: "the read receipt reached the Graph API" });
    assert.deepEqual(receipts, [{
      messaging_product: "whatsapp",
      status: "read",
      message_id: "wamid.R2",
    }]);
    const row = await s.t.deps.db.selectFrom("tickets").select("unreadMessages")
      .where("id", "=", ticket.id).executeTakeFirstOrThrow();
    assert.equal(row.unreadMessages, 0);
  });
});
