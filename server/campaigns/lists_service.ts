import type { AppDeps } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import type { SkippedRow } from "../contacts/import.ts";
import { log } from "../log.ts";
import * as repo from "./lists_repository.ts";
import type { ParseAnswer, ParseRequest } from "./import_worker.ts";

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

/** A sheet that takes longer than this to read is refused (a zip bomb, millions of rows). */
export const PARSE_TIMEOUT_MS = 120_000;

function unreadable(message: string): ParseAnswer {
  return { ok: false, status: 400, code: "ERR_VALIDATION", message };
}

function parseOffThread(request: ParseRequest): Promise<ParseAnswer> {
  const worker = new Worker(new URL("./import_worker.ts", import.meta.url), { type: "module" });
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new Promise<ParseAnswer>((resolve) => {
    worker.onmessage = (event: MessageEvent<ParseAnswer>) => resolve(event.data);
    // A worker that dies (out of memory on a hostile file) is the file's fault, not ours.
    worker.onerror = (event) => {
      event.preventDefault();
      log.warn("contact list import: the sheet reader failed", { error: event.message });
      resolve(unreadable("Planilha inválida ou grande demais"));
    };
    timer = setTimeout(
      () => resolve(unreadable("A planilha demorou demais para ser lida")),
      PARSE_TIMEOUT_MS,
    );
    worker.postMessage(request, [request.bytes.buffer]);
  }).finally(() => {
    clearTimeout(timer);
    worker.terminate();
  });
}

/**
 * POST /api/contact-lists/:id/upload (seeds/002 section 5: .xls and .xlsx only). The sheet is
 * read on a worker thread; valid rows are written 500 at a time, a number already in the list
 * being left alone, so running the same import twice adds nothing. Their WhatsApp check runs in
 * the background (jobs/campaigns.ts) and reaches the page live.
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
  const bytes = new Uint8Array(await file.arrayBuffer());
  const answer = await parseOffThread({ name: file.name, bytes });
  if (!answer.ok) {
    if (answer.status >= 500) throw new Error(answer.message);
    throw new AppError(answer.status, "ERR_VALIDATION", answer.message);
  }
  if (answer.total > LIST_IMPORT_MAX_ROWS) {
    throw new AppError(
      400,
      "ERR_VALIDATION",
      `O arquivo tem ${answer.total} linhas; o limite é ${LIST_IMPORT_MAX_ROWS} por importação`,
    );
  }
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
