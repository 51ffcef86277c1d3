import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import { jsonRows } from "../../db/json_rows.ts";
import type { Ticket } from "../../db/schema.ts";
import type { MessageRow } from "../tickets/view.ts";
import { isPostgres } from "../../db/engine.ts";
import { ftsQuery, tsQuery } from "./fts.ts";
import { MESSAGE_COLUMNS, MESSAGES_PAGE_SIZE } from "./repository.ts";

/** Issue 28: how many hits the search inside a conversation lists (the newest). */
export const CONVERSATION_HITS = 50;

/**
 * PostgreSQL's message search (issue 46): the body and transcript of messages `m` (what SQLite's
 * messages_fts holds) have every word of a tsQuery, through the GIN index messages_search
 * (migration 0760: this expression is the index's, word for word).
 */
export function messageMatches(query: string) {
  return sql<boolean>`to_tsvector('simple', f_unaccent(m.body || ' ' || coalesce(m.transcript, '')))
    @@ to_tsquery('simple', ${query})`;
}

/** messages_fts's rowid is ticketId * 2^32 + message id (migration 0030). */
const TICKET_SPAN = 4294967296;

/**
 * Issue 28 item 3: the messages of every ticket of the contact in the company that contain every
 * word of `text` (messages_fts; whole words, accents ignored), newest first. The contact's
 * tickets drive (tickets_contact) and each reads only its own range of the index's rowids (FTS5
 * takes the rowid bounds with the MATCH), so a common word costs what the contact has, not what
 * the company has; the hits' rows come by primary key.
 */
export async function searchContactMessages(
  db: Database,
  companyId: number,
  contactId: number,
  text: string,
): Promise<MessageRow[]> {
  // Whole words: the rowid bounds make a word's lookup cost what the contact has (0.1 ms on the
  // benchmark's million messages); a prefix ("pedi"*) first merges every matching word's entries
  // in the company (50-90 ms for a common one) and is left to the ticket list's search.
  if (isPostgres(db)) {
    const query = tsQuery(text, false);
    if (!query) return [];
    const found = db.selectFrom("messages as m").innerJoin("tickets as t", "t.id", "m.ticketId")
      .select(MESSAGE_COLUMNS.map((column) => `m.${column}` as const))
      .where("t.companyId", "=", companyId).where("t.contactId", "=", contactId)
      .where("m.companyId", "=", companyId).where(messageMatches(query))
      .orderBy("m.createdAt", "desc").orderBy("m.id", "desc").limit(CONVERSATION_HITS);
    // deno-lint-ignore no-explicit-any
    return await jsonRows<MessageRow>(db, found as any, MESSAGE_COLUMNS);
  }
  const match = ftsQuery(text, false);
  if (!match) return [];
  const hits = sql<{ id: number }>`SELECT f.rowid & ${TICKET_SPAN - 1} AS id
    FROM tickets t CROSS JOIN messages_fts f
    WHERE +t.companyId = ${companyId} AND t.contactId = ${contactId}
      AND f.rowid BETWEEN t.id * ${TICKET_SPAN} AND t.id * ${TICKET_SPAN} + ${TICKET_SPAN - 1}
      AND messages_fts MATCH ${match}`;
  const query = db.selectFrom("messages").select(MESSAGE_COLUMNS)
    .where(sql<boolean>`+companyId = ${companyId}`)
    .where("id", "in", sql<number>`(${hits})`)
    .orderBy("createdAt", "desc").orderBy("id", "desc").limit(CONVERSATION_HITS);
  return await jsonRows<MessageRow>(db, query, MESSAGE_COLUMNS);
}

/**
 * The page (MESSAGES_PAGE_SIZE, 1 the newest) of a conversation (conversationPage's: the contact's
 * tickets on one connection) that holds the message: how many of its messages come after it.
 */
export async function pageOfMessage(
  db: Database,
  companyId: number,
  conversation: Pick<Ticket, "contactId" | "whatsappId">,
  message: { id: number; createdAt: string },
): Promise<number> {
  const tickets = db.selectFrom("tickets").select("tickets.id")
    .where(sql<boolean>`+tickets.companyId = ${companyId}`)
    .where("tickets.contactId", "=", conversation.contactId)
    .where(
      "tickets.whatsappId",
      conversation.whatsappId === null ? "is" : "=",
      conversation.whatsappId,
    );
  const row = await db.selectFrom("messages").select((eb) => eb.fn.countAll<number>().as("n"))
    .where(sql<boolean>`+companyId = ${companyId}`).where("ticketId", "in", tickets)
    .where((eb) =>
      eb.or([
        eb("createdAt", ">", message.createdAt),
        eb.and([eb("createdAt", "=", message.createdAt), eb("id", ">", message.id)]),
      ])
    ).executeTakeFirstOrThrow();
  return Math.floor(Number(row.n) / MESSAGES_PAGE_SIZE) + 1;
}

/** A message's place: its conversation (contact, connection) and its order key. */
export async function messagePlace(db: Database, companyId: number, id: number) {
  return await db.selectFrom("messages as m")
    .innerJoin("tickets as t", "t.id", "m.ticketId")
    .select(["m.id", "m.createdAt", "t.contactId", "t.whatsappId"])
    .where("m.companyId", "=", companyId).where("t.companyId", "=", companyId)
    .where("m.id", "=", id).executeTakeFirst();
}
