import { type ExpressionBuilder, sql } from "kysely";
import type { Database } from "../../db/client.ts";
import type { DB, Message } from "../../db/schema.ts";
import type { MessageRow } from "../tickets/view.ts";

/** Whaticket's message page size; older pages load when scrolled near the top (seeds/000 s. 9). */
export const MESSAGES_PAGE_SIZE = 20;

/** Every column a message view reads; a new column of MessagesTable must be added here. */
const MESSAGE_FIELDS: Record<keyof MessageRow, true> = {
  id: true,
  companyId: true,
  ticketId: true,
  contactId: true,
  whatsappId: true,
  wid: true,
  remoteJid: true,
  participant: true,
  body: true,
  fromMe: true,
  mediaType: true,
  mediaUrl: true,
  mediaName: true,
  isDeleted: true,
  isEdited: true,
  ack: true,
  read: true,
  quotedMsgId: true,
  mediaMimetype: true,
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
export const MESSAGE_COLUMNS = Object.keys(MESSAGE_FIELDS) as (keyof MessageRow)[];

/** Marks the contact's messages of a ticket read and its unread counter 0; true if anything changed. */
export async function markTicketRead(
  db: Database,
  companyId: number,
  ticketId: number,
  now: string,
): Promise<boolean> {
  const ticket = await db.updateTable("tickets").set({ unreadMessages: 0 })
    .where("id", "=", ticketId).where("companyId", "=", companyId)
    .where("unreadMessages", ">", 0).executeTakeFirst();
  const messages = await db.updateTable("messages").set({ read: 1, updatedAt: now })
    .where("ticketId", "=", ticketId).where(sql<boolean>`+companyId = ${companyId}`)
    .where("read", "=", 0).where("fromMe", "=", 0).executeTakeFirst();
  return Number(ticket.numUpdatedRows) > 0 || Number(messages.numUpdatedRows) > 0;
}

export async function findMessage(
  db: Database,
  companyId: number,
  id: number,
): Promise<Message | undefined> {
  return await db.selectFrom("messages").selectAll().where("id", "=", id)
    .where("companyId", "=", companyId).executeTakeFirst();
}

/** The attendant's reaction on a message (null: removed); the row as it now is. */
export async function setOwnReaction(
  db: Database,
  companyId: number,
  id: number,
  ownReaction: string | null,
  now: string,
): Promise<Message | undefined> {
  return await db.updateTable("messages").set({ ownReaction, updatedAt: now })
    .where("id", "=", id).where("companyId", "=", companyId).returningAll().executeTakeFirst();
}

/** The provider's raw payload of a stored message (a resend's or a retry's source), if kept. */
export async function storedMessageData(
  db: Database,
  companyId: number,
  whatsappId: number,
  wid: string,
): Promise<string | null | undefined> {
  const row = await db.selectFrom("messages").select(["dataJson"])
    .where("whatsappId", "=", whatsappId).where("wid", "=", wid)
    .where("companyId", "=", companyId).executeTakeFirst();
  return row?.dataJson;
}

/** A message's ids (its WhatsApp id and ticket). */
export async function messageRef(
  db: Database,
  companyId: number,
  id: number,
): Promise<{ id: number; wid: string | null; ticketId: number } | undefined> {
  return await db.selectFrom("messages").select(["id", "wid", "ticketId"])
    .where("companyId", "=", companyId).where("id", "=", id).executeTakeFirst();
}

/** What serving a message's media file needs. */
export async function messageMedia(db: Database, companyId: number, id: number) {
  return await db.selectFrom("messages")
    .select(["id", "ticketId", "mediaUrl", "mediaMimetype", "mediaName"])
    .where("companyId", "=", companyId).where("id", "=", id).executeTakeFirst();
}

/** What forwarding a message needs: its content and its ticket's placement (who may see it). */
export type ForwardSource = {
  id: number;
  body: string;
  mediaType: string | null;
  mediaUrl: string | null;
  mediaMimetype: string | null;
  mediaName: string | null;
  isDeleted: number;
  createdAt: string;
  ticketId: number;
  userId: number | null;
  queueId: number | null;
  status: string;
  isGroup: number;
  whatsappId: number | null;
};

/** The company's messages of `ids` with their tickets' placement, in conversation order. */
export async function forwardSources(
  db: Database,
  companyId: number,
  ids: number[],
): Promise<ForwardSource[]> {
  return await db.selectFrom("messages")
    .innerJoin("tickets", "tickets.id", "messages.ticketId")
    .select([
      "messages.id",
      "messages.body",
      "messages.mediaType",
      "messages.mediaUrl",
      "messages.mediaMimetype",
      "messages.mediaName",
      "messages.isDeleted",
      "messages.createdAt",
      "messages.ticketId",
      "tickets.userId",
      "tickets.queueId",
      "tickets.status",
      "tickets.isGroup",
      "tickets.whatsappId",
    ])
    .where("messages.companyId", "=", companyId).where("tickets.companyId", "=", companyId)
    .where("messages.id", "in", ids)
    .orderBy("messages.createdAt").orderBy("messages.id").execute();
}

/**
 * A message takes an edit: the new text, `isEdited`, and the replaced text appended to
 * previousBodies (SQLite reads `body` on the right as it was before this update). Not a deleted
 * message, and not when the text is the same (a redelivered edit adds no second entry).
 */
export function editedValues(body: string, now: string) {
  return {
    body,
    isEdited: 1,
    // The parameter's type said (CAST): PostgreSQL's json_build_object cannot guess it.
    previousBodies: sql<string>`json_insert(coalesce(previousBodies, '[]'), '$[#]',
      json_object('body', body, 'editedAt', CAST(${now} AS TEXT)))`,
    updatedAt: now,
  };
}

/** Our message `id` takes the edit (editedValues); undefined when nothing changed. */
export async function editMessageBody(
  db: Database,
  companyId: number,
  id: number,
  body: string,
  now: string,
): Promise<Message | undefined> {
  return await db.updateTable("messages").set(editedValues(body, now))
    .where("companyId", "=", companyId).where("id", "=", id).where("isDeleted", "=", 0)
    .where("body", "<>", body).returningAll().executeTakeFirst();
}

/**
 * An edit of the ticket's newest message (by createdAt, then id: the order of the conversation)
 * becomes the ticket's preview (`lastMessage`); an older message's edit leaves it. `updatedAt`
 * is left as it was: the lists sort by it, and an edit does not move a chat up (nor does
 * WhatsApp). Whether the preview changed. Runs in the transaction that edits the message.
 */
export async function previewEditedMessage(
  trx: Database,
  companyId: number,
  message: Pick<Message, "id" | "ticketId" | "createdAt">,
  lastMessage: string,
): Promise<boolean> {
  const result = await trx.updateTable("tickets").set({ lastMessage })
    .where("companyId", "=", companyId).where("id", "=", message.ticketId)
    .where("lastMessage", "<>", lastMessage)
    .where(newest(companyId, message)).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * A deleted-for-everyone message that is its ticket's newest takes its text out of the preview
 * (`lastMessage` emptied: the lists show "message deleted" in the reader's language, from the
 * view's lastMessageDeleted). Whether it was the newest (the lists then hear ticket.updated, even
 * when the preview was already empty). Runs in the transaction that marks the message deleted.
 */
export async function previewDeletedMessage(
  trx: Database,
  companyId: number,
  message: Pick<Message, "id" | "ticketId" | "createdAt">,
): Promise<boolean> {
  const ticket = await trx.selectFrom("tickets").select("id")
    .where("companyId", "=", companyId).where("id", "=", message.ticketId)
    .where(newest(companyId, message)).executeTakeFirst();
  if (!ticket) return false;
  await trx.updateTable("tickets").set({ lastMessage: "" })
    .where("companyId", "=", companyId).where("id", "=", message.ticketId)
    .where("lastMessage", "<>", "").execute();
  return true;
}

/** No message of the ticket comes after this one (createdAt, then id: the conversation's order). */
function newest(companyId: number, message: Pick<Message, "id" | "ticketId" | "createdAt">) {
  return ({ not, exists, selectFrom }: ExpressionBuilder<DB, "tickets">) =>
    not(exists(
      selectFrom("messages").select("messages.id")
        .where("messages.companyId", "=", companyId)
        .where("messages.ticketId", "=", message.ticketId)
        .where((eb) =>
          eb.or([
            eb("messages.createdAt", ">", message.createdAt),
            eb.and([
              eb("messages.createdAt", "=", message.createdAt),
              eb("messages.id", ">", message.id),
            ]),
          ])
        ),
    ));
}
