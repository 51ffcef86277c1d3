import { type Expression, type ExpressionBuilder, sql, type SqlBool } from "kysely";
import type { Database } from "../../db/client.ts";
import type { DB, TicketStatus } from "../../db/schema.ts";
import { searchFilter as contactSearchFilter } from "../contacts/repository.ts";
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

/**
 * Who sees which tickets in the lists (seeds/000 section 6), documented here once:
 * - show-all (admins only): every ticket of the company, narrowed by the selected queues;
 * - otherwise, as Whaticket: the caller's own tickets plus unassigned ones, in the selected queues
 *   (for a user, only those of their queues count) or without a queue. With no queue selection a
 *   user's own tickets show whatever their queue (a ticket transferred to them stays in view).
 *   Open tickets of other attendants are not listed (they can still be opened by link when in one
 *   of the user's queues: server/tickets/access.ts canRead);
 * - notifications (withUnreadMessages): never groups; unread tickets assigned to the caller or
 *   unassigned in one of their queues or without a queue; allTicket 'enable' adds the unassigned
 *   pending tickets of every queue, read or not (seeds/000 section 6: "the notifications list
 *   includes pending tickets").
 *
 * The caller's view is two disjoint parts, "mine" (userId = caller) and "unassigned" (userId IS
 * NULL); "all" is show-all. Each part is an equality on userId, so that it reads one range of an
 * index (tickets_user, or tickets_unread for notifications) already in updatedAt order.
 */
type Part = "all" | "mine" | "unassigned" | "allPending";

function partOf(eb: Eb, viewer: Viewer, f: TicketListFilters, part: Part): Expression<SqlBool> {
  const selected = f.queueIds;
  if (part === "all") return selected ? inQueuesOrNone(eb, selected) : eb.and([]);
  // Literal 0: SQLite uses the partial index tickets_unread only for this exact term.
  const unread = sql<SqlBool>`t.unreadMessages > 0`;
  if (part === "mine") {
    const mine = eb("t.userId", "=", viewer.userId);
    if (f.withUnreadMessages) return eb.and([mine, unread]);
    return selected ? eb.and([mine, inQueuesOrNone(eb, selected)]) : mine;
  }
  const unassigned = eb("t.userId", "is", null);
  if (f.withUnreadMessages) {
    const inMine = eb.and([unread, inQueuesOrNone(eb, viewer.queueIds)]);
    // allTicket: every unassigned pending ticket, read or not, not already in "unassigned".
    if (part === "allPending") {
      return eb.and([unassigned, eb("t.status", "=", "pending"), eb.not(inMine)]);
    }
    return eb.and([unassigned, inMine]);
  }
  const queues = selected
    ? (viewer.isAdmin ? selected : selected.filter((id) => viewer.queueIds.includes(id)))
    : viewer.queueIds;
  return eb.and([unassigned, inQueuesOrNone(eb, queues)]);
}

function partsOf(viewer: Viewer, f: TicketListFilters): Part[] {
  if (f.withUnreadMessages) {
    return viewer.allTicket ? ["mine", "unassigned", "allPending"] : ["mine", "unassigned"];
  }
  return f.showAll && viewer.isAdmin ? ["all"] : ["mine", "unassigned"];
}

/** Every condition but the search: company, status, the part, dates, users, tags, unread. */
function conditions(eb: Eb, viewer: Viewer, f: TicketListFilters, part: Part | Part[]) {
  const all: Expression<SqlBool>[] = [eb("t.companyId", "=", viewer.companyId)];
  if (f.status) all.push(eb("t.status", "=", f.status));
  const parts = Array.isArray(part) ? part : [part];
  all.push(
    parts.length === 1
      ? partOf(eb, viewer, f, parts[0])
      : eb.or(parts.map((p) => partOf(eb, viewer, f, p))),
  );
  // Notifications are never raised for groups (seeds/000 section 6).
  if (f.withUnreadMessages) all.push(eb("t.isGroup", "=", 0));
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
          .where("ticket_tags.tagId", "=", tagId)
          .where("ticket_tags.companyId", "=", viewer.companyId),
      ),
    );
  }
  return eb.and(all);
}

/**
 * Ticket ids a search matches: tickets of contacts whose name or number contains the text
 * (contacts_fts trigram index, server/contacts/repository.ts) and tickets with a message
 * containing every word (messages_fts). The message index's rowid is ticketId * 2^32 + message id
 * (migration 0030), so ticket ids come from the index alone; other companies' fall out when
 * joined with the company's tickets. Message text is never read with LIKE (DESIGN 'HTTP surface').
 */
function searchHits(companyId: number, text: string) {
  const parts = [];
  const contactMatch = contactSearchFilter(text);
  if (contactMatch) {
    // The unary + keeps SQLite from walking every ticket (or, with the trigram index answering,
    // every contact) of the company by its companyId index: the matched contacts drive, their
    // tickets come from tickets_contact. Short terms (LIKE) still read the company's contacts.
    const trigram = text.length >= 3;
    const contactCompany = trigram ? sql`+contacts.companyId` : sql`contacts.companyId`;
    parts.push(sql`SELECT tc.id AS id FROM tickets tc WHERE +tc.companyId = ${companyId}
      AND tc.contactId IN (SELECT contacts.id FROM contacts WHERE ${contactCompany} = ${companyId}
        AND ${contactMatch})`);
  }
  const match = ftsQuery(text);
  if (match) {
    parts.push(sql`SELECT rowid >> 32 AS id FROM messages_fts WHERE messages_fts MATCH ${match}`);
  }
  if (parts.length === 0) return undefined;
  return sql<{ id: number }>`(${sql.join(parts, sql` UNION `)})`;
}

export type TicketPage = { ids: number[]; count: number; hasMore: boolean };

/**
 * One page of ticket ids, newest activity first (ties by id), with the total count. Three shapes,
 * each reading an index in order or only the rows that can match (EXPLAIN in the benchmark):
 * - search: iterate the hits (CROSS JOIN keeps them the outer loop), filter, sort; the count
 *   comes from the same pass (window function);
 * - show-all: one range of tickets_status (or tickets_updated without a status);
 * - the caller's view: "mine" UNION ALL "unassigned", each in updatedAt order, merged, so that
 *   the first page stops after 40 rows; the count is the two parts' counts.
 */
export async function listTicketIds(
  db: Database,
  viewer: Viewer,
  filters: TicketListFilters,
): Promise<TicketPage> {
  const offset = (filters.pageNumber - 1) * TICKETS_PAGE_SIZE;
  const text = filters.searchParam?.trim();
  if (text) return await searchPage(db, viewer, filters, text, offset);
  const rows = await pageQuery(db, viewer, filters).execute();
  const ids = rows.map((r) => r.id);
  // The count only needs queries when the page does not already tell it.
  let count = offset + ids.length;
  if (ids.length === TICKETS_PAGE_SIZE || (ids.length === 0 && offset > 0)) {
    count = countedByTriggers(filters)
      ? await countFromCounters(db, viewer, filters)
      : await countByQuery(db, viewer, filters);
  }
  return { ids, count, hasMore: count > offset + ids.length };
}

async function countByQuery(db: Database, viewer: Viewer, filters: TicketListFilters) {
  let count = 0;
  for (const part of partsOf(viewer, filters)) {
    const total = await db.selectFrom("tickets as t")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where((eb) => conditions(eb, viewer, filters, part)).executeTakeFirstOrThrow();
    count += Number(total.n);
  }
  return count;
}

/** Lists filtered only by status, queues and who sees them are counted by ticket_counts. */
function countedByTriggers(f: TicketListFilters): boolean {
  return !f.date && !f.updatedAt && !f.users?.length && !f.tags?.length && !f.withUnreadMessages;
}

/**
 * The same count as countByQuery, summed from ticket_counts (migration 0032): a handful of rows
 * per company instead of every matching ticket. There 0 stands for "no queue" / "no user".
 */
async function countFromCounters(db: Database, viewer: Viewer, f: TicketListFilters) {
  let count = 0;
  for (const part of partsOf(viewer, f)) {
    const total = await db.selectFrom("ticket_counts as k")
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("k.n"), eb.lit(0)).as("n"))
      .where("k.companyId", "=", viewer.companyId)
      .where((eb) => {
        const all: Expression<SqlBool>[] = [];
        if (f.status) all.push(eb("k.status", "=", f.status));
        const queues = (ids: readonly number[]) => eb("k.queueId", "in", [0, ...ids]);
        if (part === "all") {
          if (f.queueIds) all.push(queues(f.queueIds));
        } else if (part === "mine") {
          all.push(eb("k.userId", "=", viewer.userId));
          if (f.queueIds) all.push(queues(f.queueIds));
        } else {
          all.push(eb("k.userId", "=", 0));
          all.push(queues(
            f.queueIds
              ? (viewer.isAdmin
                ? f.queueIds
                : f.queueIds.filter((id) => viewer.queueIds.includes(id)))
              : viewer.queueIds,
          ));
        }
        return eb.and(all);
      }).executeTakeFirstOrThrow();
    count += Number(total.n);
  }
  return count;
}

function pageQuery(db: Database, viewer: Viewer, filters: TicketListFilters) {
  const offset = (filters.pageNumber - 1) * TICKETS_PAGE_SIZE;
  const [first, ...rest] = partsOf(viewer, filters).map((part) =>
    db.selectFrom("tickets as t").select(["t.id", "t.updatedAt"])
      .where((eb) => conditions(eb, viewer, filters, part))
  );
  let query = first;
  for (const next of rest) query = query.unionAll(next);
  return query.orderBy("updatedAt", "desc").orderBy("id", "desc")
    .limit(TICKETS_PAGE_SIZE).offset(offset);
}

async function searchPage(
  db: Database,
  viewer: Viewer,
  filters: TicketListFilters,
  text: string,
  offset: number,
): Promise<TicketPage> {
  const query = searchQuery(db, viewer, filters, text);
  if (!query) return { ids: [], count: 0, hasMore: false };
  const rows = await query.limit(TICKETS_PAGE_SIZE).offset(offset).execute();
  let count = Number(rows[0]?.total ?? 0);
  if (rows.length === 0 && offset > 0) {
    const first = await query.limit(1).execute();
    count = Number(first[0]?.total ?? 0);
  }
  const ids = rows.map((r) => r.id);
  return { ids, count, hasMore: count > offset + ids.length };
}

function searchQuery(db: Database, viewer: Viewer, filters: TicketListFilters, text: string) {
  const hits = searchHits(viewer.companyId, text);
  if (!hits) return undefined;
  const parts = partsOf(viewer, filters);
  return db.selectFrom(hits.as("h")).crossJoin("tickets as t").whereRef("t.id", "=", "h.id")
    .where((eb) => conditions(eb, viewer, filters, parts))
    .select((eb) => ["t.id", eb.fn.countAll<number>().over().as("total")])
    .orderBy("t.updatedAt", "desc").orderBy("t.id", "desc");
}

/** The SQL of the page query, for EXPLAIN QUERY PLAN in the benchmark. */
export function listTicketsQuery(db: Database, viewer: Viewer, filters: TicketListFilters) {
  const text = filters.searchParam?.trim();
  const search = text ? searchQuery(db, viewer, filters, text) : undefined;
  if (search) return search.limit(TICKETS_PAGE_SIZE).compile();
  return pageQuery(db, viewer, filters).compile();
}
