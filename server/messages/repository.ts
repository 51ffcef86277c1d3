import type { Database } from "../../db/client.ts";
import type { Message, Ticket } from "../../db/schema.ts";

/** Whaticket's message page size; older pages load when scrolled near the top (seeds/000 s. 9). */
export const MESSAGES_PAGE_SIZE = 20;

/**
 * The conversation shown for a ticket: the messages of every ticket of the same contact on the
 * same connection, so that the chat can draw 'conversation ended/started' markers between them
 * (seeds/000 section 2 'Ticket view'). Newest page first; callers reverse inside the page.
 */
export async function conversationPage(
  db: Database,
  companyId: number,
  ticket: Pick<Ticket, "contactId" | "whatsappId">,
  pageNumber: number,
): Promise<{ rows: Message[]; count: number; hasMore: boolean }> {
  const tickets = db.selectFrom("tickets").select("tickets.id")
    .where("tickets.companyId", "=", companyId).where("tickets.contactId", "=", ticket.contactId)
    .where("tickets.whatsappId", ticket.whatsappId === null ? "is" : "=", ticket.whatsappId);
  const offset = (pageNumber - 1) * MESSAGES_PAGE_SIZE;
  const rows = await db.selectFrom("messages").selectAll()
    .where("companyId", "=", companyId).where("ticketId", "in", tickets)
    .orderBy("createdAt", "desc").orderBy("id", "desc")
    .limit(MESSAGES_PAGE_SIZE).offset(offset).execute();
  let count = offset + rows.length;
  if (rows.length === MESSAGES_PAGE_SIZE || (rows.length === 0 && offset > 0)) {
    const total = await db.selectFrom("messages")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("companyId", "=", companyId).where("ticketId", "in", tickets)
      .executeTakeFirstOrThrow();
    count = Number(total.n);
  }
  return { rows, count, hasMore: count > offset + rows.length };
}

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
    .where("ticketId", "=", ticketId).where("companyId", "=", companyId)
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
