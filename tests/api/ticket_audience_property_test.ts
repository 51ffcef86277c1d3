import assert from "node:assert/strict";
import { createCompany, createUser, type TestApp, type TestUser } from "../helpers/app.ts";
import { TestSocket, withServer } from "../helpers/server.ts";
import { addContact, addQueue, addTicket } from "../helpers/tickets.ts";
import {
  type AudienceTicket,
  type AudienceViewer,
  inNotifications,
  inTicketList,
  mayReadTicket,
  onKanbanBoard,
  readsEveryTicket,
  type TicketListView,
} from "../../contract/ticket_audience.ts";
import { type Role, rolesOf } from "../../contract/roles.ts";
import {
  granted,
  mayActOnTicket,
  reportScopeNeeds,
  ticketReadNeeds,
} from "../../contract/record_policy.ts";
import { canReadReports } from "../../islands/lib/permissions.ts";
import { publishTicketUpdate } from "../../server/realtime/publish.ts";
import { loadTicketView } from "../../server/tickets/view_repository.ts";

/**
 * Issue 42: one audience rule, and every consumer agrees with it. Each round builds a company at
 * random (queues; users with a profile, the super flag, allTicket, memberships and supervision;
 * tickets in every status, queue, owner, group or not, read or not) and, for every (user,
 * ticket) pair, compares the pure rule (contract/ticket_audience.ts) with:
 * - the API's read (GET /api/tickets/:id: 200 or 403) and act (PUT /api/tickets/:id with no
 *   change: 403 exactly when the record rule mayActOnTicket, contract/record_policy.ts, says no);
 * - the lists' membership (GET /api/tickets, each status, show-all or not, queue selections) and
 *   the notifications (withUnreadMessages), against inTicketList / inNotifications;
 * - the kanban board (GET /api/ticket/kanban) against onKanbanBoard;
 * - socket delivery: each user's real socket in every list room, and each ticket's update
 *   published (server/realtime/publish.ts): who heard it is who may read it.
 * A ticket of another company is never read, listed or heard. The seed is printed on failure;
 * AUDIENCE_SEED replays it, AUDIENCE_ROUNDS sets how many rounds (default 3).
 */

/** A small seeded generator (mulberry32): a failing case can be replayed. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let r = state;
    r = Math.imul(r ^ (r >>> 15), r | 1);
    r ^= r + Math.imul(r ^ (r >>> 7), r | 61);
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
  return {
    chance: (p: number) => next() < p,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
    subset: <T>(items: readonly T[]): T[] => items.filter(() => next() < 0.5),
  };
}

type Person = { user: TestUser; viewer: AudienceViewer; roles: Role[] };
type Row = AudienceTicket & { id: number; unread: boolean };

const STATUSES = ["pending", "open", "closed"] as const;

async function randomCompany(t: TestApp, seed: number, round: number) {
  const rnd = generator(seed);
  const company = await createCompany(t, `Round ${round}`);
  const queues = [
    await addQueue(t, company.id, "Vendas"),
    await addQueue(t, company.id, "Suporte"),
    await addQueue(t, company.id, "Financeiro"),
  ];
  const people: Person[] = [];
  for (let i = 0; i < 6; i++) {
    const profile = rnd.chance(0.25) ? "admin" : "user";
    const queueIds = rnd.subset(queues);
    const user = await createUser(t, company.id, {
      name: `Pessoa ${i}`,
      email: `p${i}.r${round}@audience.test`,
      profile,
      queueIds,
    });
    const isSuper = rnd.chance(0.15);
    const allTicket = rnd.chance(0.35);
    await t.deps.db.updateTable("users")
      .set({ super: isSuper ? 1 : 0, allTicket: allTicket ? "enable" : "disable" })
      .where("id", "=", user.id).execute();
    // Supervision is a mark on a membership: it must not widen what the user reads.
    for (const queueId of queueIds) {
      if (!rnd.chance(0.3)) continue;
      await t.deps.db.updateTable("user_queues").set({ supervisor: 1 })
        .where("userId", "=", user.id).where("queueId", "=", queueId).execute();
    }
    people.push({
      user,
      roles: rolesOf({ profile, super: isSuper }),
      viewer: {
        userId: user.id,
        isAdmin: readsEveryTicket(rolesOf({ profile, super: isSuper })),
        queueIds,
        allTicket,
      },
    });
  }
  const rows: Row[] = [];
  for (let i = 0; i < 24; i++) {
    const isGroup = rnd.chance(0.2);
    const contactId = await addContact(
      t,
      company.id,
      `Contato ${i}`,
      `5511${String(round).padStart(2, "0")}${String(i).padStart(7, "0")}`,
      {
        isGroup,
      },
    );
    const status = rnd.pick(STATUSES);
    const queueId = rnd.pick([null, ...queues]);
    const userId = status === "pending" && rnd.chance(0.7)
      ? null
      : rnd.pick([null, ...people.map((p) => p.user.id)]);
    const unread = rnd.chance(0.5);
    const at = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
    const ticket = await addTicket(t, company.id, {
      contactId,
      status,
      queueId,
      userId,
      isGroup,
      unreadMessages: unread ? 2 : 0,
      at,
    });
    rows.push({ id: ticket.id, status, queueId, userId, isGroup, unread });
  }
  return { company, queues, people, rows, rnd };
}

/** Every id of a paged list (tickets or a kanban board), all pages. */
async function allIds(t: TestApp, token: string, path: string, query: Record<string, string>) {
  const ids = new Set<number>();
  for (let pageNumber = 1;; pageNumber++) {
    const search = new URLSearchParams({ ...query, pageNumber: String(pageNumber) });
    const res = await t.request("GET", `${path}?${search}`, { token });
    assert.equal(res.status, 200, `${path}?${search}: ${await res.clone().text()}`);
    const page = await res.json() as { tickets: { id: number }[]; hasMore: boolean };
    for (const ticket of page.tickets) ids.add(ticket.id);
    if (!page.hasMore) return ids;
  }
}

const sorted = (ids: Iterable<number>) => [...ids].sort((x, y) => x - y);

Deno.test("ticket audience - every consumer agrees with the one rule on random companies", () =>
  withServer(async (t, wsUrl) => {
    const rounds = Number(Deno.env.get("AUDIENCE_ROUNDS") ?? 3);
    const firstSeed = Number(Deno.env.get("AUDIENCE_SEED") ?? Math.floor(Math.random() * 2 ** 31));
    const other = await createCompany(t, "Outra");
    const otherContact = await addContact(t, other.id, "Estranho", "5521900000000");
    const foreign = await addTicket(t, other.id, { contactId: otherContact, status: "pending" });
    for (let round = 0; round < rounds; round++) {
      const seed = firstSeed + round;
      const why = (what: string) => `${what} (AUDIENCE_SEED=${seed} AUDIENCE_ROUNDS=1)`;
      const { people, rows, queues, rnd } = await randomCompany(t, seed, round);

      for (const { user, viewer, roles } of people) {
        // The API's read answers as the rule does; another company's ticket is never found.
        for (const row of rows) {
          const res = await t.request("GET", `/api/tickets/${row.id}`, { token: user.token });
          await res.body?.cancel();
          const expected = mayReadTicket(viewer, row) ? 200 : 403;
          assert.equal(
            res.status,
            expected,
            why(`GET ticket ${JSON.stringify(row)} by ${JSON.stringify(viewer)}`),
          );
        }
        // Acting on it (a change that changes nothing) follows the record rule built on it.
        for (const row of rows) {
          const res = await t.request("PUT", `/api/tickets/${row.id}`, {
            token: user.token,
            body: {},
          });
          const text = await res.text();
          const refused = res.status === 403;
          assert.equal(
            refused,
            !mayActOnTicket(viewer, roles, row),
            why(`PUT ticket ${JSON.stringify(row)} by ${JSON.stringify(viewer)}: ${text}`),
          );
        }
        const res = await t.request("GET", `/api/tickets/${foreign.id}`, { token: user.token });
        await res.body?.cancel();
        assert.equal(res.status, 404, why("another company's ticket"));

        // The lists: each status and the search tab, show-all or not, with or without a selection.
        const selections: (readonly number[] | undefined)[] = [undefined, rnd.subset(queues)];
        for (const status of [...STATUSES, undefined]) {
          for (const showAll of [false, true]) {
            for (const queueIds of selections) {
              if (queueIds?.length === 0) continue;
              const view: TicketListView = { status, showAll, queueIds };
              const query: Record<string, string> = { showAll: String(showAll) };
              if (status) query.status = status;
              if (queueIds) query.queueIds = JSON.stringify(queueIds);
              const listed = await allIds(t, user.token, "/api/tickets", query);
              const expected = rows.filter((r) => inTicketList(viewer, r, view)).map((r) => r.id);
              assert.deepEqual(
                sorted(listed),
                sorted(expected),
                why(`list ${JSON.stringify(view)} of ${JSON.stringify(viewer)}`),
              );
            }
          }
        }
        const bell = await allIds(t, user.token, "/api/tickets", { withUnreadMessages: "true" });
        const notified = rows.filter((r) => inNotifications(viewer, r)).map((r) => r.id);
        assert.deepEqual(
          sorted(bell),
          sorted(notified),
          why(`notifications of ${JSON.stringify(viewer)}`),
        );

        // The kanban board, every lane, with and without a queue choice.
        for (const queueIds of selections) {
          if (queueIds?.length === 0) continue;
          const query: Record<string, string> = queueIds
            ? { queueIds: JSON.stringify(queueIds) }
            : {};
          const board = await allIds(t, user.token, "/api/ticket/kanban", query);
          const expected = rows.filter((r) => onKanbanBoard(viewer, r, queueIds)).map((r) => r.id);
          assert.deepEqual(
            sorted(board),
            sorted(expected),
            why(`board ${JSON.stringify(queueIds)} of ${JSON.stringify(viewer)}`),
          );
        }
      }

      // Socket delivery: every user's socket in every list room; each ticket's update published.
      const sockets = await Promise.all(people.map(async ({ user }) => {
        const socket = await TestSocket.connect(wsUrl, user.token);
        for (const status of STATUSES) socket.send("joinTickets", status);
        socket.send("joinNotification");
        await socket.settle();
        return socket;
      }));
      const outsider = await TestSocket.connect(wsUrl, other.admin.token);
      try {
        for (const row of rows) {
          const view = await loadTicketView(t.deps.db, people[0].user.companyId, row.id);
          publishTicketUpdate(t.deps.hub, view!);
        }
        await Promise.all([...sockets, outsider].map((s) => s.settle()));
        for (const [i, { viewer }] of people.entries()) {
          const heard = new Set(
            sockets[i].events.filter((e) => e.event.endsWith("-ticket"))
              .map((e) => (e.data as { ticket: { id: number } }).ticket.id),
          );
          const expected = rows.filter((r) => mayReadTicket(viewer, r)).map((r) => r.id);
          assert.deepEqual(
            sorted(heard),
            sorted(expected),
            why(`socket of ${JSON.stringify(viewer)}`),
          );
        }
        assert.equal(
          outsider.events.some((e) => e.event.endsWith("-ticket")),
          false,
          why("another company's socket"),
        );
      } finally {
        for (const socket of [...sockets, outsider]) await socket.close();
      }
    }
  }));

Deno.test("ticket audience - a restricted session reads nothing; supervision and the super flag widen nothing", () => {
  const ticket: AudienceTicket = { userId: null, queueId: null, status: "pending", isGroup: false };
  const admin: AudienceViewer = { userId: 1, isAdmin: true, queueIds: [], allTicket: true };
  assert.equal(mayReadTicket(admin, ticket), true);
  assert.equal(mayReadTicket({ ...admin, restrictedSession: true }, ticket), false);
  assert.equal(readsEveryTicket(rolesOf({ profile: "user", super: true })), false);
  assert.equal(readsEveryTicket(rolesOf({ profile: "ADMIN", super: false })), true);
});

/**
 * The API's 403s on a ticket and on the reports are record rules beside the table
 * (contract/record_policy.ts), no longer hand-written: a ticket the audience rule hides asks a
 * line no role holds, so even an admin's roles do not open it in a restricted session (an
 * enrolling admin's socket asking to follow a ticket); the reports ask "report:read-all" of
 * whoever supervises nothing, and the browser's menu reads that same answer.
 */
Deno.test("record rules - reading a ticket and the reports are the table's answer", () => {
  const ticket: AudienceTicket = { userId: 2, queueId: 5, status: "open", isGroup: false };
  const roles: Role[][] = [["user"], ["admin"], ["user", "super"], ["admin", "super"]];
  for (const held of roles) {
    for (const restrictedSession of [false, true]) {
      for (const queueIds of [[], [5]]) {
        const viewer: AudienceViewer = {
          userId: 1,
          isAdmin: readsEveryTicket(held),
          queueIds,
          allTicket: false,
          restrictedSession,
        };
        const why = JSON.stringify({ held, restrictedSession, queueIds });
        assert.equal(
          granted(held, ticketReadNeeds(viewer, ticket)),
          mayReadTicket(viewer, ticket),
          why,
        );
      }
    }
  }
  assert.deepEqual(reportScopeNeeds([3]), []);
  assert.deepEqual(reportScopeNeeds([]), ["report:read-all"]);
  for (const profile of ["user", "admin"]) {
    for (const isSuper of [false, true]) {
      for (const supervisedQueueIds of [[], [3]]) {
        const held = rolesOf({ profile, super: isSuper });
        assert.equal(
          canReadReports({ profile, super: isSuper, supervisedQueueIds }),
          granted(held, ["report:read", ...reportScopeNeeds(supervisedQueueIds)]),
          JSON.stringify({ profile, isSuper, supervisedQueueIds }),
        );
      }
    }
  }
});
