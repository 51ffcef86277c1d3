import { type Expression, type ExpressionBuilder, sql, type SqlBool } from "kysely";
import type { Database } from "../../db/client.ts";
import type { DB, TicketStatus } from "../../db/schema.ts";
import { ftsQuery } from "../messages/fts.ts";
import { dayRange } from "../time_zone.ts";
import type { Viewer } from "./access.ts";

/** Whaticket's ticket page size; the list loads the next page near the bottom (seeds/000 s. 9). */
export const TICKETS_PAGE_SIZE = 40;

/** GET /api/tickets filters (seeds/000 section 7). */
export type TicketListFilters = {
  searchParam?: string;
  pageNumber: number;
  /** A ticket must carry every one of these tags (Whaticket intersects them). */
  tags?: number[];
  /** Assigned to any of these users. */
  users?: number[];
  status?: TicketStatus;
  /** Local calendar days "YYYY-MM-DD" of createdAt / updatedAt. */
  date?: string;
  updatedAt?: string;
  /** Honoured for admins only (tickets-manager:showall). */
  showAll: boolean;
  /** The queues selected in the list; tickets without a queue always stay in. */
  queueIds?: number[];
  /** The notifications list (seeds/000 section 6). */
  withUnreadMessages: boolean;
};

type Scope = DB & { t: DB["tickets"] };
type Eb = ExpressionBuilder<Scope, "t">;

function inQueuesOrNone(eb: Eb, queueIds: readonly number[]): Expression<SqlBool> {
  const none = eb("t.queueId", "is", null);
  return queueIds.length === 0 ? none : eb.or([eb("t.queueId", "in", queueIds), none]);
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Who sees which tickets in the lists (seeds/000 section 6), documented here once:
 * - show-all (admins only): every ticket of the company, narrowed by the selected queues;
 * - otherwise, as Whaticket: the caller's own tickets plus unassigned ones, in the selected queues
 *   (for a user, only those of their queues count) or without a queue. With no queue selection a
 *   user's own tickets show whatever their queue (a ticket transferred to them stays in view).
 *   Open tickets of other attendants are not listed (they can still be opened by link when in one
 *   of the user's queues: server/tickets/access.ts canRead);
 * - notifications (withUnreadMessages): unread, never groups, assigned to the caller or
 *   unassigned in one of their queues or without a queue; allTicket 'enable' adds unassigned
 *   pending tickets of every queue.
 */
function visibility(eb: Eb, viewer: Viewer, f: TicketListFilters): Expression<SqlBool> {
  const mine = eb("t.userId", "=", viewer.userId);
  const unassigned = eb("t.userId", "is", null);
  if (f.withUnreadMessages) {
    const anyOf = [mine, eb.and([unassigned, inQueuesOrNone(eb, viewer.queueIds)])];
    if (viewer.allTicket) anyOf.push(eb.and([unassigned, eb("t.status", "=", "pending")]));
    return eb.and([eb("t.unreadMessages", ">", 0), eb("t.isGroup", "=", 0), eb.or(anyOf)]);
  }
  const selected = f.queueIds;
  if (f.showAll && viewer.isAdmin) {
    return selected ? inQueuesOrNone(eb, selected) : eb.and([]);
  }
  const ownQueues = selected ?? null;
  const unassignedQueues = selected
    ? (viewer.isAdmin ? selected : selected.filter((id) => viewer.queueIds.includes(id)))
    : viewer.queueIds;
  return eb.or([
    ownQueues ? eb.and([mine, inQueuesOrNone(eb, ownQueues)]) : mine,
    eb.and([unassigned, inQueuesOrNone(eb, unassignedQueues)]),
  ]);
}

function conditions(eb: Eb, viewer: Viewer, f: TicketListFilters): Expression<SqlBool> {
  const all: Expression<SqlBool>[] = [eb("t.companyId", "=", viewer.companyId)];
  if (f.status) all.push(eb("t.status", "=", f.status));
  all.push(visibility(eb, viewer, f));
  if (f.date) {
    const [from, to] = dayRange(f.date);
    all.push(eb("t.createdAt", ">=", from), eb("t.createdAt", "<", to));
  }
  if (f.updatedAt) {
    const [from, to] = dayRange(f.updatedAt);
    all.push(eb("t.updatedAt", ">=", from), eb("t.updatedAt", "<", to));
  }
  if (f.users?.length) all.push(eb("t.userId", "in", f.users));
  for (const tagId of new Set(f.tags ?? [])) {
    all.push(
      eb(
        "t.id",
        "in",
        eb.selectFrom("ticket_tags").select("ticket_tags.ticketId")
          .where("ticket_tags.tagId", "=", tagId).where(
            "ticket_tags.companyId",
            "=",
            viewer.companyId,
          ),
      ),
    );
  }
  const text = f.searchParam?.trim();
  if (text) {
    const pattern = likePattern(text.toLowerCase());
    const anyOf: Expression<SqlBool>[] = [
      eb(
        "t.contactId",
        "in",
        eb.selectFrom("contacts").select("contacts.id")
          .where("contacts.companyId", "=", viewer.companyId)
          .where((c) =>
            c.or([
              sql<SqlBool>`contacts.name LIKE ${pattern} ESCAPE '\\'`,
              sql<SqlBool>`contacts.number LIKE ${pattern} ESCAPE '\\'`,
            ])
          ),
      ),
    ];
    const match = ftsQuery(text);
    if (match) {
      // Message text only through the FTS index, never LIKE over messages (DESIGN 'HTTP surface').
      anyOf.push(sql<SqlBool>`t.id IN (
        SELECT m.ticketId FROM messages_fts f JOIN messages m ON m.id = f.rowid
        WHERE messages_fts MATCH ${match} AND m.companyId = ${viewer.companyId})`);
    }
    all.push(eb.or(anyOf));
  }
  return eb.and(all);
}

export type TicketPage = { ids: number[]; count: number; hasMore: boolean };

/** One page of ticket ids, newest activity first (ties by id), with the total count. */
export async function listTicketIds(
  db: Database,
  viewer: Viewer,
  filters: TicketListFilters,
): Promise<TicketPage> {
  const offset = (filters.pageNumber - 1) * TICKETS_PAGE_SIZE;
  const rows = await db.selectFrom("tickets as t").select("t.id")
    .where((eb) => conditions(eb, viewer, filters))
    .orderBy("t.updatedAt", "desc").orderBy("t.id", "desc")
    .limit(TICKETS_PAGE_SIZE).offset(offset).execute();
  const ids = rows.map((r) => r.id);
  // The count only needs a query when the page does not already tell it.
  let count = offset + ids.length;
  if (ids.length === TICKETS_PAGE_SIZE || (ids.length === 0 && offset > 0)) {
    const total = await db.selectFrom("tickets as t")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where((eb) => conditions(eb, viewer, filters)).executeTakeFirstOrThrow();
    count = Number(total.n);
  }
  return { ids, count, hasMore: count > offset + ids.length };
}

/** The SQL of the page query, for EXPLAIN QUERY PLAN in the benchmark. */
export function listTicketsQuery(db: Database, viewer: Viewer, filters: TicketListFilters) {
  return db.selectFrom("tickets as t").select("t.id")
    .where((eb) => conditions(eb, viewer, filters))
    .orderBy("t.updatedAt", "desc").orderBy("t.id", "desc")
    .limit(TICKETS_PAGE_SIZE).offset((filters.pageNumber - 1) * TICKETS_PAGE_SIZE).compile();
}
