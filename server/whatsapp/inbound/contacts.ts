import type { Database } from "../../../db/client.ts";
import type { Contact } from "../../../db/schema.ts";
import { log } from "../../log.ts";
import {
  clearContactLid,
  contactsByIdentity,
  insertContactOnce,
  patchContact,
} from "./repository.ts";
import type { Contact as ContactView } from "../../../contract/people_types.ts";

/**
 * The contact behind a WhatsApp identity. A person may reach us under their phone-number address
 * and under their LID (WhatsApp's privacy identity); both map to ONE contact row: `number` holds
 * the phone digits (or the LID while the phone is unknown) and `lid` the LID.
 */
export type Identity = {
  /** Phone digits when known. */
  phone?: string;
  /** LID user part when known. */
  lid?: string;
  /** Group id for a group chat (then phone and lid are unset). */
  group?: string;
  /** The name the person gave themselves (not for fromMe messages: that is our own name). */
  pushName?: string;
};

export type ResolvedContact = { contact: Contact; created: boolean; changed: boolean };

/** Finds or creates the contact of an identity, merging what is known of phone and LID. */
export async function resolveContact(
  db: Database,
  companyId: number,
  whatsappId: number,
  identity: Identity,
  now: string,
  /** The rows matching number-or-LID when the caller already read them (lookup_repository.ts). */
  known?: Contact[],
): Promise<ResolvedContact | undefined> {
  const number = identity.group ?? identity.phone ?? identity.lid;
  if (!number) return undefined;
  const lid = identity.group ? undefined : identity.lid;
  const candidates = known ?? await contactsByIdentity(db, companyId, number, lid);
  if (candidates.length === 0) {
    const inserted = await insertContactOnce(db, companyId, {
      name: identity.pushName?.trim() || number,
      number,
      lid: lid ?? null,
      isGroup: identity.group ? 1 : 0,
      whatsappId,
      now,
    });
    if (inserted) return { contact: inserted, created: true, changed: true };
    // Someone else created it meanwhile (another chat key for the same person): use theirs.
    const again = await resolveContact(db, companyId, whatsappId, identity, now);
    return again && { ...again, created: false };
  }
  const byNumber = candidates.find((c) => c.number === number);
  const byLid = lid ? candidates.find((c) => c.lid === lid) : undefined;
  let contact = byNumber ?? byLid!;
  const patch: Partial<Pick<Contact, "number" | "lid" | "name">> = {};
  if (byNumber && byLid && byNumber.id !== byLid.id) {
    // The same person was stored twice before the mapping was known: the phone row wins the
    // LID; the LID-only row keeps its history (its tickets stay where they are).
    await clearContactLid(db, companyId, byLid.id, now);
    log.info("contact LID moved to the phone-number contact", {
      companyId,
      from: byLid.id,
      to: byNumber.id,
    });
    contact = byNumber;
    patch.lid = lid;
  } else if (lid && contact.lid !== lid) {
    patch.lid = lid;
  }
  if (identity.phone && contact.number !== identity.phone && contact.number === contact.lid) {
    patch.number = identity.phone; // the LID-only contact learns its phone number
  }
  const pushName = identity.pushName?.trim();
  if (pushName && contact.name === contact.number && pushName !== contact.name) {
    patch.name = pushName; // only a placeholder name is replaced: never a name someone typed
  }
  if (Object.keys(patch).length === 0) return { contact, created: false, changed: false };
  try {
    const updated = await patchContact(db, companyId, contact.id, patch, now);
    return { contact: updated, created: false, changed: true };
  } catch (error) {
    // e.g. the phone number already belongs to another contact: keep the row as it is.
    log.warn("contact identity update skipped", { companyId, contactId: contact.id, error });
    return { contact, created: false, changed: false };
  }
}

/** A contact as the API answers it (server/contacts/service.ts; no extra fields here). */
export function contactView(c: Contact): ContactView {
  return {
    id: c.id,
    uuid: c.uuid,
    name: c.name,
    number: c.number,
    email: c.email,
    profilePicUrl: c.profilePicUrl,
    isGroup: c.isGroup === 1,
    whatsappId: c.whatsappId,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}
