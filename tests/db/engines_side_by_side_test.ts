import assert from "node:assert/strict";
import { sql } from "kysely";
import { createTestApp, type TestApp, twoCompanies } from "../helpers/app.ts";
import { addContact, addMessage, addTicket, scene } from "../helpers/tickets.ts";
import { testPostgresDatabase } from "../helpers/engine.ts";

// Issue 46: the same core flow on libSQL and on PostgreSQL gives the same observable results:
// the same search hits (accents ignored: `orcamento` finds `orçamento`), the same counters kept
// by triggers, the same timeline and report days.
const at = (minute: number) => new Date(Date.UTC(2026, 10, 10, 12, minute)).toISOString();

async function flow(t: TestApp) {
  const { a, b } = await twoCompanies(t);
  const s = await scene(t, a);
  const ana = await addContact(t, a.id, "Ana Conceição", "5511988887777");
  const ticket = await addTicket(t, a.id, {
    contactId: ana,
    whatsappId: s.whatsappId,
    queueId: s.q1,
    at: at(0),
  });
  await addMessage(t, a.id, { ticketId: ticket.id, body: "Preciso de um orçamento", at: at(1) });
  const other = await addTicket(t, a.id, { contactId: s.contactId, queueId: s.q1, at: at(2) });
  await addMessage(t, a.id, { ticketId: other.id, body: "Os boletos chegaram", at: at(3) });
  // Another company says the same word: never found by company A.
  const bScene = await scene(t, b);
  const bTicket = await addTicket(t, b.id, { contactId: bScene.contactId, at: at(4) });
  await addMessage(t, b.id, { ticketId: bTicket.id, body: "orçamento", at: at(4) });

  const put = async (token: string, body: Record<string, unknown>) => {
    const res = await t.request("PUT", `/api/tickets/${ticket.id}`, { token, body });
    assert.equal(res.status, 200, await res.clone().text());
  };
  t.clock.set(at(5));
  await put(a.user.token, { action: "accept" });
  await addMessage(t, a.id, {
    ticketId: ticket.id,
    body: "Segue o orçamento",
    fromMe: true,
    at: at(6),
  });
  t.clock.set(at(7));
  await put(a.admin.token, { action: "resolve" });

  const get = async (path: string) => {
    const res = await t.request("GET", path, { token: a.admin.token });
    assert.equal(res.status, 200, await res.clone().text());
    return await res.json();
  };
  const listed = await get(`/api/tickets?searchParam=orcamento&showAll=true&status=closed`);
  const inConversation = await get(`/api/messages/${ticket.id}/search?q=orcamento`);
  const contacts = await get(`/api/contacts?searchParam=conceicao`);
  const db = t.deps.db;
  const counts = await sql<{ status: string; n: number }>`SELECT status, sum(n) AS n
    FROM ticket_counts WHERE companyId = ${a.id} GROUP BY status ORDER BY status`.execute(db);
  const timeline = await sql<{ kind: string; seconds: number | null }>`SELECT kind, seconds
    FROM ticket_events WHERE companyId = ${a.id} AND ticketId = ${ticket.id}
    ORDER BY at, id`.execute(db);
  const days = await sql<{ day: string; created: number; resolved: number }>`
    SELECT day, sum(created) AS created, sum(resolved) AS resolved FROM report_days
    WHERE companyId = ${a.id} GROUP BY day ORDER BY day`.execute(db);
  return {
    listed: listed.tickets.map((x: { id: number }) => x.id === ticket.id),
    inConversation: inConversation.messages.map((m: { body: string }) => m.body),
    contacts: contacts.contacts.map((c: { name: string }) => c.name),
    counts: counts.rows.map((r) => ({ status: r.status, n: Number(r.n) })),
    timeline: timeline.rows,
    days: days.rows.map((r) => ({
      ...r,
      created: Number(r.created),
      resolved: Number(r.resolved),
    })),
  };
}

async function run(env: Record<string, string>) {
  const t = await createTestApp(env);
  try {
    return await flow(t);
  } finally {
    await t.close();
  }
}

Deno.test("engines side by side - the same flow gives the same answers on libSQL and PostgreSQL", async () => {
  const dir = await Deno.makeTempDir({ prefix: "balcao-test-" });
  const lite = await run({ DATA_DIR: dir, DATABASE_URL: `file:${dir}/balcao.db` });
  const postgres = await run({ DATABASE_URL: await testPostgresDatabase() });
  assert.deepEqual(lite.listed, [true], "the search lists the ticket whose message says orçamento");
  assert.deepEqual(lite.inConversation, ["Segue o orçamento", "Preciso de um orçamento"]);
  assert.deepEqual(lite.contacts, ["Ana Conceição"]);
  assert.deepEqual(
    lite.timeline.map((e) => e.kind),
    ["created", "queued", "accepted", "first_response", "resolved"],
  );
  assert.deepEqual(postgres, lite);
});
