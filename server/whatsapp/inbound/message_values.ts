import type { Contact, Message } from "../../../db/schema.ts";
import {
  groupOfAddress,
  idOfAddress,
  isGroupAddress,
  lidOfAddress,
  normalizeAddress,
  phoneOfAddress,
} from "../providers/address.ts";
import type { InboundMessage, InboundRef } from "../providers/provider.ts";
import type { Identity } from "./contacts.ts";
import type { InboundMediaResult } from "./media.ts";
import type { InboundMessageValues } from "./repository.ts";

/**
 * The message's chat as a contact identity (a group, or a person by phone and/or LID); its number
 * is the key the contact is found by.
 */
export function identityOf(m: InboundMessage): { identity: Identity; number?: string } {
  const group = m.isGroup || isGroupAddress(m.chatJid)
    ? groupOfAddress(m.chatJid) ?? idOfAddress(m.chatJid)
    : undefined;
  const identity: Identity = group ? { group } : {
    phone: phoneOfAddress(m.phoneJid) ?? phoneOfAddress(m.chatJid),
    lid: lidOfAddress(m.lidJid) ?? lidOfAddress(m.chatJid),
    // fromMe: the push name is the phone owner's, not the contact's
    pushName: m.fromMe ? undefined : m.pushName,
  };
  return { identity, number: identity.group ?? identity.phone ?? identity.lid };
}

/** The row of an inbound message, all but its ticket. */
export type MessageValues = Omit<InboundMessageValues, "ticketId">;

/**
 * The message's row as stored: its media as far as it got (stored, pending on a storage
 * failure, or refused with a placeholder in the body), the quoted message, the sender (a group's
 * participant, else the contact).
 */
export function messageValuesOf(input: {
  ref: InboundRef;
  m: InboundMessage;
  media: InboundMediaResult;
  from: Pick<Contact, "id">;
  quoted: Pick<Message, "id"> | undefined;
  now: Date;
}): MessageValues {
  const { ref, m, media, now } = input;
  const stamp = now.toISOString();
  const body = media.kind === "refused"
    ? [m.body.trim(), media.placeholder].filter(Boolean).join("\n\n")
    : m.body;
  return {
    companyId: ref.companyId,
    contactId: input.from.id,
    whatsappId: ref.id,
    wid: m.id,
    remoteJid: normalizeAddress(m.chatJid),
    participant: m.participantJid ?? null,
    body,
    fromMe: m.fromMe ? 1 : 0,
    mediaType: media.kind === "refused" ? null : media.mediaType,
    mediaUrl: media.kind === "stored" ? media.stored.path : null,
    mediaName: media.kind === "stored"
      ? media.stored.filename
      : media.kind === "pending"
      ? media.filename
      : null,
    mediaMimetype: media.kind === "stored"
      ? media.stored.mimetype
      : media.kind === "pending"
      ? media.mimetype
      : null,
    mediaPending: media.kind === "pending" ? 1 : 0,
    ack: m.fromMe ? 1 : 0,
    read: m.fromMe ? 1 : 0,
    quotedMsgId: input.quoted?.id ?? null,
    isForwarded: m.forwarded ? 1 : 0,
    dataJson: m.raw === undefined ? null : safeJson(m.raw),
    createdAt: messageTime(m.timestamp, now),
    updatedAt: stamp,
  };
}

/** The provider's time (backlog keeps its order), unless it is in the future. */
function messageTime(timestamp: Date, now: Date): string {
  return timestamp.getTime() <= now.getTime() ? timestamp.toISOString() : now.toISOString();
}

function safeJson(value: unknown): string | null {
  try {
    return JSON.stringify(value);
  } catch {
    return null;
  }
}
