import { CompiledQuery } from "kysely";
import type { Database } from "../../../db/client.ts";
import { editedValues } from "../../messages/repository.ts";
import type {
  Contact,
  Message,
  NewMessage,
  NewTicket,
  Ticket,
  TicketUpdate,
} from "../../../db/schema.ts";

/**
 * SQL of the inbound pipeline (pipeline.ts, contacts.ts, updates.ts), every query scoped by the
 * connection's company. Its one read before writing is lookup_repository.ts.
 *
 * The two writes every inbound message makes are plain SQL text returning as few columns as
 * possible: at a thousand messages a second the query builder's and @libsql/client's per-column
 * costs are measurable (see tests/bench and lookup_repository.ts).
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
  "mediaPending",
  "ack",
  "read",
  "quotedMsgId",
  "isForwarded",
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
  return id === undefined ? undefined : {
    ...values,
    id,
    isDeleted: 0,
    isEdited: 0,
    sendError: null,
    previousBodies: null,
    transcript: null,
    transcriptError: null,
    reaction: null,
    ownReaction: null,
  };
}

const TOUCH_TICKET =
  `UPDATE tickets SET lastMessage = ?, updatedAt = ?, unreadMessages = unreadMessages + ?
  WHERE id = ? AND companyId = ? RETURNING unreadMessages`;

/**
 * A new message on the ticket: last message, time (it moves to the top), unread count.
 * Returns the new unread count.
 */
export async function touchTicket(
  db: Database,
  companyId: number,
  ticketId: number,
  lastMessage: string,
  updatedAt: string,
  unreadIncrement: number,
): Promise<number> {
  const result = await db.executeQuery<Pick<Ticket, "unreadMessages">>(
    CompiledQuery.raw(TOUCH_TICKET, [lastMessage, updatedAt, unreadIncrement, ticketId, companyId]),
  );
  const row = result.rows[0];
  if (!row) throw new Error(`ticket ${ticketId} vanished while storing a message`);
  return row.unreadMessages;
}

/** The message stored under a (connection, WhatsApp id), if any. */
export async function messageByWid(
  db: Database,
  companyId: number,
  whatsappId: number,
  wid: string,
): Promise<{ id: number; ticketId: number } | undefined> {
  return await db.selectFrom("messages").select(["id", "ticketId"])
    .where("whatsappId", "=", whatsappId).where("wid", "=", wid)
    .where("companyId", "=", companyId).executeTakeFirst();
}

/**
 * Opens a ticket unless the contact already has a pending/open one on the connection
 * (tickets_one_open): undefined then.
 */
export async function openTicketOnce(db: Database, values: NewTicket): Promise<Ticket | undefined> {
  return await db.insertInto("tickets").values(values).onConflict((oc) => oc.doNothing())
    .returningAll().executeTakeFirst();
}

/** The contact's pending/open ticket on the connection (another process opened it first). */
export async function openTicketOf(
  db: Database,
  companyId: number,
  contactId: number,
  whatsappId: number,
): Promise<{ id: number }> {
  return await db.selectFrom("tickets").select("id").where("companyId", "=", companyId)
    .where("contactId", "=", contactId).where("whatsappId", "=", whatsappId)
    .where("status", "<>", "closed").executeTakeFirstOrThrow();
}

/** What a bot changed on the ticket (or the end of a wait for a rating). */
export async function changeTicket(
  db: Database,
  companyId: number,
  ticketId: number,
  changes: TicketUpdate,
) {
  await db.updateTable("tickets").set(changes).where("id", "=", ticketId)
    .where("companyId", "=", companyId).execute();
}

/** A rating answer: undefined when its (connection, WhatsApp id) is already stored. */
export async function insertMessageUnlessStored(
  db: Database,
  values: NewMessage,
): Promise<Message | undefined> {
  return await db.insertInto("messages").values(values).onConflict((oc) => oc.doNothing())
    .returningAll().executeTakeFirst();
}

export async function insertRating(
  db: Database,
  companyId: number,
  values: { ticketId: number; userId: number | null; rate: number; createdAt: string },
) {
  await db.insertInto("user_ratings").values({ ...values, companyId }).execute();
}

/** Contacts whose number is `number` or whose LID is `lid`. */
export async function contactsByIdentity(
  db: Database,
  companyId: number,
  number: string,
  lid: string | undefined,
): Promise<Contact[]> {
  return await db.selectFrom("contacts").selectAll()
    .where("companyId", "=", companyId)
    .where((eb) => {
      const ors = [eb("number", "=", number)];
      if (lid) ors.push(eb("lid", "=", lid));
      return eb.or(ors);
    }).execute();
}

/** The first contact (by id) whose number is `number` or whose LID is `lid`. */
export async function firstContactByIdentity(
  db: Database,
  companyId: number,
  number: string,
  lid: string | undefined,
): Promise<Contact | undefined> {
  return await db.selectFrom("contacts").selectAll().where("companyId", "=", companyId)
    .where((eb) => eb.or([eb("number", "=", number), ...(lid ? [eb("lid", "=", lid)] : [])]))
    .orderBy("id").executeTakeFirst();
}

/** A contact learnt from WhatsApp; undefined when its number or LID is taken meanwhile. */
export async function insertContactOnce(
  db: Database,
  companyId: number,
  values: {
    name: string;
    number: string;
    lid: string | null;
    isGroup: number;
    whatsappId: number;
    now: string;
  },
): Promise<Contact | undefined> {
  const { now, ...fields } = values;
  return await db.insertInto("contacts").values({
    uuid: crypto.randomUUID(),
    companyId,
    ...fields,
    createdAt: now,
    updatedAt: now,
  }).onConflict((oc) => oc.doNothing()).returningAll().executeTakeFirst();
}

/** The LID moves to another contact of the same person (the phone-number one). */
export async function clearContactLid(
  db: Database,
  companyId: number,
  contactId: number,
  now: string,
) {
  await db.updateTable("contacts").set({ lid: null, updatedAt: now })
    .where("companyId", "=", companyId).where("id", "=", contactId).execute();
}

/** Changes what WhatsApp told of a contact; throws when the number or LID is another's. */
export async function patchContact(
  db: Database,
  companyId: number,
  contactId: number,
  patch: Partial<Pick<Contact, "number" | "lid" | "name" | "profilePicUrl">>,
  now: string,
): Promise<Contact> {
  return await db.updateTable("contacts").set({ ...patch, updatedAt: now })
    .where("companyId", "=", companyId).where("id", "=", contactId).returningAll()
    .executeTakeFirstOrThrow();
}

/** A new contact's profile picture; undefined when the contact is gone meanwhile. */
export async function setContactPicture(
  db: Database,
  companyId: number,
  contactId: number,
  profilePicUrl: string,
  now: string,
): Promise<Contact | undefined> {
  return await db.updateTable("contacts").set({ profilePicUrl, updatedAt: now })
    .where("companyId", "=", companyId).where("id", "=", contactId).returningAll()
    .executeTakeFirst();
}

/** A change to a stored message made on the phone. */
export type MessageChange =
  | { type: "ack"; ack: number }
  | { type: "edit"; body: string }
  | { type: "revoke" }
  | { type: "failed"; code: string }
  | { type: "reaction"; emoji: string };

/**
 * Applies an ack (never lowering the stored one), an edit or a deletion (not to a deleted
 * message) to the message of a (connection, WhatsApp id); undefined when nothing changed.
 */
export async function changeMessage(
  db: Database,
  companyId: number,
  whatsappId: number,
  wid: string,
  change: MessageChange,
  now: string,
): Promise<Message | undefined> {
  const query = db.updateTable("messages").where("companyId", "=", companyId)
    .where("whatsappId", "=", whatsappId).where("wid", "=", wid);
  switch (change.type) {
    case "ack":
      return await query.where("ack", "<", change.ack).set({ ack: change.ack, updatedAt: now })
        .returningAll().executeTakeFirst();
    case "edit":
      // The replaced text is kept (previousBodies), as for our own edits.
      return await query.where("isDeleted", "=", 0).where("body", "<>", change.body)
        .set(editedValues(change.body, now)).returningAll().executeTakeFirst();
    case "revoke":
      return await query.where("isDeleted", "=", 0).set({ isDeleted: 1, updatedAt: now })
        .returningAll().executeTakeFirst();
    case "reaction": {
      // Removed ("") is null; the same reaction again changes nothing.
      const reaction = change.emoji || null;
      return await query.where((eb) =>
        reaction === null ? eb("reaction", "is not", null) : eb("reaction", "is not", reaction)
      ).set({ reaction, updatedAt: now }).returningAll().executeTakeFirst();
    }
    case "failed":
      return await query.where((eb) =>
        eb.or([eb("sendError", "is", null), eb("sendError", "<>", change.code)])
      ).set({ sendError: change.code, updatedAt: now }).returningAll().executeTakeFirst();
  }
}
