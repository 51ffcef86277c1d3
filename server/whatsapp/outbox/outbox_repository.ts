import type { Insertable } from "kysely";
import type { Database } from "../../../db/client.ts";
import type { Message, NewMessage, OutboxRow, OutboxTable } from "../../../db/schema.ts";
import { crossCompany } from "../../../db/tenancy.ts";

/**
 * SQL of the outbox (outbox.ts says what it is for): the rows a send writes, the worker's claim,
 * retry and outcome. Every row operation names the row's company; only the boot's recovery of
 * interrupted sends covers every company at once.
 */

/** The fromMe message and its outbox row (call inside the caller's transaction). */
export async function insertOutgoing(
  trx: Database,
  message: NewMessage,
  outbox: Omit<Insertable<OutboxTable>, "messageId">,
): Promise<Message> {
  const row = await trx.insertInto("messages").values(message).returningAll()
    .executeTakeFirstOrThrow();
  await trx.insertInto("outbox").values({ ...outbox, messageId: row.id }).execute();
  return row;
}

/**
 * An attendant's reaction queued (issue 45): the message shows it at once (ownReaction), in the
 * same transaction as its outbox row, as a message shows at ack 0 before it is sent.
 */
export async function insertReaction(
  trx: Database,
  row: Omit<Insertable<OutboxTable>, "reaction"> & { messageId: number },
  reaction: { emoji: string; previous: string | null },
): Promise<Message | undefined> {
  await trx.insertInto("outbox").values({ ...row, reaction: JSON.stringify(reaction) }).execute();
  return await trx.updateTable("messages").set({
    ownReaction: reaction.emoji || null,
    updatedAt: row.createdAt,
  }).where("id", "=", row.messageId).where("companyId", "=", row.companyId).returningAll()
    .executeTakeFirst();
}

/**
 * A reaction the network refused for good: the message shows what it showed before, unless a
 * later reaction replaced this one meanwhile. The message when it changed.
 */
export async function undoReaction(
  trx: Database,
  row: Pick<OutboxRow, "companyId" | "messageId">,
  reaction: { emoji: string; previous: string | null },
  now: string,
): Promise<Message | undefined> {
  if (row.messageId === null) return undefined;
  let query = trx.updateTable("messages").set({ ownReaction: reaction.previous, updatedAt: now })
    .where("id", "=", row.messageId).where("companyId", "=", row.companyId);
  query = reaction.emoji
    ? query.where("ownReaction", "=", reaction.emoji)
    : query.where("ownReaction", "is", null);
  return await query.returningAll().executeTakeFirst();
}

export async function ticketToSend(db: Database, companyId: number, ticketId: number) {
  return await db.selectFrom("tickets").select(["id", "contactId", "whatsappId"])
    .where("companyId", "=", companyId).where("id", "=", ticketId).executeTakeFirst();
}

export async function connectionOf(db: Database, companyId: number, whatsappId: number) {
  return await db.selectFrom("whatsapps").select(["id"]).where("companyId", "=", companyId)
    .where("id", "=", whatsappId).executeTakeFirst();
}

/** The connection a number check goes through: the given one, or the company's default. */
export async function connectionToCheck(
  db: Database,
  companyId: number,
  whatsappId: number | undefined,
) {
  let query = db.selectFrom("whatsapps").select(["id"]).where("companyId", "=", companyId);
  query = whatsappId === undefined
    ? query.where("isDefault", "=", 1)
    : query.where("id", "=", whatsappId);
  return await query.executeTakeFirst();
}

/** What a recipient's address is made of. */
export async function recipientOf(db: Database, companyId: number, contactId: number) {
  return await db.selectFrom("contacts").select(["id", "number", "lid", "isGroup"])
    .where("companyId", "=", companyId).where("id", "=", contactId)
    .executeTakeFirstOrThrow();
}

/** A message of the same connection a reply quotes. */
export async function quotedMessage(
  db: Database,
  companyId: number,
  whatsappId: number,
  messageId: number,
): Promise<{ id: number; wid: string | null } | undefined> {
  return await db.selectFrom("messages").select(["id", "wid"])
    .where("companyId", "=", companyId).where("id", "=", messageId)
    .where("whatsappId", "=", whatsappId).executeTakeFirst();
}

export async function setTicketLastMessage(
  db: Database,
  companyId: number,
  ticketId: number,
  lastMessage: string,
  now: string,
) {
  await db.updateTable("tickets").set({ lastMessage, updatedAt: now })
    .where("companyId", "=", companyId).where("id", "=", ticketId).execute();
}

/** Cancels the message's send while it waits; whether it did. */
export async function cancelPendingSend(
  db: Database,
  companyId: number,
  messageId: number,
  now: string,
): Promise<boolean> {
  const cancelled = await db.updateTable("outbox").set({ status: "cancelled", updatedAt: now })
    .where("companyId", "=", companyId).where("messageId", "=", messageId)
    .where("reaction", "is", null).where("status", "=", "pending").executeTakeFirst();
  return Number(cancelled.numUpdatedRows) > 0;
}

/** A send still waiting takes the edited text instead (nothing went yet); whether it did. */
export async function editPendingSend(
  db: Database,
  companyId: number,
  messageId: number,
  body: string,
  now: string,
): Promise<boolean> {
  const edited = await db.updateTable("outbox").set({ body, updatedAt: now })
    .where("companyId", "=", companyId).where("messageId", "=", messageId)
    .where("reaction", "is", null).where("status", "=", "pending").executeTakeFirst();
  return Number(edited.numUpdatedRows) > 0;
}

/** Is the message being handed to the provider right now? */
export async function isBeingSent(
  db: Database,
  companyId: number,
  messageId: number,
): Promise<boolean> {
  const row = await db.selectFrom("outbox").select(["status"])
    .where("companyId", "=", companyId).where("messageId", "=", messageId)
    .where("reaction", "is", null).where("status", "=", "sending").executeTakeFirst();
  return row !== undefined;
}

export async function markMessageDeleted(
  db: Database,
  companyId: number,
  messageId: number,
  now: string,
): Promise<Message> {
  return await db.updateTable("messages").set({ isDeleted: 1, updatedAt: now })
    .where("companyId", "=", companyId).where("id", "=", messageId).returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Rows left 'sending' by a stopped process go back to 'pending': one connection's, or with no
 * connection given those of every company (the boot of the only process). How many.
 */
export async function recoverSending(
  db: Database,
  now: string,
  connection?: { companyId: number; whatsappId: number },
): Promise<number> {
  const values = { status: "pending" as const, claimId: null, updatedAt: now };
  const result = connection
    ? await db.updateTable("outbox").set(values).where("companyId", "=", connection.companyId)
      .where("whatsappId", "=", connection.whatsappId).where("status", "=", "sending")
      .executeTakeFirst()
    : await crossCompany(db).updateTable("outbox").set(values).where("status", "=", "sending")
      .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** A connection's next pending rows, in id order (outbox_due). */
export async function pendingRows(
  db: Database,
  companyId: number,
  whatsappId: number,
  limit: number,
): Promise<OutboxRow[]> {
  return await db.selectFrom("outbox").selectAll()
    .where("whatsappId", "=", whatsappId).where("status", "=", "pending")
    .where("companyId", "=", companyId).orderBy("id").limit(limit).execute();
}

/** Claims a pending row for one attempt (status 'sending', `claimId`, attempts + 1); whether it did. */
export async function claimRow(
  db: Database,
  row: Pick<OutboxRow, "id" | "companyId">,
  claimId: string,
  now: string,
): Promise<boolean> {
  const claimed = await db.updateTable("outbox").set((eb) => ({
    status: "sending",
    claimId,
    attempts: eb("attempts", "+", 1),
    updatedAt: now,
  })).where("id", "=", row.id).where("companyId", "=", row.companyId)
    .where("status", "=", "pending").executeTakeFirst();
  return Number(claimed.numUpdatedRows) > 0;
}

/** The claim's attempt failed for now: pending again, due at `nextAttemptAt`. */
export async function releaseForRetry(
  db: Database,
  row: Pick<OutboxRow, "id" | "companyId">,
  claimId: string,
  lastError: string,
  nextAttemptAt: string,
  now: string,
) {
  await db.updateTable("outbox").set({
    status: "pending",
    claimId: null,
    lastError,
    nextAttemptAt,
    updatedAt: now,
  }).where("id", "=", row.id).where("companyId", "=", row.companyId)
    .where("claimId", "=", claimId).execute();
}

/** Marks the claim's row sent; false when the claim is no longer the row's. */
export async function markRowSent(
  trx: Database,
  row: Pick<OutboxRow, "id" | "companyId">,
  claimId: string,
  now: string,
): Promise<boolean> {
  const marked = await trx.updateTable("outbox").set({
    status: "sent",
    sentAt: now,
    lastError: null,
    updatedAt: now,
  }).where("id", "=", row.id).where("companyId", "=", row.companyId)
    .where("claimId", "=", claimId).executeTakeFirst();
  return Number(marked.numUpdatedRows) > 0;
}

/** The sent message takes the provider's id and at least ack 1. */
export async function messageSent(
  trx: Database,
  companyId: number,
  messageId: number,
  wid: string,
  dataJson: string | null,
  now: string,
): Promise<Message | undefined> {
  return await trx.updateTable("messages").set((eb) => ({
    wid,
    ack: eb.fn("max", [eb.ref("ack"), eb.lit(1)]),
    dataJson,
    updatedAt: now,
  })).where("id", "=", messageId).where("companyId", "=", companyId).returningAll()
    .executeTakeFirst();
}

export async function markRowFailed(
  trx: Database,
  row: Pick<OutboxRow, "id" | "companyId">,
  claimId: string,
  lastError: string,
  now: string,
) {
  await trx.updateTable("outbox").set({ status: "failed", lastError, updatedAt: now })
    .where("id", "=", row.id).where("companyId", "=", row.companyId)
    .where("claimId", "=", claimId).execute();
}

export async function messageSendFailed(
  trx: Database,
  companyId: number,
  messageId: number,
  now: string,
  code = "ERR_SENDING_WAPP_MSG",
) {
  await trx.updateTable("messages").set({ sendError: code, updatedAt: now })
    .where("id", "=", messageId).where("companyId", "=", companyId).execute();
}
