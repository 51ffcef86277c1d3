import { CompiledQuery } from "kysely";
import type { Database } from "../../../db/client.ts";
import type { Message, Ticket } from "../../../db/schema.ts";

/**
 * The two writes every inbound message makes, as plain SQL text returning as few columns as
 * possible: at a thousand messages a second the query builder's and @libsql/client's per-column
 * costs are measurable (see tests/bench and lookup.ts).
 */
const MESSAGE_COLUMNS = [
  "companyId",
  "ticketId",
  "contactId",
  "whatsappId",
  "wid",
  "remoteJid",
  "participant",
  "body",
  "fromMe",
  "mediaType",
  "mediaUrl",
  "mediaName",
  "mediaMimetype",
  "ack",
  "read",
  "quotedMsgId",
  "dataJson",
  "createdAt",
  "updatedAt",
] as const;

export type InboundMessageValues = { [K in typeof MESSAGE_COLUMNS[number]]: Message[K] };

// messages_wid (whatsappId, wid) stops a redelivered message: nothing is inserted, no row returned.
const INSERT_MESSAGE = `INSERT INTO messages (${MESSAGE_COLUMNS.join(", ")}) VALUES (${
  MESSAGE_COLUMNS.map(() => "?").join(", ")
}) ON CONFLICT DO NOTHING RETURNING id`;

/** Inserts the message unless its (connection, WhatsApp id) is stored; undefined then. */
export async function insertMessageOnce(
  db: Database,
  values: InboundMessageValues,
): Promise<Message | undefined> {
  const result = await db.executeQuery<{ id: number }>(
    CompiledQuery.raw(INSERT_MESSAGE, MESSAGE_COLUMNS.map((c) => values[c])),
  );
  const id = result.rows[0]?.id;
  // The row is what we wrote plus the columns' defaults (0010 adds sendError).
  return id === undefined
    ? undefined
    : { ...values, id, isDeleted: 0, isEdited: 0, sendError: null };
}

const TOUCH_TICKET =
  `UPDATE tickets SET lastMessage = ?, updatedAt = ?, unreadMessages = unreadMessages + ?
  WHERE id = ? RETURNING unreadMessages`;

/**
 * A new message on the ticket: last message, time (it moves to the top), unread count.
 * Returns the new unread count.
 */
export async function touchTicket(
  db: Database,
  ticketId: number,
  lastMessage: string,
  updatedAt: string,
  unreadIncrement: number,
): Promise<number> {
  const result = await db.executeQuery<Pick<Ticket, "unreadMessages">>(
    CompiledQuery.raw(TOUCH_TICKET, [lastMessage, updatedAt, unreadIncrement, ticketId]),
  );
  const row = result.rows[0];
  if (!row) throw new Error(`ticket ${ticketId} vanished while storing a message`);
  return row.unreadMessages;
}
