import assert from "node:assert/strict";
import { createUser, twoCompanies, withApp } from "../helpers/app.ts";
import { listTicketIds, TICKETS_PAGE_SIZE } from "../../server/tickets/list_repository.ts";
import { addContact, addMessage, addQueue, addTicket, scene } from "../helpers/tickets.ts";

type ListBody = {
  tickets: { id: number; status: string; contact: { name: string } }[];
  count: number;
  hasMore: boolean;
};

async function list(
  t: Parameters<Parameters<typeof withApp>[0]>[0],
  token: string,
  query: Record<string, string>,
) {
  const res = await t.request("GET", `/api/tickets?${new URLSearchParams(query)}`, { token });
  assert.equal(res.status, 200, await res.clone().text());
  return await res.json() as ListBody;
}

const ids = (body: ListBody) => body.tickets.map((t) => t.id);

Deno.test("tickets list - users see own and unassigned tickets of their queues; admins show all", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    const other = await createUser(t, a.id, { name: "Other", email: "other@alpha.test" });
    const c2 = await addContact(t, a.id, "Joao", "5511999990002");
    const c3 = await addContact(t, a.id, "Ana", "5511999990003");
    const c4 = await addContact(t, a.id, "Bia", "5511999990004");
    const c5 = await addContact(t, a.id, "Caio", "5511999990005");
    const pendingQ1 = await addTicket(t, a.id, { contactId: s.contactId, queueId: s.q1 });
    const pendingQ2 = await addTicket(t, a.id, { contactId: c2, queueId: s.q2 });
    const pendingNoQueue = await addTicket(t, a.id, { contactId: c3 });
    const mineOpen = await addTicket(t, a.id, {
      contactId: c4,
      queueId: s.q1,
      status: "open",
      userId: a.user.id,
    });
    const othersOpen = await addTicket(t, a.id, {
      contactId: c5,
      queueId: s.q1,
      status: "open",
      userId: other.id,
    });

    const userPending = await list(t, a.user.token, { status: "pending" });
    assert.deepEqual(new Set(ids(userPending)), new Set([pendingQ1.id, pendingNoQueue.id]));
    assert.equal(userPending.count, 2);
    assert.equal(userPending.hasMore, false);
    const userOpen = await list(t, a.user.token, { status: "open" });
    assert.deepEqual(ids(userOpen), [mineOpen.id]);
    // showAll is an admin's switch; a user asking for it gets their own view.
    const userShowAll = await list(t, a.user.token, { status: "open", showAll: "true" });
    assert.deepEqual(ids(userShowAll), [mineOpen.id]);

    const adminAll = await list(t, a.admin.token, { showAll: "true" });
    assert.equal(adminAll.count, 5);
    const adminOpen = await list(t, a.admin.token, { status: "open", showAll: "true" });
    assert.deepEqual(new Set(ids(adminOpen)), new Set([mineOpen.id, othersOpen.id]));
    // The admin's queue selection narrows the list; tickets without a queue stay.
    const adminQ2 = await list(t, a.admin.token, {
      status: "pending",
      showAll: "true",
      queueIds: JSON.stringify([s.q2]),
    });
    assert.deepEqual(new Set(ids(adminQ2)), new Set([pendingQ2.id, pendingNoQueue.id]));
    // A user cannot widen their view by selecting a queue that is not theirs.
    const userQ2 = await list(t, a.user.token, {
      status: "pending",
      queueIds: JSON.stringify([s.q2]),
    });
    assert.deepEqual(ids(userQ2), [pendingNoQueue.id]);
  }));

Deno.test("tickets list - ordered by updatedAt desc with id tiebreak; pages of 40 with count and hasMore", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    await scene(t, a);
    const created: number[] = [];
    for (let i = 0; i < 45; i++) {
      const contact = await addContact(t, a.id, `C${i}`, `55110000${String(i).padStart(4, "0")}`);
      // Pairs share the same updatedAt: the id decides among them.
      const at = new Date(Date.parse("2026-11-01T10:00:00Z") + Math.floor(i / 2) * 60_000)
        .toISOString();
      created.push((await addTicket(t, a.id, { contactId: contact, at })).id);
    }
    const expected = [...created].reverse();
    const first = await list(t, a.admin.token, { status: "pending", showAll: "true" });
    assert.equal(first.tickets.length, 40);
    assert.equal(first.count, 45);
    assert.equal(first.hasMore, true);
    assert.deepEqual(ids(first), expected.slice(0, 40));
    const second = await list(t, a.admin.token, {
      status: "pending",
      showAll: "true",
      pageNumber: "2",
    });
    assert.deepEqual(ids(second), expected.slice(40));
    assert.equal(second.count, 45);
    assert.equal(second.hasMore, false);
    const beyond = await list(t, a.admin.token, {
      status: "pending",
      showAll: "true",
      pageNumber: "3",
    });
    assert.deepEqual(beyond, { tickets: [], count: 45, hasMore: false });
  }));

Deno.test("tickets list - search matches contact name, number and message words (FTS, prefix, accents)", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const s = await scene(t, a);
    const c2 = await addContact(t, a.id, "Pedro Alves", "5521988887777");
    const c3 = await addContact(t, a.id, "Zé", "5531977776666");
    const byName = await addTicket(t, a.id, { contactId: s.contactId, status: "closed" });
    const byNumber = await addTicket(t, a.id, {
      contactId: c2,
      status: "open",
      userId: a.admin.id,
    });
    const byMessage = await addTicket(t, a.id, { contactId: c3 });
    await addMessage(t, a.id, {
      ticketId: byMessage.id,
      body: "Quero saber do orçamento da instalação",
    });
    await addMessage(t, a.id, { ticketId: byNumber.id, body: "bom dia" });
    // Company B has a message with the same words: never in A's results.
    const bc = await addContact(t, b.id, "Maria B", "5511999990001");
    const bt = await addTicket(t, b.id, { contactId: bc });
    await addMessage(t, b.id, { ticketId: bt.id, body: "orçamento instalação" });

    const q = (searchParam: string) =>
      list(t, a.admin.token, { searchParam, showAll: "true" }).then((r) => new Set(ids(r)));
    assert.deepEqual(await q("maria"), new Set([byName.id]));
    assert.deepEqual(await q("98888"), new Set([byNumber.id]));
    // Prefix and accent-insensitive: "orcam" finds "orçamento"; every word must appear.
    assert.deepEqual(await q("orcam instal"), new Set([byMessage.id]));
    assert.deepEqual(await q("orçamento bom"), new Set());
    // FTS5 syntax in the input is plain text, not an error.
    assert.deepEqual(await q('"orçamento" OR NEAR(x'), new Set());
    assert.deepEqual(await q("%"), new Set());
    // Visibility still applies: the user sees only their own/queue tickets among the matches.
    const userSearch = await list(t, a.user.token, { searchParam: "orcamento" });
    assert.deepEqual(ids(userSearch), [byMessage.id]);
  }));

Deno.test("tickets list - a word in many tickets: list order, pages, hasMore, visibility, one company", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const s = await scene(t, a);
    const base = Date.parse("2026-11-01T10:00:00Z");
    // 90 tickets, pairs sharing updatedAt (the id decides); 3 in 4 have the word, 1 in 5 has
    // "pedidos" (a prefix match; a ticket with both is listed once). The user (queue 1) sees the pending tickets of queue 1
    // only: not queue 2's, nor those open with the admin.
    const shown: { id: number; at: number; user: boolean }[] = [];
    for (let i = 0; i < 90; i++) {
      const contact = await addContact(t, a.id, `P${i}`, `55120000${String(i).padStart(4, "0")}`);
      const kind = i % 3;
      const ticket = await addTicket(t, a.id, {
        contactId: contact,
        // Not in id order: the search must sort by updatedAt, not by the index's rowid.
        at: new Date(base + Math.floor(((i * 37) % 90) / 2) * 60_000).toISOString(),
        queueId: kind === 1 ? s.q2 : s.q1,
        status: kind === 2 ? "open" : "pending",
        userId: kind === 2 ? a.admin.id : null,
      });
      await addMessage(t, a.id, {
        ticketId: ticket.id,
        body: i % 4 !== 3 ? `Segue o pedido ${i}` : "bom dia",
      });
      if (i % 5 === 0) await addMessage(t, a.id, { ticketId: ticket.id, body: "outros pedidos" });
      if (i % 4 !== 3 || i % 5 === 0) {
        shown.push({
          id: ticket.id,
          at: base + Math.floor(((i * 37) % 90) / 2) * 60_000,
          user: kind === 0,
        });
      }
    }
    // Company B's tickets with the same word are newer: they would lead A's list if they leaked.
    const bContact = await addContact(t, b.id, "Bruno", "5511999990009");
    const bIds: number[] = [];
    for (let i = 0; i < 3; i++) {
      const ticket = await addTicket(t, b.id, {
        contactId: bContact,
        status: "closed",
        at: new Date(base + 86_400_000 + i).toISOString(),
      });
      await addMessage(t, b.id, { ticketId: ticket.id, body: "pedido da B" });
      bIds.push(ticket.id);
    }
    shown.sort((x, y) => y.at - x.at || y.id - x.id);
    const adminExpected = shown.map((x) => x.id);
    const userExpected = shown.filter((x) => x.user).map((x) => x.id);
    assert.equal(adminExpected.length, 72);

    const pages = async (token: string, extra: Record<string, string>) => {
      const out: ListBody[] = [];
      for (let page = 1; page <= 3; page++) {
        out.push(
          await list(t, token, { searchParam: "pedido", pageNumber: String(page), ...extra }),
        );
      }
      return out;
    };
    const [p1, p2, p3] = await pages(a.admin.token, { showAll: "true" });
    assert.deepEqual(ids(p1), adminExpected.slice(0, 40));
    assert.equal(p1.hasMore, true);
    assert.equal(p1.count, 40);
    assert.deepEqual(ids(p2), adminExpected.slice(40));
    assert.equal(p2.hasMore, false);
    assert.equal(p2.count, 72);
    assert.deepEqual(ids(p3), []);
    assert.equal(p3.hasMore, false);
    const [u1, u2] = await pages(a.user.token, {});
    assert.deepEqual(ids(u1), userExpected);
    assert.equal(u1.hasMore, false);
    assert.deepEqual(ids(u2), []);
    const bList = await list(t, b.admin.token, { searchParam: "pedido", showAll: "true" });
    assert.deepEqual(new Set(ids(bList)), new Set(bIds));

    // Both ways of answering give the same pages: a window too small to fill a page falls back
    // to the hits-driven query (1, 30), a larger one answers alone (60: 48 matches of 60).
    const admin = {
      companyId: a.id,
      userId: a.admin.id,
      isAdmin: true,
      roles: ["admin" as const],
      queueIds: [],
      allTicket: false,
    };
    const user = {
      companyId: a.id,
      userId: a.user.id,
      isAdmin: false,
      roles: ["user" as const],
      queueIds: [s.q1],
      allTicket: false,
    };
    for (const window of [1, 30, 60, 1000]) {
      for (
        const [viewer, expected, showAll] of [[admin, adminExpected, true], [
          user,
          userExpected,
          false,
        ]] as const
      ) {
        for (let pageNumber = 1; pageNumber <= 3; pageNumber++) {
          const page = await listTicketIds(t.deps.db, viewer, {
            searchParam: "pedido",
            pageNumber,
            showAll,
            withUnreadMessages: false,
          }, window);
          const from = (pageNumber - 1) * TICKETS_PAGE_SIZE;
          const label = `window ${window}, ${
            viewer.isAdmin ? "admin" : "user"
          }, page ${pageNumber}`;
          assert.deepEqual(page.ids, expected.slice(from, from + TICKETS_PAGE_SIZE), label);
          assert.equal(page.hasMore, expected.length > from + TICKETS_PAGE_SIZE, label);
          assert.ok(page.ids.every((id) => !bIds.includes(id)), label);
        }
      }
    }
  }));

Deno.test("tickets list - tags (all of them), users, date, updatedAt and unread filters", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    const c2 = await addContact(t, a.id, "Joao", "5511999990002");
    const c3 = await addContact(t, a.id, "Ana", "5511999990003");
    const t1 = await addTicket(t, a.id, {
      contactId: s.contactId,
      at: "2026-11-10T12:00:00.000Z",
      userId: a.user.id,
      status: "open",
      queueId: s.q1,
      unreadMessages: 2,
    });
    const t2 = await addTicket(t, a.id, {
      contactId: c2,
      at: "2026-11-11T02:00:00.000Z", // 10 Nov 23:00 in São Paulo
      unreadMessages: 1,
      queueId: s.q2,
    });
    const t3 = await addTicket(t, a.id, { contactId: c3, at: "2026-11-11T12:00:00.000Z" });
    const now = t.clock.now().toISOString();
    const tag1 = await t.deps.db.insertInto("tags").values({
      companyId: a.id,
      name: "vip",
      createdAt: now,
      updatedAt: now,
    }).returning("id").executeTakeFirstOrThrow();
    const tag2 = await t.deps.db.insertInto("tags").values({
      companyId: a.id,
      name: "urgente",
      createdAt: now,
      updatedAt: now,
    }).returning("id").executeTakeFirstOrThrow();
    await t.deps.db.insertInto("ticket_tags").values([
      { companyId: a.id, ticketId: t1.id, tagId: tag1.id },
      { companyId: a.id, ticketId: t1.id, tagId: tag2.id },
      { companyId: a.id, ticketId: t2.id, tagId: tag1.id },
    ]).execute();
    const admin = (query: Record<string, string>) =>
      list(t, a.admin.token, { showAll: "true", ...query }).then((r) => new Set(ids(r)));

    assert.deepEqual(await admin({ tags: JSON.stringify([tag1.id]) }), new Set([t1.id, t2.id]));
    assert.deepEqual(await admin({ tags: JSON.stringify([tag1.id, tag2.id]) }), new Set([t1.id]));
    assert.deepEqual(await admin({ users: JSON.stringify([a.user.id]) }), new Set([t1.id]));
    // Days are local (America/Sao_Paulo): t2 was created on 10 Nov there.
    assert.deepEqual(await admin({ date: "2026-11-10" }), new Set([t1.id, t2.id]));
    assert.deepEqual(await admin({ updatedAt: "2026-11-11" }), new Set([t3.id]));
    // Notifications: the admin is not in q2 and t2 is unassigned in q2 -> only... nothing of theirs.
    assert.deepEqual(await admin({ withUnreadMessages: "true" }), new Set());
    const userUnread = await list(t, a.user.token, { withUnreadMessages: "true" });
    assert.deepEqual(ids(userUnread), [t1.id]);

    const bad = await t.request("GET", "/api/tickets?tags=notjson", { token: a.admin.token });
    assert.equal(bad.status, 400);
    assert.equal((await bad.json()).error, "ERR_VALIDATION");
    const badStatus = await t.request("GET", "/api/tickets?status=archived", {
      token: a.admin.token,
    });
    assert.equal(badStatus.status, 400);
  }));

Deno.test("tickets list - notifications: never groups; allTicket adds pending tickets of every queue", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    const s = await scene(t, a);
    const c2 = await addContact(t, a.id, "Grupo", "120363000000000001", { isGroup: true });
    const c3 = await addContact(t, a.id, "Ana", "5511999990003");
    const q3 = await addQueue(t, a.id, "Financeiro");
    await addTicket(t, a.id, { contactId: c2, queueId: s.q1, unreadMessages: 3, isGroup: true });
    const otherQueue = await addTicket(t, a.id, { contactId: c3, queueId: q3, unreadMessages: 1 });
    // Pending and read, in a queue that is not the user's: only allTicket brings it.
    const c4 = await addContact(t, a.id, "Bia", "5511999990004");
    const readPending = await addTicket(t, a.id, { contactId: c4, queueId: q3 });
    // Someone else's open ticket with unread messages: never the user's notification.
    const c5 = await addContact(t, a.id, "Caio", "5511999990005");
    await addTicket(t, a.id, {
      contactId: c5,
      queueId: s.q1,
      status: "open",
      userId: a.admin.id,
      unreadMessages: 2,
    });
    const mine = await addTicket(t, a.id, {
      contactId: s.contactId,
      queueId: s.q1,
      unreadMessages: 1,
    });
    assert.deepEqual(ids(await list(t, a.user.token, { withUnreadMessages: "true" })), [mine.id]);
    await t.deps.db.updateTable("users").set({ allTicket: "enable" }).where("id", "=", a.user.id)
      .execute();
    assert.deepEqual(
      new Set(ids(await list(t, a.user.token, { withUnreadMessages: "true" }))),
      new Set([mine.id, otherQueue.id, readPending.id]),
    );
    // allTicket widens notifications only, not the pending list.
    assert.deepEqual(
      ids(await list(t, a.user.token, { status: "pending" })).includes(otherQueue.id),
      false,
    );
  }));

Deno.test("tickets list - counts kept by triggers match the tickets through every change", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const s = await scene(t, a);
    const carla = await createUser(t, a.id, { name: "Carla", email: "carla@alpha.test" });
    const created: number[] = [];
    for (let i = 0; i < 44; i++) {
      const contact = await addContact(t, a.id, `C${i}`, `55110000${String(i).padStart(4, "0")}`);
      const ticket = await addTicket(t, a.id, {
        contactId: contact,
        queueId: i % 3 === 0 ? null : i % 3 === 1 ? s.q1 : s.q2,
        status: i % 4 === 0 ? "open" : "pending",
        userId: i % 4 === 0 ? (i % 8 === 0 ? a.user.id : carla.id) : null,
      });
      created.push(ticket.id);
    }
    const bContact = await addContact(t, b.id, "B", "5511000099999");
    await addTicket(t, b.id, { contactId: bContact, status: "open", userId: b.user.id });
    // Accept, transfer, resolve, delete; then a user is deleted (tickets' userId set to NULL).
    await t.request("PUT", `/api/tickets/${created[1]}`, {
      token: a.admin.token,
      body: { action: "accept" },
    });
    await t.request("PUT", `/api/tickets/${created[2]}`, {
      token: a.admin.token,
      body: { action: "transfer", queueId: s.q1, userId: carla.id },
    });
    await t.request("PUT", `/api/tickets/${created[0]}`, {
      token: a.admin.token,
      body: { status: "closed" },
    });
    await t.request("DELETE", `/api/tickets/${created[3]}`, { token: a.admin.token });
    await t.deps.db.deleteFrom("users").where("id", "=", carla.id).execute();

    const counters = await t.deps.db.selectFrom("ticket_counts").selectAll().where("n", ">", 0)
      .orderBy(["companyId", "status", "queueId", "userId"]).execute();
    const actual = await t.deps.db.selectFrom("tickets")
      .select((eb) => [
        "companyId",
        "status",
        eb.fn.coalesce("queueId", eb.lit(0)).as("queueId"),
        eb.fn.coalesce("userId", eb.lit(0)).as("userId"),
        eb.fn.countAll<number>().as("n"),
      ])
      .groupBy(["companyId", "status", "queueId", "userId"])
      .orderBy(["companyId", "status", "queueId", "userId"]).execute();
    assert.deepEqual(counters, actual);

    // And the API's counts (first pages of 40) equal counting the rows.
    const pending = await list(t, a.admin.token, { status: "pending", showAll: "true" });
    const pendingRows = await t.deps.db.selectFrom("tickets").select("id")
      .where("companyId", "=", a.id).where("status", "=", "pending").execute();
    assert.equal(pending.count, pendingRows.length);
    const userView = await list(t, a.user.token, { status: "pending" });
    assert.equal(userView.count, userView.tickets.length);
  }));
