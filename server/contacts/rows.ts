import type { ErrorCode } from "../errors.ts";
import { AppError } from "../errors.ts";
import { name2to50, optionalEmail } from "../http/fields.ts";
import { normalizeNumber } from "./numbers.ts";
import type { Sheet } from "./spreadsheet.ts";

/**
 * The rows of a contact spreadsheet checked one by one (issue 5): the contacts import and the
 * contact-list import read them the same way, off the main thread (read_sheet.ts). Rows that
 * cannot be imported are listed with their spreadsheet row number, the reason and a code.
 */
export type SkippedRow = { row: number; reason: string; code: ErrorCode };
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
