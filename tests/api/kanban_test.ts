import assert from "node:assert/strict";
import {
  createCompany,
  type TestApp,
  type TestCompany,
  twoCompanies,
  withApp,
} from "../helpers/app.ts";
import { sockets, withServedApp } from "../helpers/admin_fixtures.ts";
import { addContact, addTicket, scene } from "../helpers/tickets.ts";

async function call(t: TestApp, token: string, method: string, path: string, body?: unknown) {
  const res = await t.request(method, path, { token, body });
  return { status: res.status, body: res.status === 204 ? null : await res.json() };
}

async function kanbanTag(t: TestApp, c: TestCompany, name: string) {
  const res = await call(t, c.admin.token, "POST", "/api/tags", { name, kanban: true });
  assert.equal(res.status, 201);
  return res.body as { id: number };
}

const ids = (page: { tickets: { id: number }[] }) => page.tickets.map((x) => x.id);

Deno.test("kanban - lanes: 'Em aberto' without a kanban tag, one per kanban tag; the user's queues; paged", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    const lane = await kanbanTag(t, a, "Negociação");
    const plain = await call(t, a.admin.token, "POST", "/api/tags", { name: "VIP" });
    const inQ1 = await addTicket(t, a.id, {
      contactId: s.contactId,
      queueId: s.q1,
      status: "open",
    });
    const inQ2 = await addTicket(t, a.id, { contactId: s.contactId, queueId: s.q2 });
    const tagged = await addTicket(t, a.id, { contactId: s.contactId, queueId: s.q1 });
    await addTicket(t, a.id, { contactId: s.contactId, queueId: s.q1, status: "closed" });
    await call(t, a.admin.token, "POST", "/api/tags/sync", {
      ticketId: tagged.id,
      tags: [{ id: lane.id }, { id: plain.body.id }],
    });
    // A non-kanban tag leaves a ticket in 'Em aberto'.
    await call(t, a.admin.token, "POST", "/api/tags/sync", {
      ticketId: inQ1.id,
      tags: [{ id: plain.body.id }],
    });

    const open = await call(t, a.admin.token, "GET", "/api/ticket/kanban?lane=open");
    assert.equal(open.status, 200);
    assert.deepEqual(ids(open.body).sort(), [inQ1.id, inQ2.id].sort());
    const inLane = await call(t, a.admin.token, "GET", `/api/ticket/kanban?lane=${lane.id}`);
    assert.deepEqual(ids(inLane.body), [tagged.id]);
    const card = inLane.body.tickets[0];
    assert.deepEqual(
      [card.uuid, card.contact.name, card.contact.number],
      [tagged.uuid, "Maria Souza", "5511999990001"],
    );
    assert.deepEqual(card.tags.map((g: { name: string }) => g.name), ["Negociação", "VIP"]);
    // queueIds narrows; a user only ever gets their own queues (q1), whatever they ask.
    const q2Only = await call(t, a.admin.token, "GET", `/api/ticket/kanban?queueIds=[${s.q2}]`);
    assert.deepEqual(ids(q2Only.body), [inQ2.id]);
    const asUser = await call(t, a.user.token, "GET", `/api/ticket/kanban?queueIds=[${s.q2}]`);
    assert.deepEqual(ids(asUser.body), []);
    const userOpen = await call(t, a.user.token, "GET", "/api/ticket/kanban?lane=open");
    assert.deepEqual(ids(userOpen.body), [inQ1.id]);

    // Paged: 20 a page, hasMore until the last.
    for (let i = 0; i < 25; i++) {
      const contactId = await addContact(t, a.id, `Cliente ${i}`, `55119888800${10 + i}`);
      await addTicket(t, a.id, { contactId, queueId: s.q1 });
    }
    const first = await call(t, a.admin.token, "GET", "/api/ticket/kanban?lane=open");
    assert.deepEqual([first.body.tickets.length, first.body.count, first.body.hasMore], [
      20,
      27,
      true,
    ]);
    const second = await call(t, a.admin.token, "GET", "/api/ticket/kanban?lane=open&pageNumber=2");
    assert.deepEqual([second.body.tickets.length, second.body.hasMore], [7, false]);
    assert.equal(new Set([...ids(first.body), ...ids(second.body)]).size, 27);

    const bad = await call(t, a.admin.token, "GET", "/api/ticket/kanban?queueIds=abc");
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error, "ERR_VALIDATION");
  }));

Deno.test("kanban - a move is one transaction on its own route; the seeds' DELETE and PUT still work", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    const first = await kanbanTag(t, a, "Proposta");
    const second = await kanbanTag(t, a, "Fechamento");
    const ticket = await addTicket(t, a.id, { contactId: s.contactId, queueId: s.q1 });
    const tagsOf = async () =>
      (await t.deps.db.selectFrom("ticket_tags").select("tagId").where("ticketId", "=", ticket.id)
        .orderBy("tagId").execute()).map((r) => r.tagId);

    const moved = await call(t, a.admin.token, "POST", `/api/ticket-tags/${ticket.id}/move`, {
      tagId: first.id,
    });
    assert.equal(moved.status, 200);
    assert.deepEqual(moved.body.tags.map((g: { id: number }) => g.id), [first.id]);
    await call(t, a.admin.token, "POST", `/api/ticket-tags/${ticket.id}/move`, {
      tagId: second.id,
    });
    assert.deepEqual(await tagsOf(), [second.id]);
    // A tag that does not exist: 404 and the ticket keeps its lane (nothing half-written).
    const missing = await call(t, a.admin.token, "POST", `/api/ticket-tags/${ticket.id}/move`, {
      tagId: 999_999,
    });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, "ERR_NO_TAG_FOUND");
    assert.deepEqual(await tagsOf(), [second.id]);
    const back = await call(t, a.admin.token, "POST", `/api/ticket-tags/${ticket.id}/move`, {
      tagId: null,
    });
    assert.deepEqual(back.body.tags, []);

    // The seeds' pair: DELETE removes the kanban tags (others stay), PUT adds one.
    const vip = (await call(t, a.admin.token, "POST", "/api/tags", { name: "VIP" })).body;
    await call(t, a.admin.token, "POST", "/api/tags/sync", {
      ticketId: ticket.id,
      tags: [{ id: vip.id }, { id: first.id }],
    });
    const removed = await call(t, a.admin.token, "DELETE", `/api/ticket-tags/${ticket.id}`);
    assert.equal(removed.status, 200);
    assert.deepEqual(await tagsOf(), [vip.id]);
    const added = await call(t, a.admin.token, "PUT", `/api/ticket-tags/${ticket.id}/${second.id}`);
    assert.equal(added.status, 200);
    assert.deepEqual(await tagsOf(), [vip.id, second.id].sort((x, y) => x - y));
    const again = await call(t, a.admin.token, "PUT", `/api/ticket-tags/${ticket.id}/${second.id}`);
    assert.equal(again.status, 200);

    // Another attendant's ticket is theirs to move (403), like any change of it.
    const colleague = await addTicket(t, a.id, {
      contactId: s.contactId,
      queueId: s.q1,
      status: "open",
      userId: a.admin.id,
    });
    const refused = await call(t, a.user.token, "POST", `/api/ticket-tags/${colleague.id}/move`, {
      tagId: first.id,
    });
    assert.equal(refused.status, 403);
  }));

Deno.test("kanban - company B cannot read, move or tag A's tickets with A's or its own tags; the plan flag is enforced", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const s = await scene(t, a);
    const aLane = await kanbanTag(t, a, "Lane A");
    const bLane = await kanbanTag(t, b, "Lane B");
    const aTicket = await addTicket(t, a.id, { contactId: s.contactId, queueId: s.q1 });
    const bContact = await addContact(t, b.id, "Bob", "5511977776666");
    const bTicket = await addTicket(t, b.id, { contactId: bContact });

    const bBoard = await call(t, b.admin.token, "GET", "/api/ticket/kanban");
    assert.deepEqual(ids(bBoard.body), [bTicket.id]);
    const bLaneOfA = await call(t, b.admin.token, "GET", `/api/ticket/kanban?lane=${aLane.id}`);
    assert.deepEqual(ids(bLaneOfA.body), []);
    for (
      const [method, path, body, code] of [
        ["POST", `/api/ticket-tags/${aTicket.id}/move`, { tagId: bLane.id }, "ERR_NO_TICKET_FOUND"],
        ["DELETE", `/api/ticket-tags/${aTicket.id}`, undefined, "ERR_NO_TICKET_FOUND"],
        ["PUT", `/api/ticket-tags/${aTicket.id}/${bLane.id}`, undefined, "ERR_NO_TICKET_FOUND"],
        ["POST", `/api/ticket-tags/${bTicket.id}/move`, { tagId: aLane.id }, "ERR_NO_TAG_FOUND"],
        ["PUT", `/api/ticket-tags/${bTicket.id}/${aLane.id}`, undefined, "ERR_NO_TAG_FOUND"],
      ] as const
    ) {
      const res = await call(t, b.admin.token, method, path, body);
      assert.equal(res.status, 404, `${method} ${path}`);
      assert.equal(res.body.error, code, `${method} ${path}`);
    }
    assert.deepEqual(await t.deps.db.selectFrom("ticket_tags").selectAll().execute(), []);

    const noPlan = await createCompany(t, "Gamma", { plan: { useKanban: 0 } });
    for (
      const [method, path] of [
        ["GET", "/api/ticket/kanban"],
        ["DELETE", `/api/ticket-tags/${aTicket.id}`],
        ["PUT", `/api/ticket-tags/${aTicket.id}/${aLane.id}`],
        ["POST", `/api/ticket-tags/${aTicket.id}/move`],
      ] as const
    ) {
      const body = method === "GET" ? undefined : { tagId: null };
      const res = await call(t, noPlan.admin.token, method, path, body);
      assert.equal(res.status, 403, `${method} ${path}`);
      assert.equal(res.body.error, "ERR_PLAN_FEATURE_DISABLED");
    }
  }));

Deno.test("kanban - a move reaches the boards that show the ticket, never another company", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const s = await scene(t, a);
    const lane = await kanbanTag(t, a, "Retorno");
    const ticket = await addTicket(t, a.id, { contactId: s.contactId, queueId: s.q1 });
    await withServedApp(t, async (wsUrl) => {
      const [user, foreign] = await sockets(wsUrl, a.user.token, b.admin.token);
      user.send("joinTickets", "pending");
      foreign.send("joinTickets", "pending");
      await user.next((e) => e.event === "joined");
      await foreign.next((e) => e.event === "joined");
      await call(t, a.admin.token, "POST", `/api/ticket-tags/${ticket.id}/move`, {
        tagId: lane.id,
      });
      const event = await user.next((e) =>
        e.event === `company-${a.id}-ticket` &&
        (e.data as { ticket?: { id: number } }).ticket?.id === ticket.id
      );
      const moved = (event.data as { ticket: { tags: { id: number }[] } }).ticket;
      assert.deepEqual(moved.tags.map((g) => g.id), [lane.id]);
      await foreign.settle();
      assert.equal(foreign.events.filter((e) => e.event.endsWith("-ticket")).length, 0);
    });
  }));
