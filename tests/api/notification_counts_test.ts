import assert from "node:assert/strict";
import { createUser, twoCompanies, withApp } from "../helpers/app.ts";
import { addContact, addQueue, addTicket, scene } from "../helpers/tickets.ts";

/**
 * Issue 33: the notifications' count (GET /api/tickets?withUnreadMessages=true) is summed from
 * ticket_notification_counts, kept by triggers (migration 0500). Through every kind of change the
 * counters equal a GROUP BY over the tickets, and the API's count equals counting the rows the
 * notifications' rules select (seeds/000 section 6), with and without allTicket, per status.
 */
type Body = { tickets: { id: number }[]; count: number; hasMore: boolean };

Deno.test("notification counts - triggers keep them equal to the tickets; the API's count is exact", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const s = await scene(t, a);
    const q3 = await addQueue(t, a.id, "Financeiro");
    const carla = await createUser(t, a.id, { name: "Carla", email: "carla@alpha.test" });
    const created: number[] = [];
    // 90 tickets: queues 1, 2, 3 or none; the user's, Carla's or nobody's; unread or not; a few
    // groups; open or pending. More than a page (40) of notifications, so the count is summed.
    for (let i = 0; i < 90; i++) {
      const group = i % 11 === 0;
      const contact = await addContact(t, a.id, `C${i}`, `55110000${String(i).padStart(4, "0")}`, {
        isGroup: group,
      });
      const owner = i % 3 === 0 ? a.user.id : i % 3 === 1 ? carla.id : null;
      const ticket = await addTicket(t, a.id, {
        contactId: contact,
        queueId: [s.q1, s.q2, q3, null][i % 4],
        status: owner ? "open" : "pending",
        userId: owner,
        unreadMessages: i % 5 === 0 ? 0 : i % 7,
        isGroup: group,
      });
      created.push(ticket.id);
    }
    const bContact = await addContact(t, b.id, "B", "5511000099999");
    await addTicket(t, b.id, { contactId: bContact, unreadMessages: 4 });

    const notifications = async (token: string, query: Record<string, string> = {}) => {
      const params = new URLSearchParams({ withUnreadMessages: "true", ...query });
      const res = await t.request("GET", `/api/tickets?${params}`, { token });
      assert.equal(res.status, 200, await res.clone().text());
      return await res.json() as Body;
    };
    /** The rows the notifications' rules select, counted in the test (not by the code under test). */
    const expected = async (userId: number, status?: string) => {
      const user = await t.deps.db.selectFrom("users").select("allTicket")
        .where("id", "=", userId).executeTakeFirstOrThrow();
      const queues = (await t.deps.db.selectFrom("user_queues").select("queueId")
        .where("companyId", "=", a.id).where("userId", "=", userId).execute()).map((r) =>
          r.queueId
        );
      const rows = await t.deps.db.selectFrom("tickets")
        .select(["status", "queueId", "userId", "unreadMessages", "isGroup"])
        .where("companyId", "=", a.id).execute();
      return rows.filter((r) => {
        if (r.isGroup || (status && r.status !== status)) return false;
        const unread = r.unreadMessages > 0;
        const inMine = unread && (r.queueId === null || queues.includes(r.queueId));
        if (r.userId === userId) return unread;
        if (r.userId !== null) return false;
        return inMine || (user.allTicket === "enable" && r.status === "pending");
      }).length;
    };
    const check = async (step: string) => {
      const counters = await t.deps.db.selectFrom("ticket_notification_counts").selectAll()
        .where("n", ">", 0).orderBy("companyId").orderBy("status").orderBy("queueId")
        .orderBy("userId").orderBy("unread").execute();
      const actual = await t.deps.db.selectFrom("tickets")
        .select((eb) => [
          "companyId",
          "status",
          eb.fn.coalesce("queueId", eb.lit(0)).as("queueId"),
          eb.fn.coalesce("userId", eb.lit(0)).as("userId"),
          eb.cast<number>(eb("unreadMessages", ">", 0), "integer").as("unread"),
          eb.fn.countAll<number>().as("n"),
        ])
        .where("isGroup", "=", 0)
        .groupBy(["companyId", "status", "queueId", "userId", "unread"])
        .orderBy("companyId").orderBy("status").orderBy("queueId").orderBy("userId")
        .orderBy("unread").execute();
      assert.deepEqual(counters, actual, step);
      for (const [who, token, id] of [["user", a.user.token, a.user.id]] as const) {
        for (const status of [undefined, "open", "pending"]) {
          const body = await notifications(token, status ? { status } : {});
          assert.equal(
            body.count,
            await expected(id, status),
            `${step}: ${who} ${status ?? "all"}`,
          );
        }
      }
    };

    await check("created");
    // Read and unread again, accepted, transferred, closed, deleted, made a group.
    await t.deps.db.updateTable("tickets").set({ unreadMessages: 0 })
      .where("id", "in", created.slice(0, 10)).execute();
    await t.deps.db.updateTable("tickets").set({ unreadMessages: 3 })
      .where("id", "in", created.slice(10, 20)).execute();
    await t.deps.db.updateTable("tickets").set((eb) => ({
      unreadMessages: eb("unreadMessages", "+", 1),
    }))
      .where("id", "in", created.slice(20, 30)).execute();
    await check("read and unread");
    const pendingIds = (await t.deps.db.selectFrom("tickets").select("id")
      .where("companyId", "=", a.id).where("status", "=", "pending").where("isGroup", "=", 0)
      .execute()).map((r) => r.id);
    const accept = await t.request("PUT", `/api/tickets/${pendingIds[0]}`, {
      token: a.admin.token,
      body: { action: "accept" },
    });
    assert.equal(accept.status, 200, await accept.clone().text());
    const transfer = await t.request("PUT", `/api/tickets/${pendingIds[1]}`, {
      token: a.admin.token,
      body: { action: "transfer", queueId: s.q1, userId: a.user.id },
    });
    assert.equal(transfer.status, 200, await transfer.clone().text());
    const close = await t.request("PUT", `/api/tickets/${created[3]}`, {
      token: a.admin.token,
      body: { status: "closed" },
    });
    assert.equal(close.status, 200, await close.clone().text());
    const remove = await t.request("DELETE", `/api/tickets/${created[4]}`, {
      token: a.admin.token,
    });
    assert.equal(remove.status, 204, await remove.clone().text());
    await t.deps.db.updateTable("tickets").set({ isGroup: 1 }).where("id", "=", created[5])
      .execute();
    await check("accepted, transferred, closed, deleted, made a group");
    // A deleted user's tickets become unassigned (foreign key SET NULL fires the update trigger);
    // allTicket adds every unassigned pending ticket.
    await t.deps.db.deleteFrom("users").where("id", "=", carla.id).execute();
    await t.deps.db.updateTable("users").set({ allTicket: "enable" }).where("id", "=", a.user.id)
      .execute();
    await check("user deleted, allTicket on");
    const full = await notifications(a.user.token);
    assert.equal(full.tickets.length, 40, "more than a page: the count is summed, not the page's");
    assert.equal(full.hasMore, true);
  }));
