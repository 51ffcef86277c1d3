import { sql } from "kysely";
import type { Database } from "../../db/client.ts";
import type { Contact } from "../../db/schema.ts";
import { likePattern } from "../paging.ts";
import { type Engine, engineOf } from "../../db/engine.ts";

export type ExtraInfo = { id: number; name: string; value: string };

/** FTS5 phrase for a substring search: the term quoted, quotes doubled. */
function phrase(term: string): string {
  return `"${term.replaceAll('"', '""')}"`;
}

/**
 * Contacts whose name, number or email contains `search` (accent- and case-insensitive).
 * Terms of 3 or more characters use the trigram index; shorter ones (which the trigram index
 * cannot answer) fall back to LIKE over the company's contacts. Digits typed with punctuation
 * ("(13) 9123") are also matched against the stored digits.
 */
export function searchFilter(search: string | undefined, engine: Engine = "sqlite") {
  const term = search?.trim() ?? "";
  if (!term) return undefined;
  const digits = term.replace(/\D/g, "");
  const phrases = [term];
  if (digits.length >= 3 && digits !== term) phrases.push(digits);
  if (engine === "postgres") {
    // The trigram index contacts_search (migration 0640) holds this very expression.
    const holds = phrases.map((p) =>
      sql<boolean>`f_unaccent(contacts.name || ' ' || contacts.number || ' ' ||
        coalesce(contacts.email, '')) LIKE f_unaccent(${likePattern(p)}) ESCAPE '\\'`
    );
    return sql<boolean>`(${sql.join(holds, sql` OR `)})`;
  }
  if (term.length >= 3) {
    const match = phrases.map(phrase).join(" OR ");
    return sql<
      boolean
    >`contacts.id IN (SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH ${match})`;
  }
  const like = likePattern(term);
  return sql<
    boolean
  >`(contacts.name LIKE ${like} ESCAPE '\\' OR contacts.number LIKE ${like} ESCAPE '\\' OR contacts.email LIKE ${like} ESCAPE '\\')`;
}

/** One page of a company's contacts ordered by name (case-insensitive), with the total count. */
export async function listContacts(
  db: Database,
  companyId: number,
  options: { search?: string; limit: number; offset: number },
): Promise<{ rows: Contact[]; count: number }> {
  const filter = searchFilter(options.search, engineOf(db));
  let query = db.selectFrom("contacts").where("contacts.companyId", "=", companyId);
  if (filter) query = query.where(filter);
  const [rows, total] = await Promise.all([
    query.selectAll().orderBy(sql`name COLLATE NOCASE`).orderBy("id").limit(options.limit)
      .offset(options.offset).execute(),
    query.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.count) };
}

/** Contacts for pickers: id, name, number, ordered by name, optionally filtered. */
export async function listContactOptions(
  db: Database,
  companyId: number,
  options: { search?: string; limit: number },
) {
  const filter = searchFilter(options.search, engineOf(db));
  let query = db.selectFrom("contacts").where("contacts.companyId", "=", companyId);
  if (filter) query = query.where(filter);
  return await query.select(["id", "name", "number", "email", "profilePicUrl", "isGroup"])
    .orderBy(sql`name COLLATE NOCASE`).orderBy("id").limit(options.limit).execute();
}

export async function findContact(
  db: Database,
  companyId: number,
  id: number,
): Promise<Contact | undefined> {
  return await db.selectFrom("contacts").selectAll().where("companyId", "=", companyId)
    .where("id", "=", id).executeTakeFirst();
}

/** The word with which the number asked campaigns to stop messaging it, if it did. */
export async function campaignOptOut(db: Database, companyId: number, number: string) {
  return await db.selectFrom("campaign_opt_outs").select(["word", "createdAt"])
    .where("companyId", "=", companyId).where("number", "=", number).executeTakeFirst();
}

export async function findContactByNumber(
  db: Database,
  companyId: number,
  number: string,
): Promise<Contact | undefined> {
  return await db.selectFrom("contacts").selectAll().where("companyId", "=", companyId)
    .where("number", "=", number).executeTakeFirst();
}

/** Existing contacts among `numbers`, keyed by number (chunked under SQLite's variable limit). */
export async function contactsByNumbers(
  db: Database,
  companyId: number,
  numbers: readonly string[],
): Promise<Map<string, Contact>> {
  const found = new Map<string, Contact>();
  for (let i = 0; i < numbers.length; i += 500) {
    const chunk = numbers.slice(i, i + 500);
    const rows = await db.selectFrom("contacts").selectAll().where("companyId", "=", companyId)
      .where("number", "in", chunk).execute();
    for (const row of rows) found.set(row.number, row);
  }
  return found;
}

export async function extraInfoOf(
  db: Database,
  companyId: number,
  contactId: number,
): Promise<ExtraInfo[]> {
  return await db.selectFrom("contact_custom_fields").select(["id", "name", "value"])
    .where("companyId", "=", companyId).where("contactId", "=", contactId).orderBy("id")
    .execute();
}

export type ContactFields = { name: string; number: string; email: string; isGroup: number };

/** A new contact's row: WhatsApp ids come later, from its first message. */
function newContactRow(companyId: number, fields: ContactFields, now: string) {
  const row = { uuid: crypto.randomUUID(), companyId, lid: null, whatsappId: null };
  return { ...fields, ...row, createdAt: now, updatedAt: now };
}

export async function insertContact(
  db: Database,
  companyId: number,
  fields: ContactFields,
  now: string,
): Promise<Contact> {
  return await db.insertInto("contacts").values(newContactRow(companyId, fields, now))
    .returningAll().executeTakeFirstOrThrow();
}

/** Inserts many contacts in chunks (one statement per 200 rows). */
export async function insertContacts(
  db: Database,
  companyId: number,
  rows: readonly ContactFields[],
  now: string,
): Promise<Contact[]> {
  const inserted: Contact[] = [];
  for (let i = 0; i < rows.length; i += 200) {
    inserted.push(
      ...await db.insertInto("contacts").values(
        rows.slice(i, i + 200).map((fields) => newContactRow(companyId, fields, now)),
      ).returningAll().execute(),
    );
  }
  return inserted;
}

export async function updateContact(
  db: Database,
  companyId: number,
  id: number,
  fields: Partial<ContactFields>,
  now: string,
): Promise<Contact | undefined> {
  return await db.updateTable("contacts").set({ ...fields, updatedAt: now })
    .where("companyId", "=", companyId).where("id", "=", id).returningAll().executeTakeFirst();
}

/**
 * Replaces a contact's extra fields: entries with an id of this contact are updated, entries
 * without one are added, and the contact's other entries are deleted. Ids that are not this
 * contact's are treated as new entries (never touching another contact's rows).
 */
export async function replaceExtraInfo(
  db: Database,
  companyId: number,
  contactId: number,
  fields: readonly { id?: number; name: string; value: string }[],
  now: string,
) {
  const existing = await extraInfoOf(db, companyId, contactId);
  const existingIds = new Set(existing.map((e) => e.id));
  const kept = new Set<number>();
  const added: { name: string; value: string }[] = [];
  for (const field of fields) {
    if (field.id !== undefined && existingIds.has(field.id) && !kept.has(field.id)) {
      kept.add(field.id);
      await db.updateTable("contact_custom_fields")
        .set({ name: field.name, value: field.value, updatedAt: now })
        .where("companyId", "=", companyId).where("contactId", "=", contactId)
        .where("id", "=", field.id).execute();
    } else {
      added.push({ name: field.name, value: field.value });
    }
  }
  const removed = existing.map((e) => e.id).filter((id) => !kept.has(id));
  if (removed.length) {
    await db.deleteFrom("contact_custom_fields").where("companyId", "=", companyId)
      .where("contactId", "=", contactId).where("id", "in", removed).execute();
  }
  if (added.length) {
    await db.insertInto("contact_custom_fields").values(
      added.map((f) => ({ ...f, companyId, contactId, createdAt: now, updatedAt: now })),
    ).execute();
  }
}

/** Placements of a contact's tickets, read before deleting it (their lists must drop them). */
export async function ticketsOfContact(db: Database, companyId: number, contactId: number) {
  return await db.selectFrom("tickets").select(["id", "status", "queueId", "userId", "isGroup"])
    .where("companyId", "=", companyId).where("contactId", "=", contactId).execute();
}

export async function deleteContact(
  db: Database,
  companyId: number,
  id: number,
): Promise<boolean> {
  const result = await db.deleteFrom("contacts").where("companyId", "=", companyId)
    .where("id", "=", id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** A page of contacts for the CSV export, in id order (keyset: stable while rows are added). */
export async function exportPage(db: Database, companyId: number, afterId: number, limit: number) {
  return await db.selectFrom("contacts").select(["id", "name", "number", "email"])
    .where("companyId", "=", companyId).where("id", ">", afterId).orderBy("id").limit(limit)
    .execute();
}
