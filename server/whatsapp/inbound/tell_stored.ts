import type { Contact } from "../../../db/schema.ts";
import { ticketChange } from "../../events/domain.ts";
import { ticketViewOf } from "../../tickets/view.ts";
import { loadTicketView, messageViews } from "../../tickets/view_repository.ts";
import { lastMessageOf } from "../outbox/outbox.ts";
import type { InboundRef } from "../providers/provider.ts";
import type { InboundDeps } from "./deps.ts";
import type { TicketState } from "./lookup_repository.ts";
import type { StoreResult } from "./store_message.ts";

/**
 * After the message's transaction commits: ticket.created or its change, then message.created
 * for the message and each reply, each with the note written in the transaction; the outbox is
 * woken when replies were queued.
 */
export async function tellStored(
  deps: Pick<InboundDeps, "db" | "events" | "sessions">,
  input: {
    ref: InboundRef;
    contact: Contact;
    open: TicketState | undefined;
    referral: string | undefined;
    result: StoreResult;
    stamp: string;
  },
): Promise<void> {
  const { db } = deps;
  const { ref, contact, open, referral, stamp } = input;
  const { stored, ticketId, unread, created, changed, notes } = input.result;
  const companyId = ref.companyId;
  // An ordinary message changes nothing of the ticket but its last message, time and unread
  // count: its view is built from what was read and written instead of being read again.
  const last = stored[stored.length - 1];
  const view = open && !changed
    ? ticketViewOf({
      ...open,
      referralJson: referral ?? open.referralJson,
      lastMessage: lastMessageOf(last.body, last.mediaName, last.mediaType),
      unreadMessages: unread,
      updatedAt: stamp,
      contactName: contact.name,
      contactNumber: contact.number,
      contactEmail: contact.email,
      contactPic: contact.profilePicUrl,
      contactIsGroup: contact.isGroup,
    })
    : await loadTicketView(db, companyId, ticketId);
  if (view) {
    const before = open
      ? { status: open.status, queueId: open.queueId, userId: open.userId }
      : undefined;
    const outgoing = notes.ticket;
    if (created) deps.events.emit("ticket.created", { ticket: view, outgoing });
    else if (changed) {
      deps.events.emit(ticketChange(view, before), { ticket: view, before, outgoing });
    }
    for (const [i, message] of (await messageViews(db, companyId, stored)).entries()) {
      deps.events.emit("message.created", {
        message,
        ticket: view,
        outgoing: notes.messages[i],
      });
    }
  }
  if (stored.length > 1) deps.sessions.kickOutbox(ref.id);
}
