import type { AppDeps } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import type { SkippedRow } from "../contacts/rows.ts";
import { readSheetOffThread } from "../contacts/read_sheet.ts";
import * as repo from "./lists_repository.ts";

/** Contact lists and their items (seeds/002 sections 2.4, 3, 5, 7; issue 13 deliverable 1). */

export function listNotFound(): AppError {
  return notFound("ERR_NO_CONTACT_LIST_FOUND", "Lista de contatos não encontrada");
}

function itemNotFound(): AppError {
  return notFound("ERR_NO_CONTACT_LIST_ITEM_FOUND", "Contato da lista não encontrado");
}

function duplicatedNumber(number: string): AppError {
  return new AppError(409, "ERR_DUPLICATED_CONTACT", `O número ${number} já está nesta lista`);
}

async function publishList(deps: AppDeps, companyId: number, id: number) {
  const view = await repo.findContactList(deps.db, companyId, id);
  if (view) {
    deps.events.emit("list.changed", {
      companyId,
      resource: "contactList",
      change: { action: "update", record: view },
    });
  }
}

/** GET /api/contact-lists: a page by name, `searchParam` on the name. */
export async function listContactLists(
  deps: AppDeps,
  companyId: number,
  searchParam: string | undefined,
  pageNumber: number,
) {
  return await repo.pageContactLists(deps.db, companyId, searchParam, pageNumber);
}

/** GET /api/contact-lists/list: every list (the campaign dialog's select). */
export async function contactListChoices(deps: AppDeps, companyId: number) {
  return await repo.allContactLists(deps.db, companyId);
}

/** GET /api/contact-list-items: a page of one list's items (404 for another company's list). */
export async function listItems(
  deps: AppDeps,
  companyId: number,
  contactListId: number,
  searchParam: string | undefined,
  pageNumber: number,
) {
  await readContactList(deps, companyId, contactListId);
  return await repo.pageItems(deps.db, companyId, contactListId, searchParam, pageNumber);
}

/** A list's items as one capped array (lists_repository ITEMS_LIST_MAX); 404 for another's list. */
export async function listItemsAll(deps: AppDeps, companyId: number, contactListId: number) {
  await readContactList(deps, companyId, contactListId);
  return await repo.listItemsCapped(deps.db, companyId, contactListId);
}

export async function createContactList(deps: AppDeps, companyId: number, name: string) {
  const now = deps.clock.now().toISOString();
  const { id } = await repo.insertContactList(deps.db, companyId, name, now);
  const view = (await repo.findContactList(deps.db, companyId, id))!;
  deps.events.emit("list.changed", {
    companyId,
    resource: "contactList",
    change: { action: "create", record: view },
  });
  return view;
}

export async function renameContactList(
  deps: AppDeps,
  companyId: number,
  id: number,
  name: string,
) {
  const now = deps.clock.now().toISOString();
  if (!await repo.renameContactList(deps.db, companyId, id, name, now)) throw listNotFound();
  const view = (await repo.findContactList(deps.db, companyId, id))!;
  deps.events.emit("list.changed", {
    companyId,
    resource: "contactList",
    change: { action: "update", record: view },
  });
  return view;
}

export async function removeContactList(deps: AppDeps, companyId: number, id: number) {
  if (!await repo.deleteContactList(deps.db, companyId, id)) throw listNotFound();
  deps.events.emit("list.changed", {
    companyId,
    resource: "contactList",
    change: { action: "delete", id },
  });
}

export async function readContactList(deps: AppDeps, companyId: number, id: number) {
  const view = await repo.findContactList(deps.db, companyId, id);
  if (!view) throw listNotFound();
  return view;
}

export async function readItem(deps: AppDeps, companyId: number, id: number) {
  const item = await repo.findItem(deps.db, companyId, id);
  if (!item) throw itemNotFound();
  return repo.itemView(item);
}

export async function createItem(
  deps: AppDeps,
  companyId: number,
  input: repo.NewItem & { contactListId: number },
) {
  await readContactList(deps, companyId, input.contactListId);
  if (await repo.findItemByNumber(deps.db, companyId, input.contactListId, input.number)) {
    throw duplicatedNumber(input.number);
  }
  const now = deps.clock.now().toISOString();
  await repo.insertItems(deps.db, companyId, input.contactListId, [input], now);
  const row = await repo.findItemByNumber(deps.db, companyId, input.contactListId, input.number);
  const view = await readItem(deps, companyId, row!.id);
  deps.events.emit("list.changed", {
    companyId,
    resource: "contactListItem",
    change: { action: "create", record: view },
  });
  await publishList(deps, companyId, input.contactListId);
  return view;
}

export async function changeItem(
  deps: AppDeps,
  companyId: number,
  id: number,
  input: Partial<repo.NewItem>,
) {
  const current = await repo.findItem(deps.db, companyId, id);
  if (!current) throw itemNotFound();
  if (input.number !== undefined && input.number !== current.number) {
    if (await repo.findItemByNumber(deps.db, companyId, current.contactListId, input.number)) {
      throw duplicatedNumber(input.number);
    }
  } else {
    delete input.number;
  }
  const now = deps.clock.now().toISOString();
  const row = await repo.updateItem(deps.db, companyId, id, input, now);
  if (!row) throw itemNotFound();
  const view = repo.itemView(row);
  deps.events.emit("list.changed", {
    companyId,
    resource: "contactListItem",
    change: { action: "update", record: view },
  });
  return view;
}

export async function removeItem(deps: AppDeps, companyId: number, id: number) {
  const current = await repo.findItem(deps.db, companyId, id);
  if (!current || !await repo.deleteItem(deps.db, companyId, id)) throw itemNotFound();
  deps.events.emit("list.changed", {
    companyId,
    resource: "contactListItem",
    change: { action: "delete", id },
  });
  await publishList(deps, companyId, current.contactListId);
}

/** The per-row answer of an import, like the contacts import's (server/contacts/import.ts). */
export type ListImportReport = {
  total: number;
  created: number;
  /** Always 0: an item already in the list is left as it is (same shape as the contacts'). */
  updated: number;
  /** Valid rows whose number was already in the list. */
  unchanged: number;
  skipped: SkippedRow[];
};

/** More than this in one sheet is refused before anything is written. */
export const LIST_IMPORT_MAX_ROWS = 100_000;

/**
 * POST /api/contact-lists/:id/upload (seeds/002 section 5: .xls and .xlsx only). The sheet is
 * read on a worker thread with a memory limit (server/contacts/read_sheet.ts); valid rows are
 * written 500 at a time, a number already in the list being left alone, so running the same
 * import twice adds nothing. Their WhatsApp check runs in the background (the
 * `contact_list_check` job) and reaches the page live.
 */
export async function importItems(
  deps: AppDeps,
  companyId: number,
  contactListId: number,
  file: File,
): Promise<ListImportReport> {
  await readContactList(deps, companyId, contactListId);
  if (!/\.xlsx?$/i.test(file.name)) {
    throw new AppError(400, "ERR_VALIDATION", "Envie uma planilha .xls ou .xlsx", {
      fields: { file: ["Envie uma planilha .xls ou .xlsx"] },
    });
  }
  const answer = await readSheetOffThread(file, LIST_IMPORT_MAX_ROWS);
  const skipped = [...answer.skipped];
  const items: repo.NewItem[] = [];
  for (const row of answer.valid) {
    if (row.isGroup) {
      skipped.push({
        row: row.row,
        code: "ERR_WAPP_INVALID_CONTACT",
        reason: "Grupos não recebem campanhas",
      });
    } else {
      items.push({ name: row.name, number: row.number, email: row.email });
    }
  }
  const now = deps.clock.now().toISOString();
  const created = await repo.insertItems(deps.db, companyId, contactListId, items, now);
  skipped.sort((a, b) => a.row - b.row);
  if (created > 0) {
    deps.events.emit("list.changed", {
      companyId,
      resource: "contactListItem",
      change: { action: "reload" },
    });
    await publishList(deps, companyId, contactListId);
  }
  return { total: answer.total, created, updated: 0, unchanged: items.length - created, skipped };
}
