import {
  BufferJSON,
  isJidBroadcast,
  isJidGroup,
  isJidNewsletter,
  isLidUser,
  isPnUser,
  jidNormalizedUser,
  normalizeMessageContent,
  proto,
  toNumber,
  type WAMessage,
  type WAMessageKey,
} from "@whiskeysockets/baileys";
import type { Ack, InboundMessage, MediaType, ProviderEvent } from "../provider.ts";

/**
 * Pure translation of Baileys' messages into our provider events (seeds/000 section 3 'Message'
 * media types). Nothing here touches the network: media is downloaded lazily through `download`.
 */

/** What one upserted Baileys message becomes. */
export type Mapped =
  | { kind: "message"; message: InboundMessage }
  | { kind: "event"; event: ProviderEvent }
  | { kind: "skip"; reason: string }
  /** Content we do not know how to show: logged as a warning, never stored half-understood. */
  | { kind: "unsupported"; reason: string };

/** Keys that ride along with real content or stand alone as housekeeping (never a message). */
const NOISE = new Set([
  "senderKeyDistributionMessage",
  "messageContextInfo",
  "keepInChatMessage",
  "pinInChatMessage",
  "pollUpdateMessage",
  "encReactionMessage",
  "encEventResponseMessage",
  "deviceSentMessage",
  "callLogMesssage",
  // Group call offers arrive as a `call` message too; calls are handled from the call event.
  "call",
  "scheduledCallEditMessage",
  "botInvokeMessage",
]);

/** lid -> phone-number JID from Baileys' LID mapping store (local, no network). */
export type PnLookup = (lid: string) => Promise<string | null | undefined>;

export type Identities = {
  chatJid: string;
  isGroup: boolean;
  participantJid?: string;
  phoneJid?: string;
  lidJid?: string;
};

/** Our ack scale from Baileys' WebMessageInfo.Status (seeds/000 section 4 'Message acknowledgement'). */
export function ackFromStatus(status: number | null | undefined): Ack | undefined {
  const S = proto.WebMessageInfo.Status;
  switch (status) {
    case S.SERVER_ACK:
      return 1;
    case S.DELIVERY_ACK:
      return 2;
    case S.READ:
      return 3;
    case S.PLAYED:
      return 4;
    default:
      // PENDING is our own outbox state (0) and ERROR is not a receipt: neither moves the ack.
      return undefined;
  }
}

/** A group receipt (message-receipt.update) as an ack: the furthest a participant got. */
export function ackFromReceipt(receipt: proto.IUserReceipt | null | undefined): Ack | undefined {
  if (!receipt) return undefined;
  if (receipt.playedTimestamp) return 4;
  if (receipt.readTimestamp) return 3;
  if (receipt.receiptTimestamp) return 2;
  return undefined;
}

function normalized(jid: string | null | undefined): string | undefined {
  if (!jid) return undefined;
  return jidNormalizedUser(jid) || undefined;
}

/**
 * Splits a pair of JIDs (the primary one and its alternate from Baileys 7's addressing) into the
 * phone-number and LID identities, asking the LID store for the phone number when only the LID
 * is known. One person then yields one contact whichever identity WhatsApp used.
 */
async function splitIdentity(
  jids: (string | null | undefined)[],
  lookupPn?: PnLookup,
): Promise<{ phoneJid?: string; lidJid?: string }> {
  const candidates = jids.map(normalized).filter((j): j is string => !!j);
  let phoneJid = candidates.find((j) => isPnUser(j));
  const lidJid = candidates.find((j) => isLidUser(j));
  if (!phoneJid && lidJid && lookupPn) {
    try {
      phoneJid = normalized(await lookupPn(lidJid));
    } catch {
      // A failed lookup only costs the mapping: the LID still identifies the contact.
    }
  }
  return { phoneJid, lidJid };
}

/** Identities of a Baileys contact record (id plus its optional LID / phone-number twins). */
export function contactIdentities(
  contact: { id?: string | null; lid?: string | null; phoneNumber?: string | null },
  lookupPn?: PnLookup,
): Promise<{ phoneJid?: string; lidJid?: string }> {
  return splitIdentity([contact.id, contact.phoneNumber, contact.lid], lookupPn);
}

/**
 * Chat and sender identities of a message key. In a 1:1 chat the chat JID is the phone-number
 * JID when known (numbers are what operators see and search), else what WhatsApp gave. In a
 * group the chat is the group and phoneJid/lidJid describe the participant who wrote.
 */
export async function resolveIdentities(
  key: WAMessageKey,
  lookupPn?: PnLookup,
): Promise<Identities> {
  const remoteJid = key.remoteJid ?? "";
  if (isJidGroup(remoteJid)) {
    const { phoneJid, lidJid } = await splitIdentity(
      [key.participant, key.participantAlt],
      lookupPn,
    );
    return {
      chatJid: remoteJid,
      isGroup: true,
      participantJid: phoneJid ?? lidJid ?? normalized(key.participant),
      phoneJid,
      lidJid,
    };
  }
  const { phoneJid, lidJid } = await splitIdentity([remoteJid, key.remoteJidAlt], lookupPn);
  return {
    chatJid: phoneJid ?? normalized(remoteJid) ?? remoteJid,
    isGroup: false,
    phoneJid,
    lidJid,
  };
}

/** Seconds (number or protobuf Long) to a Date; `fallback` when absent. */
export function toDate(ts: unknown, fallback: Date): Date {
  if (ts === null || ts === undefined) return fallback;
  const seconds = typeof ts === "string" ? Number(ts) : toNumber(ts as number);
  return Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : fallback;
}

/**
 * A Baileys message as plain JSON (Buffers as base64 via BufferJSON), so that whatever stores it
 * (a JSON column, a test's Map) can hand it back for getMessage retries and quoted replies.
 */
export function toRaw(message: WAMessage): unknown {
  return JSON.parse(JSON.stringify(message, BufferJSON.replacer));
}

/** The inverse of toRaw; accepts the JSON text too. Undefined for anything that is not a message. */
export function fromRaw(raw: unknown): WAMessage | undefined {
  if (raw === null || raw === undefined) return undefined;
  try {
    const text = typeof raw === "string" ? raw : JSON.stringify(raw);
    const value = JSON.parse(text, BufferJSON.reviver) as Record<string, unknown>;
    if (!value || typeof value !== "object" || !value.key || typeof value.key !== "object") {
      return undefined;
    }
    const message = value.message && typeof value.message === "object"
      ? proto.Message.fromObject(value.message as Record<string, unknown>)
      : undefined;
    return { ...value, key: value.key as WAMessageKey, message } as WAMessage;
  } catch {
    return undefined;
  }
}

type Media = {
  mediaType: MediaType;
  node: {
    mimetype?: string | null;
    fileLength?: unknown;
    caption?: string | null;
    fileName?: string | null;
  };
  fallbackMime: string;
};

function mediaOf(content: proto.IMessage): Media | undefined {
  if (content.imageMessage) {
    return { mediaType: "image", node: content.imageMessage, fallbackMime: "image/jpeg" };
  }
  if (content.videoMessage) {
    return { mediaType: "video", node: content.videoMessage, fallbackMime: "video/mp4" };
  }
  if (content.ptvMessage) {
    return { mediaType: "video", node: content.ptvMessage, fallbackMime: "video/mp4" };
  }
  if (content.audioMessage) {
    return { mediaType: "audio", node: content.audioMessage, fallbackMime: "audio/ogg" };
  }
  if (content.documentMessage) {
    return {
      mediaType: "application",
      node: content.documentMessage,
      fallbackMime: "application/octet-stream",
    };
  }
  if (content.stickerMessage) {
    return { mediaType: "image", node: content.stickerMessage, fallbackMime: "image/webp" };
  }
  return undefined;
}

/** The text a person wrote, for the kinds that carry only text (also edits' new content). */
export function textOf(content: proto.IMessage | null | undefined): string | undefined {
  if (!content) return undefined;
  if (typeof content.conversation === "string") return content.conversation;
  if (content.extendedTextMessage) return content.extendedTextMessage.text ?? "";
  const media = mediaOf(content);
  if (media) return media.node.caption ?? "";
  if (content.buttonsResponseMessage) {
    return content.buttonsResponseMessage.selectedDisplayText ??
      content.buttonsResponseMessage.selectedButtonId ?? "";
  }
  if (content.listResponseMessage) {
    return content.listResponseMessage.title ??
      content.listResponseMessage.singleSelectReply?.selectedRowId ?? "";
  }
  if (content.templateButtonReplyMessage) {
    return content.templateButtonReplyMessage.selectedDisplayText ??
      content.templateButtonReplyMessage.selectedId ?? "";
  }
  if (content.interactiveResponseMessage) {
    return content.interactiveResponseMessage.body?.text ?? "";
  }
  return undefined;
}

function contextOf(content: proto.IMessage): proto.IContextInfo | undefined {
  for (const value of Object.values(content)) {
    if (value && typeof value === "object" && "contextInfo" in value) {
      const info = (value as { contextInfo?: proto.IContextInfo | null }).contextInfo;
      if (info) return info;
    }
  }
  return undefined;
}

/** A location as text: name and address when given, then a map link (seeds/000 'locationMessage'). */
export function locationBody(location: proto.Message.ILocationMessage): string {
  const lat = Number(location.degreesLatitude ?? 0);
  const lng = Number(location.degreesLongitude ?? 0);
  const link = `https://maps.google.com/maps?q=${lat}%2C${lng}&z=17`;
  return [location.name, location.address, link].filter((part) => !!part).join("\n");
}

function vcardOf(contact: proto.Message.IContactMessage): string {
  if (contact.vcard) return contact.vcard;
  return `BEGIN:VCARD\nVERSION:3.0\nFN:${contact.displayName ?? ""}\nEND:VCARD`;
}

export type MapOptions = {
  origin: "notify" | "append";
  now: Date;
  /** Downloads a media message's bytes (Baileys' downloadMediaMessage in production). */
  download(message: WAMessage): Promise<Uint8Array>;
  lookupPn?: PnLookup;
};

/**
 * One messages.upsert entry to an inbound message, a revoke/edit event, or a reasoned skip.
 * Throws only on input that is not a message at all (no key or id): the caller logs and skips.
 */
export async function mapUpsert(msg: WAMessage, options: MapOptions): Promise<Mapped> {
  const key = msg.key;
  if (!key || !key.id || !key.remoteJid) throw new Error("message without key, id or remoteJid");
  const remoteJid = key.remoteJid;
  if (isJidBroadcast(remoteJid) || isJidNewsletter(remoteJid)) {
    return { kind: "skip", reason: "broadcast or newsletter" };
  }
  // Stubs (group notices, "waiting for this message" placeholders of undecryptable messages)
  // carry no content. Ingesting the placeholder would make the real message, which arrives
  // later with the same id after a retry, look like a duplicate.
  const content = normalizeMessageContent(msg.message);
  if (!content) return { kind: "skip", reason: "no content" };

  const ids = await resolveIdentities(key, options.lookupPn);

  const protocol = content.protocolMessage;
  if (protocol) {
    const T = proto.Message.ProtocolMessage.Type;
    const targetId = protocol.key?.id;
    if (protocol.type === T.REVOKE && targetId) {
      return { kind: "event", event: { type: "revoke", id: targetId, chatJid: ids.chatJid } };
    }
    if (protocol.type === T.MESSAGE_EDIT && targetId) {
      const body = textOf(normalizeMessageContent(protocol.editedMessage)) ?? "";
      return { kind: "event", event: { type: "edit", id: targetId, chatJid: ids.chatJid, body } };
    }
    return { kind: "skip", reason: `protocol message ${protocol.type}` };
  }
  if (content.reactionMessage) return { kind: "skip", reason: "reaction" };

  const base = {
    id: key.id,
    chatJid: ids.chatJid,
    isGroup: ids.isGroup,
    fromMe: !!key.fromMe,
    participantJid: ids.participantJid,
    phoneJid: ids.phoneJid,
    lidJid: ids.lidJid,
    pushName: key.fromMe ? undefined : msg.pushName ?? undefined,
    timestamp: toDate(msg.messageTimestamp, options.now),
    quotedId: contextOf(content)?.stanzaId ?? undefined,
    ...(contextOf(content)?.isForwarded ? { forwarded: true } : {}),
    origin: options.origin,
    raw: toRaw(msg),
  };

  const media = mediaOf(content);
  if (media) {
    const { node } = media;
    const size = node.fileLength === null || node.fileLength === undefined
      ? undefined
      : toNumber(node.fileLength as number);
    const filename = node.fileName ?? undefined;
    return {
      kind: "message",
      message: {
        ...base,
        body: node.caption ?? (media.mediaType === "application" ? filename ?? "" : ""),
        mediaType: media.mediaType,
        media: {
          mimetype: node.mimetype || media.fallbackMime,
          filename,
          size: Number.isFinite(size) ? size : undefined,
          download: () => options.download(msg),
        },
      },
    };
  }

  const location = content.locationMessage ?? content.liveLocationMessage;
  if (location) {
    return {
      kind: "message",
      message: { ...base, body: locationBody(location), mediaType: "locationMessage" },
    };
  }
  if (content.contactMessage) {
    return {
      kind: "message",
      message: { ...base, body: vcardOf(content.contactMessage), mediaType: "vcard" },
    };
  }
  if (content.contactsArrayMessage) {
    const cards = (content.contactsArrayMessage.contacts ?? []).map(vcardOf);
    return { kind: "message", message: { ...base, body: cards.join("\n"), mediaType: "vcard" } };
  }
  const poll = content.pollCreationMessage ?? content.pollCreationMessageV2 ??
    content.pollCreationMessageV3;
  if (poll) {
    const options = (poll.options ?? []).map((o) => `- ${o.optionName ?? ""}`);
    return {
      kind: "message",
      message: { ...base, body: [poll.name ?? "", ...options].join("\n") },
    };
  }
  const text = textOf(content);
  if (text !== undefined) return { kind: "message", message: { ...base, body: text } };
  const kinds = Object.keys(content).filter((k) => (content as Record<string, unknown>)[k] != null);
  if (kinds.every((k) => NOISE.has(k))) return { kind: "skip", reason: `noise ${kinds.join(",")}` };
  return { kind: "unsupported", reason: `unsupported content ${kinds.join(",")}` };
}
