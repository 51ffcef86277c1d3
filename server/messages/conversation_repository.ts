import { CompiledQuery } from "kysely";
import type { Database } from "../../db/client.ts";
import type { Ticket } from "../../db/schema.ts";
import { jsonObjectOf, ticketViewJson } from "../tickets/view_repository.ts";
import type { MessageViewRow, TicketViewRow } from "../tickets/view.ts";
import { MESSAGES_PAGE_SIZE } from "./repository.ts";

/** The columns a message's view reads (baseView), and no other: the conversation's answer. */
const VIEW_FIELDS: Record<keyof MessageViewRow, true> = {
  id: true,
  wid: true,
  ticketId: true,
  contactId: true,
  body: true,
  fromMe: true,
  mediaType: true,
  mediaUrl: true,
  mediaName: true,
  isDeleted: true,
  isEdited: true,
  ack: true,
  read: true,
  sendError: true,
  mediaPending: true,
  isForwarded: true,
  previousBodies: true,
  transcript: true,
  transcriptError: true,
  reaction: true,
  ownReaction: true,
  createdAt: true,
  updatedAt: true,
};
const VIEW_COLUMNS = Object.keys(VIEW_FIELDS);

export type ConversationRow = MessageViewRow & { quoted: MessageViewRow | null };

export type Conversation = {
  ticket: TicketViewRow;
  /** The page's messages, newest first. */
  rows: ConversationRow[];
  count: number;
  hasMore: boolean;
};

/**
 * The conversation's tickets: the contact's tickets on one connection (seeds/000 section 2
 * 'Ticket view': the chat draws 'conversation ended/started' between them). `ticket`: the
 * contact and connection of the ticket that is the statement's first parameter; `given`: both
 * as parameters (a message's own conversation, `around`).
 */
function conversationTickets(of: "ticket" | "given"): string {
  const key = (column: string) =>
    of === "given" ? "?" : `(SELECT k.${column} FROM tickets k WHERE k.id = ? AND k.companyId = ?)`;
  // "+": the contact's tickets (tickets_contact_whatsapp) drive, not the company's index.
  return `SELECT t.id FROM tickets t WHERE +t.companyId = ?
    AND t.contactId = ${key("contactId")} AND t.whatsappId IS ${key("whatsappId")}`;
}

/**
 * ONE statement (one round trip to the database thread, issue 49) for GET /api/messages: the
 * ticket's view row, the page of its conversation with each message's quoted message, and the
 * conversation's size. The page's ids and the count come from messages_ticket alone (ticketId,
 * createdAt, id: covering); only the page's rows are read, and of them only the view's columns
 * (never the provider's payload). "+companyId" on the rows: the page's ids drive (rowid
 * lookups); without it SQLite walks the company's messages (messages_company) to join them.
 * Texts built once per database.
 */
function conversationSql(db: Database, of: "ticket" | "given"): string {
  const cache = of === "ticket" ? byTicket : byGiven;
  let text = cache.get(db);
  if (text) return text;
  const tickets = conversationTickets(of);
  text = `SELECT json_object(
    'ticket', json(${ticketViewJson(db)}),
    'count', (SELECT count(*) FROM messages c WHERE c.ticketId IN (${tickets})),
    'rows', json((SELECT json_group_array(json_object(${
    VIEW_COLUMNS.map((c) => `'${c}', m."${c}"`).join(", ")
  }, 'quoted', json((SELECT ${jsonObjectOf(VIEW_COLUMNS, "q")} FROM messages q
        WHERE q.id = m.quotedMsgId AND +q.companyId = ?))))
      FROM (SELECT p.id FROM messages p WHERE p.ticketId IN (${tickets})
        ORDER BY p.createdAt DESC, p.id DESC LIMIT ? OFFSET ?) page
      JOIN messages m ON m.id = page.id WHERE +m.companyId = ?))
  ) AS answer`;
  cache.set(db, text);
  return text;
}
const byTicket = new WeakMap<Database, string>();
const byGiven = new WeakMap<Database, string>();

/**
 * Page `pageNumber` (1: the newest) of the conversation of ticket `ticketId`, or of `conversation`
 * when given (a message's own, `around`), with the ticket's view row; undefined when the company
 * has no such ticket.
 */
export async function loadConversation(
  db: Database,
  companyId: number,
  ticketId: number,
  pageNumber: number,
  conversation?: Pick<Ticket, "contactId" | "whatsappId">,
): Promise<Conversation | undefined> {
  const key = conversation
    ? [conversation.contactId, conversation.whatsappId]
    : [ticketId, companyId, ticketId, companyId];
  const offset = (pageNumber - 1) * MESSAGES_PAGE_SIZE;
  const parameters = [
    companyId, // the view: company, ticket
    ticketId,
    companyId, // the count's tickets
    ...key,
    companyId, // the quoted message
    companyId, // the page's tickets
    ...key,
    MESSAGES_PAGE_SIZE,
    offset,
    companyId, // the page's rows
  ];
  const result = await db.executeQuery<{ answer: string }>(
    CompiledQuery.raw(conversationSql(db, conversation ? "given" : "ticket"), parameters),
  );
  const answer = JSON.parse(result.rows[0].answer) as {
    ticket: TicketViewRow | null;
    count: number;
    rows: ConversationRow[];
  };
  if (!answer.ticket) return undefined;
  const count = Number(answer.count);
  // json_group_array keeps no order: the conversation's (createdAt, then id), newest first.
  const rows = answer.rows.sort((a, b) =>
    a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.id - a.id
  );
  return { ticket: answer.ticket, rows, count, hasMore: count > offset + rows.length };
}
