import assert from "node:assert/strict";
import { eventually } from "../helpers/eventually.ts";
import { messagesPost } from "../fakes/graph.ts";
import { type CloudSetup, postWebhook, withCloud } from "./cloud_helpers.ts";
import { BACKOFF_BASE_MS } from "../../server/whatsapp/providers/cloud_api/provider.ts";

const ANA = "5511988887777";

async function openTicket(s: CloudSetup): Promise<number> {
  const at = Math.floor(s.t.clock.now().getTime() / 1000);
  const res = await postWebhook(
    s,
    messagesPost(s.graph.phoneNumberId, {
      messages: [{
        from: ANA,
        id: "wamid.IN",
        timestamp: String(at),
        type: "text",
        text: { body: "oi" },
      }],
    }),
  );
  assert.equal(res.status, 200);
  const ticket = await eventually(() =>
    s.t.deps.db.selectFrom("tickets").select("id").where("companyId", "=", s.a.id)
      .executeTakeFirst()
  );
  const accepted = await s.t.request("PUT", `/api/tickets/${ticket.id}`, {
    token: s.a.admin.token,
    body: { action: "accept" },
  });
  assert.equal(accepted.status, 200);
  return ticket.id;
}

async function send(s: CloudSetup, ticketId: number, body: string): Promise<number> {
  const res = await s.t.request("POST", `/api/messages/${ticketId}`, {
    token: s.a.admin.token,
    body: { body },
  });
  assert.equal(res.status, 201);
  return (await res.json()).messages[0].id;
}

const attemptsOf = (s: CloudSetup, text: string) =>
  s.graph.sends().filter((b) => (b.text as { body?: string } | undefined)?.body === text).length;

async function backoff(s: CloudSetup) {
  return await s.t.deps.db.selectFrom("whatsapp_cloud").select(["backoffUntil", "backoffLevel"])
    .where("whatsappId", "=", s.whatsappId).executeTakeFirstOrThrow();
}

Deno.test("cloud backoff - Meta's 429 pauses the whole number (state in the database, no attempt spent); after the pause both sends go and the state clears; a 5xx pauses too", async () => {
  await withCloud(async (s) => {
    const ticketId = await openTicket(s);
    const outbox = s.t.deps.sessions.outbox;
    outbox.retryBaseMs = 1;
    s.graph.failNext({ code: 130429, status: 429, message: "Rate limit hit" });
    const first = await send(s, ticketId, "primeira");
    const paused = await eventually(async () => {
      const row = await backoff(s);
      return row.backoffUntil ? row : undefined;
    }, { what: "the number paused in the database" });
    assert.equal(paused.backoffLevel, 1);
    assert.equal(
      paused.backoffUntil,
      new Date(s.t.clock.now().getTime() + BACKOFF_BASE_MS).toISOString(),
    );

    // While paused nothing of this number reaches Meta: not the retry, not a new message.
    const second = await send(s, ticketId, "segunda");
    s.t.deps.sessions.kickOutbox(s.whatsappId);
    await outbox.idle();
    assert.equal(attemptsOf(s, "primeira"), 1);
    assert.equal(attemptsOf(s, "segunda"), 0);
    const waiting = await s.t.deps.db.selectFrom("outbox").select(["messageId", "attempts"])
      .where("messageId", "in", [first, second]).orderBy("messageId").execute();
    assert.deepEqual(waiting.map((r) => r.attempts), [1, 0]);

    // The pause is over (the app's clock): both go, in order, and the number's state clears.
    s.t.clock.advance(BACKOFF_BASE_MS + 1);
    s.t.deps.sessions.kickOutbox(s.whatsappId);
    await eventually(async () => {
      const rows = await s.t.deps.db.selectFrom("messages").select("ack")
        .where("id", "in", [first, second]).execute();
      return rows.length === 2 && rows.every((r) => r.ack >= 1);
    }, { what: "both messages sent after the pause" });
    assert.equal(attemptsOf(s, "primeira"), 2);
    assert.equal(attemptsOf(s, "segunda"), 1);
    assert.deepEqual(await backoff(s), { backoffUntil: null, backoffLevel: 0 });

    // A 5xx of the Graph API pauses the number as well.
    s.graph.failNext({ code: 1, status: 503, message: "Service temporarily unavailable" });
    await send(s, ticketId, "terceira");
    await eventually(async () => (await backoff(s)).backoffLevel === 1, {
      what: "a 503 paused the number",
    });
  });
});
