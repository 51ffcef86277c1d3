/**
 * Addresses: who a message goes to or comes from, as the rest of the server holds them (a
 * contact's phone, its privacy id, a group). Outside `providers/` an address is an opaque
 * `Address` read and made only through the functions below; each provider translates it to its
 * own wire form (Baileys and the simulator speak it as is; the Cloud API turns it into a `wa_id`
 * or a business-scoped user id). Stored rows (messages.remoteJid, outbox.toJid) hold this form.
 *
 * The form is WhatsApp Web's identity. A JID is `user@server`: `@s.whatsapp.net` (or the old `@c.us`) for a
 * phone number, `@lid` for the privacy identity that hides it, `@g.us` for a group. Device
 * suffixes (`5511...:12@s.whatsapp.net`) name the same person.
 */
/** A chat or person, in the providers' shared form (see above). */
export type Address = string;

export type ParsedJid = { user: string; server: string };

export function parseJid(jid: string | undefined): ParsedJid | undefined {
  if (typeof jid !== "string") return undefined;
  const at = jid.indexOf("@");
  if (at <= 0) return undefined;
  const user = jid.slice(0, at).split(":")[0];
  const server = jid.slice(at + 1).toLowerCase();
  if (!user || !server) return undefined;
  return { user, server };
}

export function isGroupJid(jid: string | undefined): boolean {
  return parseJid(jid)?.server === "g.us";
}

/** The phone digits of a phone JID, else undefined. */
export function phoneOf(jid: string | undefined): string | undefined {
  const parsed = parseJid(jid);
  if (!parsed || (parsed.server !== "s.whatsapp.net" && parsed.server !== "c.us")) return undefined;
  return /^\d{5,20}$/.test(parsed.user) ? parsed.user : undefined;
}

/**
 * The privacy id of a `@lid` address, else undefined: WhatsApp Web's LID (digits) or the Cloud
 * API's business-scoped user id (BSUID, `CC.<alphanumerics>`), both a person whose phone number
 * may be unknown; the formats never overlap.
 */
export function lidOf(jid: string | undefined): string | undefined {
  const parsed = parseJid(jid);
  if (parsed?.server !== "lid") return undefined;
  return /^\d{1,30}$/.test(parsed.user) || isBsuid(parsed.user) ? parsed.user : undefined;
}

/** A business-scoped user id (Cloud API, 2026): country code, a dot, up to 128 characters. */
export function isBsuid(id: string): boolean {
  return /^[A-Z]{2}\.[A-Za-z0-9.]{1,140}$/.test(id);
}

/** The group id of a `@g.us` JID, else undefined. */
export function groupOf(jid: string | undefined): string | undefined {
  const parsed = parseJid(jid);
  return parsed?.server === "g.us" ? parsed.user : undefined;
}

/** Device-free form of a JID, used as the per-chat serialisation key. */
export function normalizeJid(jid: string): string {
  const parsed = parseJid(jid);
  return parsed ? `${parsed.user}@${parsed.server}` : jid;
}

/**
 * The JID to send to for a contact. A contact known only by its LID keeps the LID in `number`
 * too (number === lid); a group's number is its group id.
 */
export function jidOfContact(
  contact: { number: string; lid: string | null; isGroup: number },
): string {
  if (contact.isGroup === 1) return `${contact.number}@g.us`;
  if (contact.lid && contact.number === contact.lid) return `${contact.lid}@lid`;
  return `${contact.number}@s.whatsapp.net`;
}

/** A new WhatsApp-style message id (the shape Baileys generates: 3EB0 + hex). */
export function newMessageId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return "3EB0" + Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("").toUpperCase();
}

/** Neutral names for the functions above: what code outside `providers/` calls. */
export const isAddress = (address: string | undefined): boolean => parseJid(address) !== undefined;
export const isGroupAddress = isGroupJid;
export const phoneOfAddress = phoneOf;
export const lidOfAddress = lidOf;
export const groupOfAddress = groupOf;
/** The user part of an address (a group's id, a phone, a privacy id). */
export const idOfAddress = (address: string | undefined): string | undefined =>
  parseJid(address)?.user;
export const normalizeAddress = normalizeJid;
export const addressOfContact = jidOfContact;
/** The address of a phone number (digits with the country code). */
export function addressOfPhone(digits: string): Address {
  return `${digits}@s.whatsapp.net`;
}
/** The address of a privacy id (a contact known without its phone). */
export function addressOfLid(lid: string): Address {
  return `${lid}@lid`;
}
