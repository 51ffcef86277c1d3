import { noteOutgoing } from "../events/outgoing_repository.ts";
import { isUniqueViolation } from "../../db/constraints.ts";
import type { Contact } from "../../db/schema.ts";
import type { AppDeps } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import { normalizeNumber } from "./numbers.ts";
import * as repo from "./repository.ts";
import { pageAnswer, pageWindow } from "../paging.ts";
import type { Contact as ContactShape } from "../../contract/people_types.ts";

/** A contact as the API and the socket answer it (seeds/000 section 3 'Contact'). */
export type ContactView = ContactShape;

export function contactView(row: Contact, extraInfo?: repo.ExtraInfo[]): ContactView {
  const view: ContactView = {
    id: row.id,
    uuid: row.uuid,
    name: row.name,
    number: row.number,
    email: row.email,
    profilePicUrl: row.profilePicUrl,
    isGroup: row.isGroup === 1,
    whatsappId: row.whatsappId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
  if (extraInfo) view.extraInfo = extraInfo;
  return view;
}

export const CONTACTS_PAGE_SIZE = 20;

export type ContactInput = {
  name: string;
  number: string;
  email?: string;
  extraInfo?: { id?: number; name: string; value: string }[];
};

function duplicated(number: string): AppError {
  return new AppError(409, "ERR_DUPLICATED_CONTACT", `Já existe um contato com o número ${number}`);
}

/** The number as stored, or 400 ERR_WAPP_INVALID_CONTACT with what is wrong with it. */
export function validNumber(raw: string): { number: string; isGroup: boolean } {
  const result = normalizeNumber(raw);
  if (!result.ok) {
    throw new AppError(400, "ERR_WAPP_INVALID_CONTACT", result.message, {
      fields: { number: [result.message] },
    });
  }
  return { number: result.number, isGroup: result.isGroup };
}

/** GET /api/contacts: a page of contacts by name, with search (seeds/000 section 7). */
export async function listContactsPage(
  deps: AppDeps,
  companyId: number,
  query: { searchParam?: string; pageNumber: number },
) {
  const window = pageWindow(query.pageNumber, CONTACTS_PAGE_SIZE);
  const { rows, count } = await repo.listContacts(deps.db, companyId, {
    search: query.searchParam,
    ...window,
  });
  return pageAnswer("contacts", rows.map((r) => contactView(r)), count, window);
}

/** One contact with its extra fields; 404 for another company's. */
export async function getContact(
  deps: AppDeps,
  companyId: number,
  id: number,
): Promise<ContactView> {
  const row = await repo.findContact(deps.db, companyId, id);
  if (!row) throw notFound("ERR_NO_CONTACT_FOUND", "Contato não encontrado");
  const view = contactView(row, await repo.extraInfoOf(deps.db, companyId, id));
  // Shown in the contact's drawer: campaigns never message this number again.
  const optOut = await repo.campaignOptOut(deps.db, companyId, row.number);
  view.campaignOptOut = optOut ? { word: optOut.word, at: optOut.createdAt } : null;
  return view;
}

/** Creates a contact with a normalised, unique number; announces it after commit. */
export async function createContact(
  deps: AppDeps,
  companyId: number,
  input: ContactInput,
): Promise<ContactView> {
  const { number, isGroup } = validNumber(input.number);
  const now = deps.clock.now().toISOString();
  let created: ContactView;
  let outgoing = "";
  try {
    created = await deps.db.transaction().execute(async (trx) => {
      if (await repo.findContactByNumber(trx, companyId, number)) throw duplicated(number);
      const row = await repo.insertContact(trx, companyId, {
        name: input.name,
        number,
        email: input.email ?? "",
        isGroup: isGroup ? 1 : 0,
      }, now);
      if (input.extraInfo?.length) {
        await repo.replaceExtraInfo(trx, companyId, row.id, input.extraInfo, now);
      }
      outgoing = await noteOutgoing(trx, companyId, "contact.created", { contactId: row.id }, now);
      return contactView(row, await repo.extraInfoOf(trx, companyId, row.id));
    });
  } catch (error) {
    if (isUniqueViolation(error, "contacts.number")) throw duplicated(number);
    throw error;
  }
  deps.events.emit("contact.created", { companyId, contact: created, outgoing });
  return created;
}

/**
 * Updates a contact. A number left as it is is not re-validated (numbers that arrived from
 * WhatsApp, and group ids, stay editable); extraInfo, when sent, replaces the extra fields.
 */
export async function updateContact(
  deps: AppDeps,
  companyId: number,
  id: number,
  input: Partial<ContactInput>,
): Promise<ContactView> {
  const now = deps.clock.now().toISOString();
  let number: string | undefined;
  let updated: ContactView;
  let outgoing = "";
  try {
    updated = await deps.db.transaction().execute(async (trx) => {
      const existing = await repo.findContact(trx, companyId, id);
      if (!existing) throw notFound("ERR_NO_CONTACT_FOUND", "Contato não encontrado");
      const fields: Partial<repo.ContactFields> = {};
      if (input.name !== undefined) fields.name = input.name;
      if (input.email !== undefined) fields.email = input.email;
      if (input.number !== undefined && input.number !== existing.number) {
        const valid = existing.isGroup === 1
          ? { number: input.number.trim(), isGroup: true }
          : validNumber(input.number);
        number = valid.number;
        if (number !== existing.number) {
          const other = await repo.findContactByNumber(trx, companyId, number);
          if (other && other.id !== id) throw duplicated(number);
          fields.number = number;
        }
      }
      const row = await repo.updateContact(trx, companyId, id, fields, now) ?? existing;
      if (input.extraInfo !== undefined) {
        await repo.replaceExtraInfo(trx, companyId, id, input.extraInfo, now);
      }
      outgoing = await noteOutgoing(trx, companyId, "contact.updated", { contactId: id }, now);
      return contactView(row, await repo.extraInfoOf(trx, companyId, id));
    });
  } catch (error) {
    if (isUniqueViolation(error, "contacts.number")) throw duplicated(number ?? "");
    throw error;
  }
  deps.events.emit("contact.updated", { companyId, contact: updated, outgoing });
  return updated;
}

/**
 * Deletes a contact and, through the foreign keys, its tickets, messages and extra fields.
 * The lists that showed those tickets are told to drop them.
 */
export async function deleteContact(deps: AppDeps, companyId: number, id: number) {
  const tickets = await deps.db.transaction().execute(async (trx) => {
    const existing = await repo.findContact(trx, companyId, id);
    if (!existing) throw notFound("ERR_NO_CONTACT_FOUND", "Contato não encontrado");
    const tickets = await repo.ticketsOfContact(trx, companyId, id);
    await repo.deleteContact(trx, companyId, id);
    return tickets;
  });
  for (const t of tickets) {
    deps.events.emit("ticket.deleted", {
      companyId,
      ticketId: t.id,
      before: { status: t.status, queueId: t.queueId, userId: t.userId },
      isGroup: t.isGroup === 1,
    });
  }
  deps.events.emit("contact.deleted", { companyId, id });
}

/** Contacts for pickers (new-ticket, schedules): up to `limit`, by name, optionally searched. */
export async function contactOptions(
  deps: AppDeps,
  companyId: number,
  query: { searchParam?: string; limit: number },
) {
  const rows = await repo.listContactOptions(deps.db, companyId, {
    search: query.searchParam,
    limit: query.limit,
  });
  return rows.map((r) => ({ ...r, isGroup: r.isGroup === 1 }));
}
