import type { AppDeps } from "../context.ts";
import { notFound } from "../errors.ts";
import { assertCanRead, type Viewer } from "../tickets/access.ts";
import { placementOf } from "../tickets/service.ts";
import { findTicket } from "../tickets/repository.ts";
import { baseView, type MessageView, type TicketView } from "../tickets/view.ts";
import { loadTicketView, messageViews } from "../tickets/view_repository.ts";
import { conversationPage, markTicketRead } from "./repository.ts";
import { sendReadReceipt } from "./read_receipts.ts";
import { messagePlace, pageOfMessage, searchContactMessages } from "./search_repository.ts";
import type { MessageSearchAnswer } from "../../contract/ticket_types.ts";

export type MessagePage = {
  messages: MessageView[];
  ticket: TicketView;
  count: number;
  hasMore: boolean;
  pageNumber: number;
};

/**
 * GET /api/messages/:ticketId: a page of the conversation (newest page first, ascending inside
 * it, like Whaticket) and, unless `peek`, the ticket marked read (unread 0, messages read,
 * an updateUnread event). Admins' peek (seeds/000 section 2) leaves the unread state alone.
 */
export async function listMessages(
  deps: AppDeps,
  viewer: Viewer,
  ticketId: number,
  pageNumber: number,
  peek: boolean,
  around?: number,
): Promise<MessagePage> {
  // The view carries what the access check and the conversation need: one query instead of the
  // ticket row and then its view (each query is a round trip to the database thread).
  const ticket = await loadTicketView(deps.db, viewer.companyId, ticketId);
  if (!ticket) throw notFound("ERR_NO_TICKET_FOUND", "Ticket not found");
  assertCanRead(viewer, ticket);
  let conversation: { contactId: number; whatsappId: number | null } = ticket;
  if (around !== undefined) {
    // Issue 28: the page that holds the message, in its own conversation (the contact's tickets
    // on the message's connection); a message of another contact answers like a missing one.
    const place = await messagePlace(deps.db, viewer.companyId, around);
    if (!place || place.contactId !== ticket.contactId) {
      throw notFound("ERR_NO_MESSAGE_FOUND", "Message not found");
    }
    conversation = place;
    pageNumber = await pageOfMessage(deps.db, viewer.companyId, place, place);
  }
  const page = await conversationPage(deps.db, viewer.companyId, conversation, pageNumber);
  const messages = (await messageViews(deps.db, viewer.companyId, page.rows)).reverse();
  if (!peek && ticket.unreadMessages > 0) {
    const now = deps.clock.now().toISOString();
    const changed = await deps.db.transaction().execute((trx) =>
      markTicketRead(trx, viewer.companyId, ticket.id, now)
    );
    if (changed) {
      deps.events.emit("ticket.read", {
        companyId: viewer.companyId,
        ticketId: ticket.id,
        placement: placementOf(ticket),
        isGroup: ticket.isGroup,
      });
      // Not awaited: the contact's blue ticks must not slow the attendant's page.
      void sendReadReceipt(deps, viewer.companyId, ticket);
    }
  }
  // markTicketRead changes only unreadMessages (not updatedAt): the view stays exact.
  const view = peek ? ticket : { ...ticket, unreadMessages: 0 };
  return { messages, ticket: view, count: page.count, hasMore: page.hasMore, pageNumber };
}

/**
 * GET /api/messages/:ticketId/search?q=: the hits of the ticket's contact's whole history in the
 * company (every ticket, every connection), newest first, for a ticket the caller may read.
 */
export async function searchConversation(
  deps: AppDeps,
  viewer: Viewer,
  ticketId: number,
  text: string,
): Promise<MessageSearchAnswer> {
  const ticket = await findTicket(deps.db, viewer.companyId, ticketId);
  if (!ticket) throw notFound("ERR_NO_TICKET_FOUND", "Ticket not found");
  assertCanRead(viewer, ticket);
  const rows = await searchContactMessages(deps.db, viewer.companyId, ticket.contactId, text);
  return { messages: rows.map(baseView) };
}
