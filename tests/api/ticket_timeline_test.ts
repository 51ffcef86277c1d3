import assert from "node:assert/strict";
import { type TestApp, twoCompanies, withApp } from "../helpers/app.ts";
import { addMessage, addTicket, scene, setSetting } from "../helpers/tickets.ts";

/**
 * The tickets' timeline (issue 27 item 1, migration 0400): each change writes its fact in the
 * same statement, with the change's own time; a refused change writes nothing.
 */
async function timeline(t: TestApp, companyId: number, ticketId: number) {
  const rows = await t.deps.db.selectFrom("ticket_events")
    .select(["kind", "at", "userId", "queueId", "fromUserId", "fromQueueId", "seconds", "value"])
    .where("companyId", "=", companyId).where("ticketId", "=", ticketId)
    .orderBy("id").execute();
  return rows.map((r) =>
    `${r.kind} ${r.at.slice(11, 16)} u${r.userId ?? "-"} q${r.queueId ?? "-"}${
      r.seconds === null ? "" : ` ${r.seconds}s`
    }${r.value === null ? "" : ` =${r.value}`}`
  );
}

Deno.test("ticket timeline - created, bot hand-over, accepted, first response, transfer, resolved, reopened, rated, SLA", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    await setSetting(t, a.id, "sendGreetingAccepted", "disabled");
    await setSetting(t, a.id, "userRating", "disabled");
    t.clock.set("2026-11-10T12:00:00.000Z");
    const { id } = await addTicket(t, a.id, { contactId: s.contactId, whatsappId: s.whatsappId });
    // The menu bot holds it, answers (not a person's response), then puts it in queue 1.
    await t.deps.db.updateTable("tickets").set({ chatbot: 1 }).where("id", "=", id).execute();
    await addMessage(t, a.id, {
      ticketId: id,
      body: "Menu",
      fromMe: true,
      at: "2026-11-10T12:00:30.000Z",
    });
    await t.deps.db.updateTable("tickets").set({
      queueId: s.q1,
      updatedAt: "2026-11-10T12:01:00.000Z",
    }).where("id", "=", id).execute();
    const put = async (token: string, body: Record<string, unknown>, status = 200) => {
      const res = await t.request("PUT", `/api/tickets/${id}`, { token, body });
      assert.equal(res.status, status, await res.clone().text());
    };
    t.clock.set("2026-11-10T12:03:00.000Z");
    await put(a.user.token, { action: "accept" });
    await addMessage(t, a.id, {
      ticketId: id,
      body: "Olá",
      fromMe: true,
      at: "2026-11-10T12:04:00.000Z",
    });
    await addMessage(t, a.id, {
      ticketId: id,
      body: "Mais",
      fromMe: true,
      at: "2026-11-10T12:05:00.000Z",
    });
    // A refused change (reopening an open ticket) writes nothing.
    await put(a.user.token, { action: "reopen" }, 400);
    t.clock.set("2026-11-10T12:10:00.000Z");
    await put(a.admin.token, { action: "transfer", queueId: s.q2, userId: a.admin.id });
    await t.deps.db.updateTable("tickets").set({ slaBreachedAt: "2026-11-10T12:15:00.000Z" })
      .where("id", "=", id).execute();
    t.clock.set("2026-11-10T12:20:00.000Z");
    await put(a.admin.token, { action: "resolve" });
    t.clock.set("2026-11-10T13:00:00.000Z");
    await put(a.admin.token, { action: "reopen" });
    await addMessage(t, a.id, {
      ticketId: id,
      body: "De novo",
      fromMe: true,
      at: "2026-11-10T13:02:00.000Z",
    });
    t.clock.set("2026-11-10T13:30:00.000Z");
    await put(a.admin.token, { action: "resolve" });
    await t.deps.db.insertInto("user_ratings").values({
      companyId: a.id,
      ticketId: id,
      userId: a.admin.id,
      rate: 2,
      createdAt: "2026-11-10T13:31:00.000Z",
    }).execute();
    const u = a.user.id;
    const ad = a.admin.id;
    assert.deepEqual(await timeline(t, a.id, id), [
      "created 12:00 u- q-",
      "queued 12:01 u- q" + s.q1,
      `handover 12:03 u${u} q${s.q1}`,
      `accepted 12:03 u${u} q${s.q1} 120s`, // waited since it entered the queue
      `first_response 12:04 u${u} q${s.q1} 240s`, // since created; the bot's menu did not count
      `accepted 12:10 u${ad} q${s.q2}`, // from a person: not a wait
      `transfer 12:10 u${ad} q${s.q2}`,
      `queued 12:10 u${ad} q${s.q2}`,
      `sla_breached 12:15 u${ad} q${s.q2}`,
      `resolved 12:20 u${ad} q${s.q2} 1200s`,
      `accepted 13:00 u${ad} q${s.q2}`,
      `reopened 13:00 u${ad} q${s.q2}`,
      `first_response 13:02 u${ad} q${s.q2} 120s`, // a new cycle: since the reopening
      `resolved 13:30 u${ad} q${s.q2} 1800s`,
      `rated 13:31 u${ad} q${s.q2} =2`,
    ]);
  }));
