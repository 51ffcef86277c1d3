import type { Ack, InboundMessage, MediaType, ProviderEvent } from "../provider.ts";
import { addressOfLid, addressOfPhone, isBsuid } from "../address.ts";
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

/** The text and kind of one inbound message (a reaction is not one: see eventsOfValue). */
function contentOf(
  m: Json,
  download: (mediaId: string) => Promise<Uint8Array>,
): Pick<InboundMessage, "body" | "mediaType" | "media" | "quotedId" | "choice"> {
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
    // A tapped menu button or list row: shown by its title, answered to the bot by its id.
    const reply = obj(part.button_reply ?? part.list_reply);
    return { body: str(reply.title) ?? str(reply.id) ?? "", choice: str(reply.id) };
  }
  if (type === "button") return { body: str(part.text) ?? str(part.payload) ?? "" };
  // system, order, unsupported (131051) and whatever comes next: visible, not lost.
  return { body: `[${type}]` };
}

/**
 * A Click-to-WhatsApp ad's (or post's) `referral`, as the neutral shape the ticket keeps; Meta's
 * media link is the image's or the video's.
 */
function referralOf(value: unknown): InboundMessage["referral"] {
  const r = obj(value);
  const sourceType = str(r.source_type);
  if (!sourceType && !str(r.source_url) && !str(r.ctwa_clid)) return undefined;
  return {
    sourceType: sourceType ?? "ad",
    sourceId: str(r.source_id) ?? null,
    sourceUrl: str(r.source_url) ?? null,
    headline: str(r.headline) ?? null,
    body: str(r.body) ?? null,
    mediaType: str(r.media_type) ?? null,
    mediaUrl: str(r.image_url) ?? str(r.video_url) ?? null,
    thumbnailUrl: str(r.thumbnail_url) ?? null,
    ctwaClid: str(r.ctwa_clid) ?? null,
  };
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
    if (name && c.user_id) names.set(c.user_id, name);
  }
  for (const m of value.messages ?? []) {
    const id = str(m.id);
    const phone = str(m.from) && /^\d{5,20}$/.test(str(m.from)!) ? str(m.from) : undefined;
    // The business-scoped user id: the only identity of a contact whose number Meta omits.
    const bsuid = str(m.from_user_id) && isBsuid(str(m.from_user_id)!)
      ? str(m.from_user_id)
      : undefined;
    if (!id || (!phone && !bsuid)) {
      skipped++;
      continue;
    }
    const from = (phone ?? bsuid)!;
    const lidJid = bsuid ? addressOfLid(bsuid) : undefined;
    const chat = phone ? addressOfPhone(phone) : lidJid!;
    if (str(m.type) === "reaction") {
      // On the message it is about, not a message of its own; no emoji: the reaction removed.
      const target = str(obj(m.reaction).message_id);
      if (target) {
        events.push({
          type: "reaction",
          id: target,
          chatJid: chat,
          emoji: str(obj(m.reaction).emoji) ?? "",
        });
      }
      continue;
    }
    const content = contentOf(m, download);
    const seconds = Number(m.timestamp);
    events.push({
      type: "message",
      message: {
        id,
        chatJid: chat,
        phoneJid: phone ? chat : undefined,
        lidJid,
        isGroup: false,
        fromMe: false,
        pushName: names.get(from) ?? (bsuid ? names.get(bsuid) : undefined),
        timestamp: Number.isFinite(seconds) && seconds > 0 ? new Date(seconds * 1000) : new Date(),
        quotedId: content.quotedId ?? str(obj(m.context).id),
        choice: content.choice,
        forwarded: obj(m.context).forwarded === true ? true : undefined,
        referral: referralOf(m.referral),
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
    // A send to a BSUID-only contact is reported with recipient_user_id instead of the number.
    const userId = str(s.recipient_user_id);
    const recipient = str(s.recipient_id) ??
      (userId && isBsuid(userId) ? userId : undefined);
    const status = str(s.status);
    if (!id || !status) continue;
    if (!recipient) continue;
    const addressOf = (r: string) => isBsuid(r) ? addressOfLid(r) : addressOfPhone(r);
    if (status === "failed") {
      const error = obj(Array.isArray(s.errors) ? s.errors[0] : undefined);
      const metaCode = typeof error.code === "number" ? error.code : undefined;
      failures.push({ id, code: metaCode, title: str(error.title) ?? str(error.message) });
      const code = cloudErrorKind(metaCode).code;
      events.push({ type: "failed", id, chatJid: addressOf(recipient), code });
      continue;
    }
    const ack = ACKS[status];
    if (ack === undefined) continue;
    events.push({ type: "ack", id, chatJid: addressOf(recipient), ack });
  }
  return { events, failures, skipped };
}
