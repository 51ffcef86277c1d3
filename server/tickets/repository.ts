import type { Database } from "../../db/client.ts";
import type { NewTicket, Ticket, TicketUpdate } from "../../db/schema.ts";

/** Ticket rows. Every function is scoped by companyId (DESIGN: tenancy). */

export async function findTicket(
  db: Database,
  companyId: number,
  id: number,
): Promise<Ticket | undefined> {
  return await db.selectFrom("tickets").selectAll().where("id", "=", id)
    .where("companyId", "=", companyId).executeTakeFirst();
}

export async function findTicketByUuid(
  db: Database,
  companyId: number,
  uuid: string,
): Promise<Ticket | undefined> {
  return await db.selectFrom("tickets").selectAll().where("uuid", "=", uuid)
    .where("companyId", "=", companyId).executeTakeFirst();
}

/** The contact's pending/open ticket on a connection (at most one: tickets_one_open). */
export async function findActiveTicket(
  db: Database,
  companyId: number,
  contactId: number,
  whatsappId: number | null,
  exceptId?: number,
): Promise<Ticket | undefined> {
  let q = db.selectFrom("tickets").selectAll().where("companyId", "=", companyId)
    .where("contactId", "=", contactId).where("status", "<>", "closed")
    .where("whatsappId", whatsappId === null ? "is" : "=", whatsappId);
  if (exceptId !== undefined) q = q.where("id", "<>", exceptId);
  return await q.executeTakeFirst();
}

export async function insertTicket(db: Database, row: NewTicket): Promise<number> {
  const inserted = await db.insertInto("tickets").values(row).returning("id")
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/**
 * A ticket created already closed, to carry an automatic outgoing message (a schedule, the send
 * API) without filling the attendants' lists; the contact's reply opens a new pending ticket.
 */
export async function insertClosedTicket(
  db: Database,
  companyId: number,
  values: { contactId: number; whatsappId: number; userId: number | null; isGroup: number },
  now: string,
): Promise<number> {
  return await insertTicket(db, {
    uuid: crypto.randomUUID(),
    companyId,
    ...values,
    queueId: null,
    queueOptionId: null,
    status: "closed",
    integrationId: null,
    promptId: null,
    acceptedAt: null,
    closedAt: now,
    createdAt: now,
    updatedAt: now,
  });
}

/** Updates when the row still matches `expectStatus` (if given); returns whether it did. */
export async function updateTicketRow(
  db: Database,
  companyId: number,
  id: number,
  patch: TicketUpdate,
  expectStatus?: string,
): Promise<boolean> {
  let q = db.updateTable("tickets").set(patch).where("id", "=", id)
    .where("companyId", "=", companyId);
  if (expectStatus !== undefined) q = q.where("status", "=", expectStatus as Ticket["status"]);
  const result = await q.executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteTicketRow(db: Database, companyId: number, id: number) {
  await db.deleteFrom("tickets").where("id", "=", id).where("companyId", "=", companyId).execute();
}

/** Tenancy checks for ids that come from a request body. */
export async function companyHas(
  db: Database,
  table: "contacts" | "queues" | "users" | "whatsapps" | "tags",
  companyId: number,
  id: number,
): Promise<boolean> {
  const row = await db.selectFrom(table).select("id").where("id", "=", id)
    .where("companyId", "=", companyId).executeTakeFirst();
  return row !== undefined;
}

/** The company's default connection: the user's own default if still theirs, else isDefault. */
export async function defaultWhatsappId(
  db: Database,
  companyId: number,
  userWhatsappId: number | null,
): Promise<number | undefined> {
  if (userWhatsappId !== null && await companyHas(db, "whatsapps", companyId, userWhatsappId)) {
    return userWhatsappId;
  }
  const row = await db.selectFrom("whatsapps").select("id").where("companyId", "=", companyId)
    .where("isDefault", "=", 1).orderBy("id").executeTakeFirst();
  return row?.id;
}

/** Where a ticket sits, for deciding who may see it. */
export async function ticketPlacement(db: Database, companyId: number, id: number) {
  return await db.selectFrom("tickets").select(["id", "queueId", "userId", "status", "isGroup"])
    .where("id", "=", id).where("companyId", "=", companyId).executeTakeFirst();
}

/** What opening a ticket needs of its contact. */
export async function contactToOpen(db: Database, companyId: number, contactId: number) {
  return await db.selectFrom("contacts").select(["id", "isGroup"])
    .where("id", "=", contactId).where("companyId", "=", companyId).executeTakeFirst();
}

/** The contact's pending/open ticket on any connection. */
export async function anyActiveTicket(
  db: Database,
  companyId: number,
  contactId: number,
): Promise<Ticket | undefined> {
  return await db.selectFrom("tickets").selectAll()
    .where("companyId", "=", companyId).where("contactId", "=", contactId)
    .where("status", "<>", "closed").executeTakeFirst();
}

/** The names the automatic texts of a transition show. */
export async function contactName(db: Database, companyId: number, contactId: number) {
  return await db.selectFrom("contacts").select(["name"])
    .where("id", "=", contactId).where("companyId", "=", companyId).executeTakeFirst();
}

export async function userName(db: Database, companyId: number, userId: number) {
  return (await db.selectFrom("users").select("name").where("id", "=", userId)
    .where("companyId", "=", companyId).executeTakeFirst())?.name;
}

export async function queueName(db: Database, companyId: number, queueId: number) {
  return (await db.selectFrom("queues").select("name").where("id", "=", queueId)
    .where("companyId", "=", companyId).executeTakeFirst())?.name;
}

/** The connection's completion and rating texts (sent when a ticket is resolved). */
export async function closingTexts(db: Database, companyId: number, whatsappId: number) {
  return await db.selectFrom("whatsapps").select(["complationMessage", "ratingMessage"])
    .where("id", "=", whatsappId).where("companyId", "=", companyId).executeTakeFirst();
}
