import { isAddress, normalizeAddress } from "../providers/address.ts";
import type { InboundMessage, InboundRef } from "../providers/provider.ts";

/**
 * What the pipeline checks of a provider's event before anything is stored, and the chat key its
 * events are serialised by (server/whatsapp/inbound/pipeline.ts).
 */

/** One chat of one connection: its events run one at a time, in order. */
export function chatKey(ref: InboundRef, address: string): string {
  return `${ref.id}:${normalizeAddress(address)}`;
}

export function validId(id: unknown): id is string {
  return typeof id === "string" && id.length > 0 && id.length <= 200;
}

/** A provider's message, checked field by field; undefined when it cannot be stored safely. */
export function validMessage(value: unknown, now: Date): InboundMessage | undefined {
  if (!value || typeof value !== "object") return undefined;
  const m = value as Partial<InboundMessage>;
  if (!validId(m.id) || typeof m.chatJid !== "string" || !isAddress(m.chatJid)) return undefined;
  if (m.body !== undefined && typeof m.body !== "string") return undefined;
  if (
    m.media !== undefined &&
    (typeof m.media !== "object" || typeof m.media?.download !== "function")
  ) {
    return undefined;
  }
  const timestamp = m.timestamp instanceof Date && !isNaN(m.timestamp.getTime())
    ? m.timestamp
    : now;
  return {
    ...m,
    id: m.id,
    chatJid: m.chatJid,
    isGroup: m.isGroup === true,
    fromMe: m.fromMe === true,
    timestamp,
    body: m.body ?? "",
    origin: m.origin === "append" ? "append" : "notify",
  } as InboundMessage;
}
