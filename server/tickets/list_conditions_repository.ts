import { type Expression, type ExpressionBuilder, sql, type SqlBool } from "kysely";
import type { DB, TicketStatus } from "../../db/schema.ts";
import type { Viewer } from "./access.ts";
import { isAllowed } from "../auth/policy.ts";

/*
 * The ticket lists' filters and the one audience rule as SQL conditions, shared by the page
 * (list_repository.ts) and its count (list_counts_repository.ts).
 */

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

export type Scope = DB & { t: DB["tickets"] };
export type Eb = ExpressionBuilder<Scope, "t">;

export function inQueuesOrNone(eb: Eb, queueIds: readonly number[]): Expression<SqlBool> {
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
export type Part = "all" | "mine" | "unassigned" | "allPending";

export function partOf(
  eb: Eb,
  viewer: Viewer,
  f: TicketListFilters,
  part: Part,
): Expression<SqlBool> {
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

export function partsOf(viewer: Viewer, f: TicketListFilters): Part[] {
  if (f.withUnreadMessages) {
    return viewer.allTicket ? ["mine", "unassigned", "allPending"] : ["mine", "unassigned"];
  }
  return f.showAll && isAllowed(viewer, "ticket:see-all") ? ["all"] : ["mine", "unassigned"];
}

/** Every condition but the search: company, status, the part, dates, users, tags, unread. */
export function conditions(eb: Eb, viewer: Viewer, f: TicketListFilters, part: Part | Part[]) {
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
