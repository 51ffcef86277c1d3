import type { Ack, InboundMessage, MediaType, ProviderEvent } from "../provider.ts";
import { addressOfPhone } from "../address.ts";
import { cloudErrorKind } from "./errors.ts";

/**
 * A webhook post's `entry[].changes[].value` (field "messages") as provider events, in order:
 * messages first, then statuses. Shapes: developers.facebook.com …/webhooks/reference/messages.
 * Nothing here reads the network: media come with a `download` the provider supplies.
 */

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === "object" ? v as Json : {});
const str = (v: unknown): string | undefined => (typeof v === "string" && v ? v : undefined);

export type ChangeValue = {
  metadata?: { phone_number_id?: string; display_phone_number?: string };
  contacts?: { profile?: { name?: string }; wa_id?: string; user_id?: string }[];
  messages?: Json[];
  statuses?: Json[];
  errors?: Json[];
};

/** Every change of a post with the phone number id it is about (all entries, all changes). */
export function changesOf(payload: unknown): { phoneNumberId?: string; value: ChangeValue }[] {
  const out: { phoneNumberId?: string; value: ChangeValue }[] = [];
  const entries = Array.isArray(obj(payload).entry) ? obj(payload).entry as unknown[] : [];
  for (const entry of entries) {
    const changes = Array.isArray(obj(entry).changes) ? obj(entry).changes as unknown[] : [];
    for (const change of changes) {
      if (obj(change).field !== "messages") continue;
      const value = obj(obj(change).value) as ChangeValue;
      out.push({ phoneNumberId: str(value.metadata?.phone_number_id), value });
    }
  }
  return out;
}

const MEDIA: Record<string, MediaType> = {
  image: "image",
  sticker: "image",
  video: "video",
  audio: "audio",
  document: "application",
};

/** The media id of a stored inbound message's payload (for a later download). */
export function mediaIdOf(raw: unknown): string | undefined {
  const m = obj(raw);
  const type = str(m.type);
  return type && MEDIA[type] ? str(obj(m[type]).id) : undefined;
}

/** A location as text: name and address when given, then a map link (as Baileys writes it). */
function locationBody(l: Json): string {
  const link = `https://maps.google.com/maps?q=${Number(l.latitude ?? 0)}%2C${
    Number(l.longitude ?? 0)
  }&z=17`;
  return [str(l.name), str(l.address), link].filter((p) => !!p).join("\n");
}

function vcards(list: unknown): string {
  const cards = (Array.isArray(list) ? list : []).map((c) => {
    const name = str(obj(obj(c).name).formatted_name) ?? "";
    const phones = (Array.isArray(obj(c).phones) ? obj(c).phones as unknown[] : []).map((p) => {
      const phone = str(obj(p).phone) ?? "";
      const waId = str(obj(p).wa_id);
      return waId ? `TEL;type=CELL;waid=${waId}:${phone}` : `TEL:${phone}`;
    });
    return ["BEGIN:VCARD", "VERSION:3.0", `FN:${name}`, ...phones, "END:VCARD"].join("\n");
  });
  return cards.join("\n");
}

/** The text and kind of one inbound message; undefined: nothing to store (a reaction removed). */
function contentOf(
  m: Json,
  download: (mediaId: string) => Promise<Uint8Array>,
): Pick<InboundMessage, "body" | "mediaType" | "media" | "quotedId"> | undefined {
  const type = str(m.type) ?? "unsupported";
  const part = obj(m[type]);
  if (type === "text") return { body: str(part.body) ?? "" };
  if (MEDIA[type]) {
    const mediaId = str(part.id);
    const mimetype = str(part.mime_type) ?? "application/octet-stream";
    const filename = str(part.filename);
    return {
      body: str(part.caption) ?? (type === "document" ? filename ?? "" : ""),
      mediaType: MEDIA[type],
      media: mediaId ? { mimetype, filename, download: () => download(mediaId) } : undefined,
    };
  }
  if (type === "location") return { body: locationBody(part), mediaType: "locationMessage" };
  if (type === "contacts") return { body: vcards(m.contacts), mediaType: "vcard" };
  if (type === "interactive") {
    const reply = obj(part.button_reply ?? part.list_reply);
    return { body: str(reply.title) ?? str(reply.id) ?? "" };
  }
  if (type === "button") return { body: str(part.text) ?? str(part.payload) ?? "" };
  if (type === "reaction") {
    const emoji = str(part.emoji);
    // A reaction removed has no emoji: nothing to show.
    if (!emoji) return undefined;
    return { body: emoji, quotedId: str(part.message_id) };
  }
  // system, order, unsupported (131051) and whatever comes next: visible, not lost.
  return { body: `[${type}]` };
}

/** Meta's statuses on our ack scale; `failed` is handled apart (it carries a code). */
const ACKS: Record<string, Ack> = { sent: 1, delivered: 2, read: 3, played: 4 };

export type FailedStatus = { id: string; code?: number; title?: string };

export function eventsOfValue(
  value: ChangeValue,
  download: (mediaId: string) => Promise<Uint8Array>,
): { events: ProviderEvent[]; failures: FailedStatus[]; skipped: number } {
  const events: ProviderEvent[] = [];
  const failures: FailedStatus[] = [];
  let skipped = 0;
  const names = new Map<string, string>();
  for (const c of value.contacts ?? []) {
    const name = str(c.profile?.name);
    if (name && c.wa_id) names.set(c.wa_id, name);
  }
  for (const m of value.messages ?? []) {
    const id = str(m.id);
    const from = str(m.from);
    // A contact known only by its business-scoped id (no phone) is not handled yet.
    if (!id || !from || !/^\d{5,20}$/.test(from)) {
      skipped++;
      continue;
    }
    const content = contentOf(m, download);
    if (!content) continue;
    const seconds = Number(m.timestamp);
    const chat = addressOfPhone(from);
    events.push({
      type: "message",
      message: {
        id,
        chatJid: chat,
        phoneJid: chat,
        isGroup: false,
        fromMe: false,
        pushName: names.get(from),
        timestamp: Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date(),
        quotedId: content.quotedId ?? str(obj(m.context).id),
        forwarded: obj(m.context).forwarded === true ? true : undefined,
        body: content.body,
        mediaType: content.mediaType,
        media: content.media,
        origin: "notify",
        raw: m,
      },
    });
  }
  for (const s of value.statuses ?? []) {
    const id = str(s.id);
    const recipient = str(s.recipient_id);
    const status = str(s.status);
    if (!id || !status) continue;
    if (!recipient) continue;
    if (status === "failed") {
      const error = obj(Array.isArray(s.errors) ? s.errors[0] : undefined);
      const metaCode = typeof error.code === "number" ? error.code : undefined;
      failures.push({ id, code: metaCode, title: str(error.title) ?? str(error.message) });
      const code = cloudErrorKind(metaCode).code;
      events.push({ type: "failed", id, chatJid: addressOfPhone(recipient), code });
      continue;
    }
    const ack = ACKS[status];
    if (ack === undefined) continue;
    events.push({ type: "ack", id, chatJid: addressOfPhone(recipient), ack });
  }
  return { events, failures, skipped };
}
