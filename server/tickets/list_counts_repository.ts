import type { Expression, ExpressionBuilder, SqlBool } from "kysely";
import type { Database } from "../../db/client.ts";
import type { Viewer } from "./access.ts";
import { conditions, partsOf, type TicketListFilters } from "./list_conditions_repository.ts";

/**
 * How many tickets a list holds (its `count`): from the counter tables the triggers keep when the
 * list is filtered only by status, queues and who sees it, else by counting the matching rows.
 */
export function countTickets(db: Database, viewer: Viewer, filters: TicketListFilters) {
  if (!countedByTriggers(filters)) return countByQuery(db, viewer, filters);
  return filters.withUnreadMessages
    ? countNotifications(db, viewer, filters)
    : countFromCounters(db, viewer, filters);
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
