import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import { jsonRows } from "../../db/json_rows.ts";
import {
  baseView,
  type MessageRow,
  type MessageView,
  type TicketView,
  ticketViewOf,
  type TicketViewRow,
} from "./view.ts";

/** A ticket's tags (ordered by name) as a JSON array, from the row aliased `t`. */
export const TAGS_JSON = sql<string>`(
  SELECT json_group_array(json_object('id', x.id, 'name', x.name, 'color', x.color))
  FROM (SELECT g.id, g.name, g.color FROM ticket_tags tt JOIN tags g ON g.id = tt.tagId
    WHERE tt.ticketId = t.id AND tt.companyId = t.companyId ORDER BY g.name) x)`;

/**
 * Whether the newest message of ticket `t` (messages_ticket, one seek) was deleted for everyone:
 * the ticket's views and the board's cards show "message deleted" then.
 */
export const LAST_MESSAGE_DELETED = sql<number>`coalesce((SELECT m.isDeleted FROM messages m
  WHERE m.ticketId = t.id ORDER BY m.createdAt DESC, m.id DESC LIMIT 1), 0)`;

/**
 * Loads views for ticket ids of one company in ONE query (tags folded in as JSON: the client's
 * per-query cost dominates the inbound pipeline, which loads a view per message); keeps the
 * given order. The rows come back as one JSON cell (db/json_rows.ts): 40 views in < 1 ms
 * instead of 3-10 ms through the client's per-cell conversion.
 */
export async function loadTicketViews(
  db: Database,
  companyId: number,
  ids: readonly number[],
): Promise<TicketView[]> {
  if (ids.length === 0) return [];
  const rows = await jsonRows<TicketViewRow>(db, viewsQuery(db, companyId, ids), VIEW_COLUMNS);
  const byId = new Map<number, TicketView>();
  for (const r of rows) byId.set(r.id, ticketViewOf(r));
  return ids.map((id) => byId.get(id)).filter((v): v is TicketView => v !== undefined);
}

function viewsQuery(db: Database, companyId: number, ids: readonly number[]) {
  return db.selectFrom("tickets as t")
    .innerJoin("contacts as c", "c.id", "t.contactId")
    .leftJoin("users as u", "u.id", "t.userId")
    .leftJoin("queues as q", "q.id", "t.queueId")
    .leftJoin("whatsapps as w", "w.id", "t.whatsappId")
    .select([
      "t.id",
      "t.uuid",
      "t.status",
      "t.contactId",
      "t.userId",
      "t.queueId",
      "t.whatsappId",
      "t.isGroup",
      "t.chatbot",
      "t.useIntegration",
      "t.integrationId",
      "t.promptId",
      "t.lastMessage",
      "t.unreadMessages",
      "t.companyId",
      "t.createdAt",
      "t.updatedAt",
      "t.firstResponseDueAt",
      "t.resolutionDueAt",
      "t.slaBreachedAt",
      "t.resolutionPausedAt",
      "t.referral as referralJson",
      "c.name as contactName",
      "c.number as contactNumber",
      "c.email as contactEmail",
      "c.profilePicUrl as contactPic",
      "c.isGroup as contactIsGroup",
      "u.name as userName",
      "q.name as queueName",
      "q.color as queueColor",
      "w.name as whatsappName",
      "w.status as whatsappStatus",
      "w.provider as whatsappProvider",
      TAGS_JSON.as("tagsJson"),
      // The newest message (messages_ticket, one seek): deleted for everyone or not.
      LAST_MESSAGE_DELETED.as("lastMessageDeleted"),
    ])
    // "+": the ids drive (rowid lookups); without statistics SQLite would otherwise walk every
    // ticket of the company through an index that starts with companyId.
    .where(sql<boolean>`+t.companyId = ${companyId}`)
    .where("t.id", "in", ids);
}

/**
 * One ticket's view row as a JSON object, for a statement that answers more than the view (the
 * conversation, server/messages/conversation_repository.ts): its SQL text, compiled once per
 * database, whose parameters are the company, then the ticket.
 */
export function ticketViewJson(db: Database): string {
  let text = viewJsonTexts.get(db);
  if (!text) {
    // Compiled with two marks that can only be the two parameters, in the order they come.
    const compiled = viewsQuery(db, -1, [-2]).compile();
    if (compiled.parameters.join() !== "-1,-2") {
      throw new Error(`ticket view's parameters changed: ${compiled.parameters.join()}`);
    }
    // PostgreSQL's compiler numbers its parameters ($1, $2): here they are plain marks like the
    // rest of the statement's, numbered with them (db/postgres_sql.ts).
    const inner = compiled.sql.replace(/\$\d+/g, "?");
    text = `(SELECT ${jsonObjectOf(VIEW_COLUMNS)} FROM (${inner}))`;
    viewJsonTexts.set(db, text);
  }
  return text;
}

const viewJsonTexts = new WeakMap<Database, string>();

/** json_object('a', "a", ...) of a row's columns (the keys are the columns' names). */
export function jsonObjectOf(columns: readonly string[], alias?: string): string {
  const from = alias ? `${alias}.` : "";
  return `json_object(${columns.map((c) => `'${c}', ${from}"${c}"`).join(", ")})`;
}

/** Every column of TicketViewRow, in a form the compiler keeps complete. */
const VIEW_FIELDS: Record<keyof TicketViewRow, true> = {
  id: true,
  uuid: true,
  status: true,
  contactId: true,
  userId: true,
  queueId: true,
  whatsappId: true,
  isGroup: true,
  chatbot: true,
  useIntegration: true,
  integrationId: true,
  promptId: true,
  lastMessage: true,
  lastMessageDeleted: true,
  unreadMessages: true,
  companyId: true,
  createdAt: true,
  updatedAt: true,
  firstResponseDueAt: true,
  resolutionDueAt: true,
  slaBreachedAt: true,
  resolutionPausedAt: true,
  contactName: true,
  contactNumber: true,
  contactEmail: true,
  contactPic: true,
  contactIsGroup: true,
  userName: true,
  queueName: true,
  queueColor: true,
  whatsappName: true,
  whatsappStatus: true,
  whatsappProvider: true,
  tagsJson: true,
  referralJson: true,
};
export const VIEW_COLUMNS = Object.keys(VIEW_FIELDS) as (keyof TicketViewRow)[];

export async function loadTicketView(
  db: Database,
  companyId: number,
  id: number,
): Promise<TicketView | undefined> {
  return (await loadTicketViews(db, companyId, [id]))[0];
}

/** Views for message rows of one company, with their quoted messages loaded in one query. */
export async function messageViews(
  db: Database,
  companyId: number,
  rows: readonly MessageRow[],
): Promise<MessageView[]> {
  const quotedIds = [
    ...new Set(rows.map((m) => m.quotedMsgId).filter((id): id is number => id !== null)),
  ];
  const quoted = quotedIds.length === 0 ? [] : await db.selectFrom("messages").selectAll()
    .where(sql<boolean>`+companyId = ${companyId}`).where("id", "in", quotedIds).execute();
  const quotedById = new Map(quoted.map((q) => [q.id, baseView(q)]));
  return rows.map((m) => ({
    ...baseView(m),
    quotedMsg: m.quotedMsgId === null ? null : quotedById.get(m.quotedMsgId) ?? null,
  }));
}
