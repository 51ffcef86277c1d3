import type { AppDeps } from "../context.ts";
import { AppError, type ErrorCode } from "../errors.ts";
import { name2to50, optionalEmail } from "../http/fields.ts";
import { normalizeNumber } from "./numbers.ts";
import * as repo from "./repository.ts";
import { csvLines, parseSpreadsheet, type Sheet } from "./spreadsheet.ts";

/**
 * Contact import from CSV or XLSX (issue 5): every row is checked first, then all valid rows are
 * written in one transaction, so an import is either applied as reported or not at all. Rows
 * that cannot be imported are listed with their spreadsheet row number, the reason and a code.
 */
export type SkippedRow = { row: number; reason: string; code: ErrorCode };
export type ImportReport = {
  /** Data rows read (the header excluded). */
  total: number;
  created: number;
  /** Existing contacts (same number) whose name or email changed. */
  updated: number;
  /** Existing contacts the row matched without changing anything. */
  unchanged: number;
  skipped: SkippedRow[];
};

export const IMPORT_MAX_ROWS = 20_000;

/** Accepted header names (case, accents and punctuation ignored), Portuguese and English. */
export const COLUMNS = {
  name: ["name", "nome", "contact", "contato", "fullname", "nomecompleto"],
  number: ["number", "numero", "telefone", "phone", "phonenumber", "whatsapp", "celular", "mobile"],
  email: ["email", "mail", "correio"],
} as const;

function headerKey(header: string): string {
  return header.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

function columnIndexes(header: string[]) {
  const keys = header.map(headerKey);
  const find = (names: readonly string[]) => keys.findIndex((k) => names.includes(k));
  return { name: find(COLUMNS.name), number: find(COLUMNS.number), email: find(COLUMNS.email) };
}

export type ValidRow = {
  row: number;
  name: string;
  number: string;
  email: string;
  isGroup: boolean;
};

/** The rows of a sheet that can be imported; the others are added to `skipped` with the reason. */
export function checkRows(sheet: Sheet, skipped: SkippedRow[]): ValidRow[] {
  const cols = columnIndexes(sheet.header);
  if (cols.number < 0) {
    throw new AppError(
      400,
      "ERR_VALIDATION",
      "Coluna de número não encontrada: a primeira linha deve ter os títulos name (ou nome), number (ou numero, telefone) e email",
    );
  }
  const valid: ValidRow[] = [];
  const firstRowOf = new Map<string, number>();
  for (const { row, cells } of sheet.rows) {
    const cell = (i: number) => (i >= 0 ? cells[i] ?? "" : "").trim();
    const name = name2to50.safeParse(cell(cols.name));
    if (!name.success) {
      skipped.push({
        row,
        code: "ERR_VALIDATION",
        reason: `name: ${name.error.issues[0].message}`,
      });
      continue;
    }
    const email = optionalEmail.safeParse(cell(cols.email));
    if (!email.success) {
      skipped.push({
        row,
        code: "ERR_VALIDATION",
        reason: `email: ${email.error.issues[0].message}`,
      });
      continue;
    }
    const rawNumber = cell(cols.number);
    if (rawNumber.length < 8 || rawNumber.length > 50) {
      skipped.push({
        row,
        code: "ERR_VALIDATION",
        reason: rawNumber ? "number: deve ter de 8 a 50 caracteres" : "number: Required",
      });
      continue;
    }
    const number = normalizeNumber(rawNumber);
    if (!number.ok) {
      skipped.push({ row, code: "ERR_WAPP_INVALID_CONTACT", reason: number.message });
      continue;
    }
    const first = firstRowOf.get(number.number);
    if (first !== undefined) {
      skipped.push({
        row,
        code: "ERR_DUPLICATED_CONTACT",
        reason: `O número ${number.number} já aparece na linha ${first}`,
      });
      continue;
    }
    firstRowOf.set(number.number, row);
    valid.push({
      row,
      name: name.data,
      number: number.number,
      email: email.data,
      isGroup: number.isGroup,
    });
  }
  return valid;
}

/**
 * Imports a spreadsheet. Rows whose number already belongs to a contact update that contact's
 * name (and email, when the row has one) if `updateExisting`, else they are skipped as
 * ERR_DUPLICATED_CONTACT. Announces `{action: "reload"}` on the contact channel after commit.
 */
export async function importContacts(
  deps: AppDeps,
  companyId: number,
  file: File,
  options: { updateExisting: boolean },
): Promise<ImportReport> {
  const sheet = await parseSpreadsheet(file);
  if (sheet.rows.length > IMPORT_MAX_ROWS) {
    throw new AppError(
      400,
      "ERR_VALIDATION",
      `O arquivo tem ${sheet.rows.length} linhas; o limite é ${IMPORT_MAX_ROWS} por importação`,
    );
  }
  const skipped: SkippedRow[] = [];
  const valid = checkRows(sheet, skipped);
  const now = deps.clock.now().toISOString();
  const counts = await deps.db.transaction().execute(async (trx) => {
    const existing = await repo.contactsByNumbers(trx, companyId, valid.map((v) => v.number));
    const inserts: repo.ContactFields[] = [];
    let updated = 0;
    let unchanged = 0;
    for (const v of valid) {
      const found = existing.get(v.number);
      if (!found) {
        inserts.push({
          name: v.name,
          number: v.number,
          email: v.email,
          isGroup: v.isGroup ? 1 : 0,
        });
        continue;
      }
      if (!options.updateExisting) {
        skipped.push({
          row: v.row,
          code: "ERR_DUPLICATED_CONTACT",
          reason: `Já existe um contato com o número ${v.number}`,
        });
        continue;
      }
      const email = v.email || found.email;
      if (found.name === v.name && found.email === email) {
        unchanged++;
        continue;
      }
      await repo.updateContact(trx, companyId, found.id, { name: v.name, email }, now);
      updated++;
    }
    await repo.insertContacts(trx, companyId, inserts, now);
    return { created: inserts.length, updated, unchanged };
  });
  skipped.sort((a, b) => a.row - b.row);
  if (counts.created + counts.updated > 0) {
    deps.events.emit("contacts.reloaded", { companyId });
  }
  return { total: sheet.rows.length, ...counts, skipped };
}

/** The CSV export as a stream: header, then the company's contacts 1,000 at a time. */
export function exportContactsCsv(deps: AppDeps, companyId: number): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let afterId = 0;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        // The BOM makes Excel read the file as UTF-8 (accents in names).
        controller.enqueue(encoder.encode("\uFEFF" + csvLines([["name", "number", "email"]])));
        return;
      }
      const page = await repo.exportPage(deps.db, companyId, afterId, 1000);
      if (page.length === 0) return controller.close();
      afterId = page[page.length - 1].id;
      controller.enqueue(encoder.encode(csvLines(page.map((c) => [c.name, c.number, c.email]))));
    },
  });
}
