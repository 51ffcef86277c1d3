import { log } from "../../log.ts";
import { noteOutgoing, noteOutgoingMany } from "../../events/outgoing_repository.ts";
import { loadTicketView, messageViews } from "../../tickets/view_repository.ts";
import { contactView } from "./contacts.ts";
import {
  changeMessage,
  firstContactByIdentity,
  type MessageChange,
  patchContact,
} from "./repository.ts";
import type { InboundRef } from "../providers/provider.ts";
import { groupOfAddress, lidOfAddress, phoneOfAddress } from "../providers/address.ts";
import { type OutboxDeps, previewEdited } from "../outbox/outbox.ts";
import { previewDeletedMessage } from "../../messages/repository.ts";
import type { DeliveryOutcome, ProviderEvent } from "../providers/provider.ts";

type UpdateEvent = Extract<
  ProviderEvent,
  { type: "ack" | "edit" | "revoke" | "failed" | "reaction" }
>;

/**
 * Acks, edits and deletions made on the phone, applied to the stored message of that
 * (connection, WhatsApp id). An ack never lowers the stored one (acks can arrive out of order).
 */
export async function applyUpdate(
  deps: OutboxDeps,
  ref: InboundRef,
  event: UpdateEvent,
): Promise<DeliveryOutcome> {
  const { db, clock } = deps;
  const now = clock.now().toISOString();
  let change: MessageChange;
  switch (event.type) {
    case "ack": {
      if (!Number.isInteger(event.ack) || event.ack < 0 || event.ack > 5) {
        log.warn("malformed ack ignored", { whatsappId: ref.id, ack: event.ack });
        return { ignored: "malformed event" };
      }
      change = { type: "ack", ack: event.ack };
      break;
    }
    case "edit": {
      if (typeof event.body !== "string") {
        log.warn("malformed edit ignored", { whatsappId: ref.id });
        return { ignored: "malformed event" };
      }
      change = { type: "edit", body: event.body };
      break;
    }
    case "revoke": {
      change = { type: "revoke" };
      break;
    }
    case "failed": {
      if (typeof event.code !== "string") return { ignored: "malformed event" };
      change = { type: "failed", code: event.code };
      break;
    }
    case "reaction": {
      if (typeof event.emoji !== "string" || event.emoji.length > 32) {
        return { ignored: "malformed event" };
      }
      change = { type: "reaction", emoji: event.emoji };
      break;
    }
  }
  // An edit of the ticket's newest message is also its preview, in the same transaction.
  // A contact's delete for everyone of the newest message takes it out of the preview, too.
  // Each change is noted with its events (server/events/outgoing.ts): an ack's webhook survives a
  // crash right after its commit.
  const { row, notes } = await db.transaction().execute(async (trx) => {
    const row = await changeMessage(trx, ref.companyId, ref.id, event.id, change, now);
    if (row === undefined) return { row, notes: [] };
    const previewed = change.type === "ack" || change.type === "reaction"
      ? false
      : change.type === "edit"
      ? await previewEdited(trx, ref.companyId, row)
      : await previewDeletedMessage(trx, ref.companyId, row);
    const subject = { ticketId: row.ticketId, messageId: row.id };
    const notes = await noteOutgoingMany(trx, ref.companyId, [
      { event: "message.updated", subject },
      ...(previewed ? [{ event: "ticket.updated", subject: { ticketId: row.ticketId } }] : []),
    ], now);
    return { row, notes };
  });
  if (!row) return { ignored: "no message to update" };
  const ticket = await loadTicketView(db, ref.companyId, row.ticketId);
  if (ticket) {
    const [view] = await messageViews(db, ref.companyId, [row]);
    deps.events.emit("message.updated", { message: view, ticket, outgoing: notes[0] });
    if (notes[1]) deps.events.emit("ticket.updated", { ticket, outgoing: notes[1] });
  }
  return { messageId: row.id, ticketId: row.ticketId };
}

/**
 * A contact's name, picture or identities as the provider learnt them. Only contacts we already
 * have are updated (the phone's whole address book does not become contacts); a name someone
 * typed is kept, a placeholder (the number) or a group's subject is replaced.
 */
export async function contactUpdate(
  deps: OutboxDeps,
  ref: InboundRef,
  event: Extract<ProviderEvent, { type: "contact" }>,
): Promise<DeliveryOutcome> {
  const { db, clock } = deps;
  const group = groupOfAddress(event.jid);
  const phone = group ? undefined : phoneOfAddress(event.phoneJid) ?? phoneOfAddress(event.jid);
  const lid = group ? undefined : lidOfAddress(event.lidJid) ?? lidOfAddress(event.jid);
  const number = group ?? phone ?? lid;
  if (!number) return { ignored: "malformed event" };
  const contact = await firstContactByIdentity(db, ref.companyId, number, lid);
  if (!contact) return { ignored: "unknown contact" };
  const patch: { name?: string; profilePicUrl?: string; lid?: string; number?: string } = {};
  const name = typeof event.name === "string" ? event.name.trim() : "";
  if (name && name !== contact.name && (group || contact.name === contact.number)) {
    patch.name = name.slice(0, 200);
  }
  if (typeof event.profilePicUrl === "string" && event.profilePicUrl !== contact.profilePicUrl) {
    patch.profilePicUrl = event.profilePicUrl;
  }
  if (lid && contact.lid !== lid) patch.lid = lid;
  if (phone && contact.number !== phone && contact.number === contact.lid) patch.number = phone;
  if (Object.keys(patch).length === 0) return { ignored: "no change" };
  try {
    const now = clock.now().toISOString();
    const { updated, outgoing } = await db.transaction().execute(async (trx) => ({
      updated: await patchContact(trx, ref.companyId, contact.id, patch, now),
      outgoing: await noteOutgoing(trx, ref.companyId, "contact.updated", {
        contactId: contact.id,
      }, now),
    }));
    deps.events.emit("contact.updated", {
      companyId: ref.companyId,
      contact: contactView(updated),
      outgoing,
    });
  } catch (error) {
    log.warn("contact update skipped", { whatsappId: ref.id, contactId: contact.id, error });
    return { ignored: "conflict" };
  }
  return {};
}
