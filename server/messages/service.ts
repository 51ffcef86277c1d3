import type { AppDeps } from "../context.ts";
import { notFound } from "../errors.ts";
import { assertCanRead, type Viewer } from "../tickets/access.ts";
import { placementOf } from "../tickets/service.ts";
import { findTicket } from "../tickets/repository.ts";
import { baseView, type MessageView, type TicketView, ticketViewOf } from "../tickets/view.ts";
import { loadTicketView } from "../tickets/view_repository.ts";
import { markTicketRead } from "./repository.ts";
import { loadConversation } from "./conversation_repository.ts";
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
  // One statement for the ticket's view and the page (issue 49: each round trip to the database
  // thread costs more than the query); a ticket the caller may not read was read for nothing.
  let found;
  if (around === undefined) {
    found = await loadConversation(deps.db, viewer.companyId, ticketId, pageNumber);
  } else {
    const ticket = await loadTicketView(deps.db, viewer.companyId, ticketId);
    if (!ticket) throw notFound("ERR_NO_TICKET_FOUND", "Ticket not found");
    assertCanRead(viewer, ticket);
    // Issue 28: the page that holds the message, in its own conversation (the contact's tickets
    // on the message's connection); a message of another contact answers like a missing one.
    const place = await messagePlace(deps.db, viewer.companyId, around);
    if (!place || place.contactId !== ticket.contactId) {
      throw notFound("ERR_NO_MESSAGE_FOUND", "Message not found");
    }
    pageNumber = await pageOfMessage(deps.db, viewer.companyId, place, place);
    found = await loadConversation(deps.db, viewer.companyId, ticketId, pageNumber, place);
  }
  if (!found) throw notFound("ERR_NO_TICKET_FOUND", "Ticket not found");
  const ticket = ticketViewOf(found.ticket);
  assertCanRead(viewer, ticket);
  const messages = found.rows.map((m) => ({
    ...baseView(m),
    quotedMsg: m.quoted ? baseView(m.quoted) : null,
  })).reverse();
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
  return { messages, ticket: view, count: found.count, hasMore: found.hasMore, pageNumber };
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
