import { type Expression, type ExpressionBuilder, sql, type SqlBool } from "kysely";
import type { Database } from "../../db/client.ts";
import type { DB, TicketStatus } from "../../db/schema.ts";
import { searchFilter as contactSearchFilter } from "../contacts/repository.ts";
import { ftsQuery, tsQuery } from "../messages/fts.ts";
import { messageMatches } from "../messages/search_repository.ts";
import { type Engine, engineOf } from "../../db/engine.ts";
import type { Viewer } from "./access.ts";
import { isAllowed } from "../auth/policy.ts";

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
  /** Local calendar days "YYYY-MM-DD" of createdAt / updatedAt, on the company's clock. */
  date?: string;
  updatedAt?: string;
  /** Those days as UTC [start, end) (the service reads them on the company's zone: dayRange). */
  createdIn?: [string, string];
  updatedIn?: [string, string];
  /** Honoured for admins only (tickets-manager:showall). */
  showAll: boolean;
  /** The queues selected in the list; tickets without a queue always stay in. */
  queueIds?: number[];
  /** The notifications list (seeds/000 section 6). */
  withUnreadMessages: boolean;
  /**
   * Issue 26: "timeLeft" lists the tickets whose target falls due first first (those without a
   * target last); default newest activity first. A search keeps its own order.
   */
  sort?: "updatedAt" | "timeLeft";
};

type Scope = DB & { t: DB["tickets"] };
type Eb = ExpressionBuilder<Scope, "t">;

function inQueuesOrNone(eb: Eb, queueIds: readonly number[]): Expression<SqlBool> {
  const none = eb("t.queueId", "is", null);
  return queueIds.length === 0 ? none : eb.or([eb("t.queueId", "in", queueIds), none]);
}

/**
 * Which tickets the lists hold: `inTicketList` and `inNotifications` of
 * contract/ticket_audience.ts (views of the one audience rule) as SQL, shaped for the indexes;
 * tests/api/ticket_audience_property_test.ts proves them equal on random companies. In short:
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
  return f.showAll && isAllowed(viewer, "ticket:see-all") ? ["all"] : ["mine", "unassigned"];
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
  if (f.date && f.createdIn) {
    const [from, to] = f.createdIn;
    all.push(eb("t.createdAt", ">=", from), eb("t.createdAt", "<", to));
  }
  if (f.updatedAt && f.updatedIn) {
    const [from, to] = f.updatedIn;
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
 * What a search matches: tickets of contacts whose name or number contains the text
 * (contacts_fts trigram index, server/contacts/repository.ts) and tickets with a message
 * containing every word (messages_fts). The message index's rowid is ticketId * 2^32 + message id
 * (migration 0030), so ticket ids come from the index alone; other companies' fall out when
 * joined with the company's tickets. Message text is never read with LIKE (DESIGN 'HTTP surface').
 */
function searchTerms(companyId: number, text: string, engine: Engine) {
  const contactMatch = contactSearchFilter(text, engine);
  let contactTickets;
  if (contactMatch) {
    // The unary + keeps SQLite from walking every ticket (or, with the trigram index answering,
    // every contact) of the company by its companyId index: the matched contacts drive, their
    // tickets come from tickets_contact. Short terms (LIKE) still read the company's contacts.
    const trigram = text.length >= 3;
    const contactCompany = trigram ? sql`+contacts.companyId` : sql`contacts.companyId`;
    contactTickets = sql`SELECT tc.id AS id FROM tickets tc WHERE +tc.companyId = ${companyId}
      AND tc.contactId IN (SELECT contacts.id FROM contacts WHERE ${contactCompany} = ${companyId}
        AND ${contactMatch})`;
  }
  const match = engine === "postgres" ? tsQuery(text) : ftsQuery(text);
  return contactTickets || match ? { contactTickets, match } : undefined;
}

/** PostgreSQL (issue 46): the company's tickets with a message holding every word. */
function messageTickets(companyId: number, query: string) {
  return sql`SELECT m.ticketId AS id FROM messages m WHERE m.companyId = ${companyId}
    AND ${messageMatches(query)}`;
}

/** Ticket ids a search matches, a ticket once. */
function searchHits(companyId: number, text: string, engine: Engine) {
  const terms = searchTerms(companyId, text, engine);
  if (!terms) return undefined;
  const parts = [];
  if (terms.contactTickets) parts.push(terms.contactTickets);
  if (terms.match && engine === "postgres") parts.push(messageTickets(companyId, terms.match));
  else if (terms.match) {
    parts.push(
      sql`SELECT rowid >> 32 AS id FROM messages_fts WHERE messages_fts MATCH ${terms.match}`,
    );
  }
  return sql<{ id: number }>`(${sql.join(parts, sql` UNION `)})`;
}

/**
 * The rows (id, updatedAt) of the CTE w that a search matches, a ticket once. The message index
 * drives (CROSS JOIN) and each hit is checked against w through the Bloom filter SQLite builds
 * for the join: ~0.1 us a hit, against ~0.3 us for an IN (...) list.
 */
function windowHits(companyId: number, text: string, engine: Engine) {
  const terms = searchTerms(companyId, text, engine);
  if (!terms) return undefined;
  const parts = [];
  if (terms.contactTickets) {
    parts.push(sql`SELECT w.id, w.updatedAt FROM w WHERE w.id IN (${terms.contactTickets})`);
  }
  if (terms.match && engine === "postgres") {
    parts.push(sql`SELECT w.id, w.updatedAt FROM w
      WHERE w.id IN (${messageTickets(companyId, terms.match)})`);
  } else if (terms.match) {
    parts.push(sql`SELECT w.id, w.updatedAt FROM messages_fts CROSS JOIN w
      ON w.id = messages_fts.rowid >> 32 WHERE messages_fts MATCH ${terms.match}`);
  }
  return sql.join(parts, sql` UNION `);
}

export type TicketPage = {
  ids: number[];
  count: number;
  hasMore: boolean;
  /**
   * Which of `ids` the caller pinned, when the page already read it (pinnedFirst: every pin of
   * the list is read there, so a ticket of the page that is not in it is not pinned); undefined
   * for a search page.
   */
  pinned?: ReadonlySet<number>;
};

/**
 * One page of ticket ids, newest activity first (ties by id), with the total count (for a
 * search, what the page knows: see searchPage). Three shapes, each reading an index in order or
 * only the rows that can match (EXPLAIN in the benchmark):
 * - search: the viewer's first tickets in list order that are among the hits (searchPage); when
 *   those do not fill the page, iterate the hits (CROSS JOIN keeps them the outer loop), filter,
 *   sort; the count is what the page knows;
 * - show-all: one range of tickets_status (or tickets_updated without a status);
 * - the caller's view: "mine" UNION ALL "unassigned", each in updatedAt order, merged, so that
 *   the first page stops after 40 rows; the count is the two parts' counts.
 */
export async function listTicketIds(
  db: Database,
  viewer: Viewer,
  filters: TicketListFilters,
  searchWindow = SEARCH_WINDOW,
): Promise<TicketPage> {
  const offset = (filters.pageNumber - 1) * TICKETS_PAGE_SIZE;
  const text = filters.searchParam?.trim();
  if (text) return await searchPage(db, viewer, filters, text, offset, searchWindow);
  const rows = await pageQuery(db, viewer, filters).execute();
  const ids = rows.map((r) => r.id);
  // The count only needs queries when the page does not already tell it.
  let count = offset + ids.length;
  if (ids.length === TICKETS_PAGE_SIZE || (ids.length === 0 && offset > 0)) {
    count = !countedByTriggers(filters)
      ? await countByQuery(db, viewer, filters)
      : filters.withUnreadMessages
      ? await countNotifications(db, viewer, filters)
      : await countFromCounters(db, viewer, filters);
  }
  const hasMore = count > offset + ids.length;
  const pins = await pinnedFirst(db, viewer, filters, ids);
  return { ids: pins.ids, count, hasMore, pinned: pins.pinned };
}

/**
 * Issue 28: the caller's pinned tickets that this list holds come first on its first page and
 * are left out of the later ones (the count and the paging stay the list's own). One query over
 * at most LIMITS.pinnedTickets rows: the user's pins (ticket_pins_user's range) drive, each
 * ticket read by its rowid and filtered by the list's conditions.
 */
async function pinnedFirst(
  db: Database,
  viewer: Viewer,
  filters: TicketListFilters,
  ids: number[],
): Promise<{ ids: number[]; pinned: ReadonlySet<number> }> {
  // CROSS JOIN keeps the pins the outer loop: SQLite would otherwise walk the company's tickets
  // of the status (tickets_status) checking each against the pins.
  const rows = await db.selectFrom("ticket_pins as p").crossJoin("tickets as t")
    .whereRef("t.id", "=", "p.ticketId")
    .where("p.companyId", "=", viewer.companyId).where("p.userId", "=", viewer.userId)
    .where((eb) => conditions(eb, viewer, filters, partsOf(viewer, filters)))
    .select("t.id")
    .orderBy("t.updatedAt", "desc").orderBy("t.id", "desc").execute();
  if (rows.length === 0) return { ids, pinned: new Set() };
  const pinned = rows.map((r) => r.id);
  const rest = ids.filter((id) => !pinned.includes(id));
  return { ids: filters.pageNumber === 1 ? [...pinned, ...rest] : rest, pinned: new Set(pinned) };
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

/**
 * Lists filtered only by status, queues and who sees them are counted by ticket_counts, the
 * notifications by ticket_notification_counts.
 */
function countedByTriggers(f: TicketListFilters): boolean {
  return !f.date && !f.updatedAt && !f.users?.length && !f.tags?.length;
}

type CounterEb = ExpressionBuilder<
  { k: { companyId: number; status: string; queueId: number; userId: number; unread: number } },
  "k"
>;

/**
 * The sum of a counter table's rows (ticket_counts, ticket_notification_counts: 0 stands for "no
 * queue" / "no user") over the viewer's disjoint parts, in the list's status: one statement.
 */
async function sumCounters(
  db: Database,
  table: "ticket_counts" | "ticket_notification_counts",
  viewer: Viewer,
  f: TicketListFilters,
  parts: (eb: CounterEb) => Expression<SqlBool>[],
): Promise<number> {
  // Typed as the wider table: both share companyId, status, queueId, userId and n; only the
  // notifications' parts name `unread`.
  const total = await db.selectFrom(`${table} as k` as "ticket_notification_counts as k")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("k.n"), eb.lit(0)).as("n"))
    .where("k.companyId", "=", viewer.companyId)
    .where((eb) => {
      const all: Expression<SqlBool>[] = [eb.or(parts(eb))];
      if (f.status) all.push(eb("k.status", "=", f.status));
      return eb.and(all);
    }).executeTakeFirstOrThrow();
  return Number(total.n);
}

/**
 * The notifications' count (the same as countByQuery's: partOf's unread parts, groups left out),
 * from ticket_notification_counts (migration 0500), where `unread` is unreadMessages > 0.
 */
function countNotifications(db: Database, viewer: Viewer, f: TicketListFilters) {
  return sumCounters(db, "ticket_notification_counts", viewer, f, (eb) => {
    const inMine = eb.and([
      eb("k.unread", "=", 1),
      eb("k.queueId", "in", [0, ...viewer.queueIds]),
    ]);
    const parts = [
      eb.and([eb("k.userId", "=", viewer.userId), eb("k.unread", "=", 1)]),
      eb.and([eb("k.userId", "=", 0), inMine]),
    ];
    if (viewer.allTicket) {
      parts.push(eb.and([eb("k.userId", "=", 0), eb("k.status", "=", "pending"), eb.not(inMine)]));
    }
    return parts;
  });
}

/**
 * The same count as countByQuery, summed from ticket_counts (migration 0032): a handful of rows
 * per company instead of every matching ticket.
 */
function countFromCounters(db: Database, viewer: Viewer, f: TicketListFilters) {
  return sumCounters(db, "ticket_counts", viewer, f, (eb) => {
    const queues = (ids: readonly number[]) => eb("k.queueId", "in", [0, ...ids]);
    return partsOf(viewer, f).map((part) => {
      const all: Expression<SqlBool>[] = [];
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
    });
  });
}

function pageQuery(db: Database, viewer: Viewer, filters: TicketListFilters) {
  const offset = (filters.pageNumber - 1) * TICKETS_PAGE_SIZE;
  return listWindow(db, viewer, filters, TICKETS_PAGE_SIZE).offset(offset);
}

/**
 * How many of the viewer's newest tickets a search first looks at, per page. A common word
 * (say 'pedido': 100k messages in 66k of 100k tickets) makes the hits-driven query join, filter
 * and sort every hit (~150 ms); the viewer's first tickets in list order, checked against the
 * hits, fill a page after a few dozen (one pass over the index's hits, ~30 ms). A rarer term
 * leaves the window short of a page and the hits-driven query, cheap for few hits, answers.
 */
export const SEARCH_WINDOW = 2000;

/**
 * A search page. Its `count` is what the page knows (the tickets up to and including it): an
 * exact count would join every hit, which for a common word costs more than the page itself,
 * and the client shows counts only for the open and pending lists, never searched.
 */
async function searchPage(
  db: Database,
  viewer: Viewer,
  filters: TicketListFilters,
  text: string,
  offset: number,
  searchWindow: number,
): Promise<TicketPage> {
  if (engineOf(db) === "postgres") {
    return await postgresSearchPage(db, viewer, filters, text, offset, searchWindow);
  }
  const windowed = searchWindowQuery(db, viewer, filters, text, searchWindow);
  if (!windowed) return { ids: [], count: 0, hasMore: false };
  const { rows } = await windowed.query.execute(db);
  const inWindow = Number(rows[0]?.windowSize ?? 0);
  let ids = rows.filter((r) => r.id !== null).map((r) => Number(r.id));
  // The window is a prefix of the viewer's list, so its matches are the search's first ones:
  // exact once they reach past this page, or when the window holds every ticket of the list.
  if (ids.length <= TICKETS_PAGE_SIZE && inWindow >= windowed.size) {
    ids = await hitsPage(db, viewer, filters, text, offset);
  }
  return pageOf(ids, offset);
}

/** The page from the hits (searchQuery), when the window could not tell it. */
async function hitsPage(
  db: Database,
  viewer: Viewer,
  filters: TicketListFilters,
  text: string,
  offset: number,
) {
  const query = searchQuery(db, viewer, filters, text)!;
  return (await query.limit(TICKETS_PAGE_SIZE + 1).offset(offset).execute()).map((r) => r.id);
}

/** A search page from its ids and the one after it (hasMore). */
function pageOf(ids: number[], offset: number): TicketPage {
  const hasMore = ids.length > TICKETS_PAGE_SIZE;
  const page = hasMore ? ids.slice(0, TICKETS_PAGE_SIZE) : ids;
  return { ids: page, count: offset + page.length, hasMore };
}

/**
 * searchPage on PostgreSQL (issue 46): the same page, another shape. The viewer's window is read
 * in list order and each ticket checked on its own (its messages by messages_ticket, the words
 * checked on each body), so the page stops after the first 41 matches: a common word ('pedido',
 * in 66% of the tickets) checks ~60 tickets instead of joining its 100k messages (a hashed IN) or
 * checking the whole window before sorting it (the MATERIALIZED window loses its order). OFFSET 0
 * keeps the EXISTS a per-ticket check: without it PostgreSQL may hash every match first.
 */
async function postgresSearchPage(
  db: Database,
  viewer: Viewer,
  filters: TicketListFilters,
  text: string,
  offset: number,
  searchWindow: number,
): Promise<TicketPage> {
  const window = Math.min(searchWindow, POSTGRES_SEARCH_WINDOW);
  const windowed = postgresWindowQuery(db, viewer, filters, text, window);
  if (!windowed) return { ids: [], count: 0, hasMore: false };
  let ids = (await windowed.query.execute(db)).rows.map((r) => Number(r.id));
  if (ids.length <= TICKETS_PAGE_SIZE) {
    // Short of the page: exact only if the window held every ticket of the list.
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM ${windowed.window} w`
      .execute(db);
    if (Number(rows[0].n) >= windowed.size) ids = await hitsPage(db, viewer, filters, text, offset);
  }
  return pageOf(ids, offset);
}

/**
 * PostgreSQL's window is shorter: each of its tickets costs its messages' bodies read and
 * checked (~10 a ticket), where SQLite's index answers; a term too rare to fill the page within
 * it goes to the hits (the GIN index), cheap for few hits. 2000 made a rare word check 20,000
 * bodies (270 ms at load 20) before falling back.
 */
const POSTGRES_SEARCH_WINDOW = 300;

/** postgresSearchPage's page (and the row after it) among the window's tickets, in list order. */
function postgresWindowQuery(
  db: Database,
  viewer: Viewer,
  filters: TicketListFilters,
  text: string,
  searchWindow = POSTGRES_SEARCH_WINDOW,
) {
  const terms = searchTerms(viewer.companyId, text, "postgres");
  if (!terms) return undefined;
  const size = searchWindow * filters.pageNumber;
  const offset = (filters.pageNumber - 1) * TICKETS_PAGE_SIZE;
  const window = listWindow(db, viewer, filters, size, true);
  const matches = [];
  if (terms.contactTickets) matches.push(sql`w.id IN (${terms.contactTickets})`);
  if (terms.match) {
    matches.push(sql`EXISTS (SELECT 1 FROM messages m WHERE m.ticketId = w.id
      AND m.companyId = ${viewer.companyId} AND ${messageMatches(terms.match)} OFFSET 0)`);
  }
  const query = sql<{ id: number }>`SELECT w.id AS id FROM ${window} w
    WHERE ${sql.join(matches, sql` OR `)}
    ORDER BY w.updatedAt DESC, w.id DESC LIMIT ${TICKETS_PAGE_SIZE + 1} OFFSET ${offset}`;
  return { query, window, size };
}

/**
 * The instant a ticket's next target falls due (the first response comes before the
 * resolution); no target sorts last. A plain column: a UNION's ORDER BY names columns only.
 */
const DUE_AT = sql<string>`COALESCE(t.firstResponseDueAt, t.resolutionDueAt, '9999')`;

/** The statuses a ticket can have (db/schema.ts TicketStatus). */
const STATUSES: readonly TicketStatus[] = ["pending", "open", "closed"];

/**
 * The viewer's list in its order (every condition but the search), the first `size` rows.
 * `byStatus` splits a part without a status filter into one arm per status: tickets_user
 * (companyId, userId, status, updatedAt) then gives each arm in updatedAt order, merged, instead
 * of the caller's parts walking the company's tickets_updated looking for their few rows.
 */
function listWindow(
  db: Database,
  viewer: Viewer,
  filters: TicketListFilters,
  size: number,
  byStatus = false,
) {
  const arms = partsOf(viewer, filters).flatMap((part) =>
    byStatus && !filters.status && part !== "all"
      ? STATUSES.map((status) => ({ part, filters: { ...filters, status } }))
      : [{ part, filters }]
  );
  const timeLeft = filters.sort === "timeLeft";
  const [first, ...rest] = arms.map((arm) =>
    db.selectFrom("tickets as t").select(["t.id", "t.updatedAt"])
      .$if(timeLeft, (q) => q.select(DUE_AT.as("dueAt")))
      .where((eb) => conditions(eb, viewer, arm.filters, arm.part))
  );
  let query = first;
  for (const next of rest) query = query.unionAll(next);
  if (timeLeft) {
    return query.orderBy(sql`dueAt`).orderBy("id", "desc").limit(size);
  }
  return query.orderBy("updatedAt", "desc").orderBy("id", "desc").limit(size);
}

/**
 * The page (and the row after it) among the first SEARCH_WINDOW * pageNumber tickets of the
 * viewer's list, plus how many tickets that window holds: one row with a null id when no ticket
 * of the window matches. The outer ORDER BY restates the list's order, which a join does not
 * keep by itself.
 */
function searchWindowQuery(
  db: Database,
  viewer: Viewer,
  filters: TicketListFilters,
  text: string,
  searchWindow = SEARCH_WINDOW,
) {
  const hits = windowHits(viewer.companyId, text, engineOf(db));
  if (!hits) return undefined;
  const size = searchWindow * filters.pageNumber;
  const offset = (filters.pageNumber - 1) * TICKETS_PAGE_SIZE;
  const window = listWindow(db, viewer, filters, size, true);
  const query = sql<{ id: number | null; windowSize: number }>`WITH w AS MATERIALIZED ${window},
    page AS (SELECT m.id, m.updatedAt FROM (${hits}) m
      ORDER BY m.updatedAt DESC, m.id DESC LIMIT ${TICKETS_PAGE_SIZE + 1} OFFSET ${offset})
    SELECT page.id AS id, n.windowSize AS windowSize
    FROM (SELECT count(*) AS windowSize FROM w) n LEFT JOIN page ON 1
    ORDER BY page.updatedAt DESC, page.id DESC`;
  return { query, size };
}

/** Every matching ticket of the viewer's list, driven by the hits, newest activity first. */
function searchQuery(db: Database, viewer: Viewer, filters: TicketListFilters, text: string) {
  const hits = searchHits(viewer.companyId, text, engineOf(db));
  if (!hits) return undefined;
  const parts = partsOf(viewer, filters);
  if (engineOf(db) === "postgres") {
    // An array of ids: each read by the primary key. As a join, PostgreSQL's guess of a tsquery's
    // hits (often far too many) chose a hash join over every ticket of the table.
    return db.selectFrom("tickets as t").where(sql<boolean>`t.id = ANY(ARRAY${hits})`)
      .where((eb) => conditions(eb, viewer, filters, parts))
      .select("t.id")
      .orderBy("t.updatedAt", "desc").orderBy("t.id", "desc");
  }
  // CROSS JOIN keeps the hits the outer loop: SQLite would otherwise walk the company's tickets.
  return db.selectFrom(hits.as("h")).crossJoin("tickets as t").whereRef("t.id", "=", "h.id")
    .where((eb) => conditions(eb, viewer, filters, parts))
    .select("t.id")
    .orderBy("t.updatedAt", "desc").orderBy("t.id", "desc");
}

/** The SQL of the page query, for EXPLAIN QUERY PLAN in the benchmark. */
export function listTicketsQuery(db: Database, viewer: Viewer, filters: TicketListFilters) {
  const text = filters.searchParam?.trim();
  if (text && engineOf(db) === "postgres") {
    const windowed = postgresWindowQuery(db, viewer, filters, text);
    if (windowed) return windowed.query.compile(db);
  }
  const windowed = text ? searchWindowQuery(db, viewer, filters, text) : undefined;
  if (windowed) return windowed.query.compile(db);
  return pageQuery(db, viewer, filters).compile();
}
