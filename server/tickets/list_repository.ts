import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import type { TicketStatus } from "../../db/schema.ts";
import { searchFilter as contactSearchFilter } from "../contacts/repository.ts";
import { ftsQuery, tsQuery } from "../messages/fts.ts";
import { messageMatches } from "../messages/search_repository.ts";
import { type Engine, engineOf } from "../../db/engine.ts";
import type { Viewer } from "./access.ts";
import { countTickets } from "./list_counts_repository.ts";
import {
  conditions,
  partsOf,
  type TicketListFilters,
  TICKETS_PAGE_SIZE,
} from "./list_conditions_repository.ts";

export { type TicketListFilters, TICKETS_PAGE_SIZE };

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
    count = await countTickets(db, viewer, filters);
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
