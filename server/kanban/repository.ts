import { type Expression, type ExpressionBuilder, sql, type SqlBool } from "kysely";
import type { Database } from "../../db/client.ts";
import type { DB } from "../../db/schema.ts";
import type { KanbanCard, KanbanPage } from "../../contract/kanban_types.ts";
import { pageAnswer, pageWindow } from "../paging.ts";
import type { Viewer } from "../tickets/access.ts";
import { LAST_MESSAGE_DELETED } from "../tickets/view_repository.ts";

export type { KanbanCard, KanbanPage };

/** Cards per lane page: a board shows a few lanes side by side; more load as a lane scrolls. */
export const KANBAN_PAGE_SIZE = 20;

/** "open": tickets without a kanban tag ('Em aberto'); a number: the kanban tag's lane. */
export type Lane = "open" | number;

type Eb = ExpressionBuilder<DB & { t: DB["tickets"] }, "t">;

/**
 * Which tickets a board holds: `onKanbanBoard` of contract/ticket_audience.ts (a view of the
 * audience rule) as SQL; tests/api/ticket_audience_property_test.ts proves them equal.
 */
function onBoard(eb: Eb, viewer: Viewer, queueIds: number[] | undefined): Expression<SqlBool> {
  const all: Expression<SqlBool>[] = [
    eb("t.companyId", "=", viewer.companyId),
    eb("t.status", "in", ["open", "pending"]),
  ];
  let queues = queueIds;
  if (!viewer.isAdmin) {
    queues = (queues ?? viewer.queueIds).filter((id) => viewer.queueIds.includes(id));
    all.push(eb.or([eb("t.userId", "is", null), eb("t.userId", "=", viewer.userId)]));
  }
  // The tickets without a queue are on every board, as every user sees them in /tickets
  // (server/tickets/access.ts) and as the specification's client expects: a user without queues
  // asking `queueIds=[]` gets those, not an empty board (issue 25 item 4).
  if (queues !== undefined) {
    const none = eb("t.queueId", "is", null);
    all.push(queues.length ? eb.or([eb("t.queueId", "in", queues), none]) : none);
  }
  return eb.and(all);
}

/** The ticket carries a kanban tag (so it is not in 'Em aberto'). */
function kanbanTagOf() {
  return (eb: Eb) =>
    eb.exists(
      eb.selectFrom("ticket_tags as tt").innerJoin("tags as g", "g.id", "tt.tagId")
        .select(sql`1`.as("one")).whereRef("tt.ticketId", "=", "t.id").where("g.kanban", "=", 1),
    );
}

/** The tickets of a lane (exported for tests/bench/kanban_bench.ts to print its query plan). */
export function laneQuery(
  db: Database,
  viewer: Viewer,
  lane: Lane | undefined,
  queueIds: number[] | undefined,
) {
  let q = db.selectFrom("tickets as t").where((eb) => onBoard(eb, viewer, queueIds));
  if (lane === "open") q = q.where((eb) => eb.not(kanbanTagOf()(eb)));
  else if (lane !== undefined) {
    // Driven from the lane's tag (ticket_tags_tag), never by walking the company's tickets.
    q = q.where(
      "t.id",
      "in",
      (eb) =>
        eb.selectFrom("ticket_tags as tt").innerJoin("tags as g", "g.id", "tt.tagId")
          .select("tt.ticketId").where("tt.tagId", "=", lane)
          .where("tt.companyId", "=", viewer.companyId).where("g.kanban", "=", 1),
    );
  }
  return q;
}

/** One page of a lane, newest activity first. */
export async function pageLane(
  db: Database,
  viewer: Viewer,
  lane: Lane | undefined,
  queueIds: number[] | undefined,
  pageNumber: number,
): Promise<KanbanPage> {
  const q = laneQuery(db, viewer, lane, queueIds);
  const window = pageWindow(pageNumber, KANBAN_PAGE_SIZE);
  const rows = await q.innerJoin("contacts as c", "c.id", "t.contactId")
    .select([
      "t.id",
      "t.uuid",
      "t.status",
      "t.lastMessage",
      "t.updatedAt",
      "t.queueId",
      "t.userId",
      "t.isGroup",
      "c.id as contactId",
      "c.name as contactName",
      "c.number as contactNumber",
      LAST_MESSAGE_DELETED.as("lastMessageDeleted"),
    ])
    // "+" keeps SQLite off tickets_updated, whose order would walk every ticket of the company
    // (closed ones too) to find a lane's few; the lane's own rows are sorted instead.
    .orderBy(sql`+t.updatedAt desc`).orderBy("t.id", "desc")
    .limit(window.limit).offset(window.offset).execute();
  const total = await q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const tags = await tagsOf(db, viewer.companyId, rows.map((r) => r.id));
  const cards: KanbanCard[] = rows.map((r) => ({
    id: r.id,
    uuid: r.uuid,
    status: r.status as KanbanCard["status"],
    lastMessage: r.lastMessage,
    lastMessageDeleted: r.lastMessageDeleted === 1,
    updatedAt: r.updatedAt,
    queueId: r.queueId,
    userId: r.userId,
    isGroup: r.isGroup === 1,
    contact: { id: r.contactId, name: r.contactName, number: r.contactNumber },
    tags: tags.get(r.id) ?? [],
  }));
  return pageAnswer("tickets", cards, Number(total.n), window);
}

/** The tags of these tickets, by ticket (one query). */
async function tagsOf(db: Database, companyId: number, ticketIds: number[]) {
  const byTicket = new Map<number, KanbanCard["tags"]>();
  if (ticketIds.length === 0) return byTicket;
  const rows = await db.selectFrom("ticket_tags as tt").innerJoin("tags as g", "g.id", "tt.tagId")
    .select(["tt.ticketId", "g.id", "g.name", "g.color", "g.kanban"])
    .where("tt.companyId", "=", companyId).where("tt.ticketId", "in", ticketIds)
    .orderBy("g.name").execute();
  for (const r of rows) {
    const list = byTicket.get(r.ticketId) ?? [];
    list.push({ id: r.id, name: r.name, color: r.color, kanban: r.kanban === 1 });
    byTicket.set(r.ticketId, list);
  }
  return byTicket;
}

/** The kanban tags a ticket carries now. */
export async function kanbanTagIdsOf(
  db: Database,
  companyId: number,
  ticketId: number,
): Promise<number[]> {
  const rows = await db.selectFrom("ticket_tags as tt").innerJoin("tags as g", "g.id", "tt.tagId")
    .select("tt.tagId").where("tt.companyId", "=", companyId).where("tt.ticketId", "=", ticketId)
    .where("g.kanban", "=", 1).execute();
  return rows.map((r) => r.tagId);
}

export async function removeTicketTags(
  db: Database,
  companyId: number,
  ticketId: number,
  tagIds: number[],
) {
  if (tagIds.length === 0) return;
  await db.deleteFrom("ticket_tags").where("companyId", "=", companyId)
    .where("ticketId", "=", ticketId).where("tagId", "in", tagIds).execute();
}

/** Adds a tag to a ticket; already there is fine (the primary key stops a second row). */
export async function addTicketTag(
  db: Database,
  companyId: number,
  ticketId: number,
  tagId: number,
) {
  await db.insertInto("ticket_tags").values({ companyId, ticketId, tagId })
    .onConflict((oc) => oc.doNothing()).execute();
}
