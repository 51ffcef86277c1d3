import ExcelJS from "exceljs";
import { parse } from "csv-parse/sync";
import { stringify } from "csv-stringify/sync";
import { AppError } from "../errors.ts";

/**
 * Reading and writing the contact spreadsheets: CSV (comma, semicolon or tab separated,
 * UTF-8 or the Windows-1252 that Excel in Portuguese writes) and XLSX (first worksheet).
 * Both become rows of strings; the first non-empty row is the header.
 */
export type Sheet = { header: string[]; rows: { row: number; cells: string[] }[] };

function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder("windows-1252").decode(bytes);
  }
}

function detectDelimiter(text: string): string {
  const firstLine = text.replace(/^\uFEFF/, "").split(/\r?\n/, 1)[0] ?? "";
  const counts = [",", ";", "\t"].map((d) => [d, firstLine.split(d).length - 1] as const);
  counts.sort((a, b) => b[1] - a[1]);
  return counts[0][1] > 0 ? counts[0][0] : ",";
}

/** A CSV cell written as text by our export to stop spreadsheet formulas: "'=x" reads "=x". */
function unprotect(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}

function toSheet(records: { row: number; cells: string[] }[]): Sheet {
  const nonEmpty = records.filter((r) => r.cells.some((c) => c.trim() !== ""));
  const [head, ...rows] = nonEmpty;
  return { header: head?.cells.map((c) => c.trim()) ?? [], rows };
}

export function parseCsv(bytes: Uint8Array): Sheet {
  const text = decodeText(bytes);
  let records: string[][];
  try {
    records = parse(text, {
      bom: true,
      delimiter: detectDelimiter(text),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
    }) as string[][];
  } catch (error) {
    throw new AppError(400, "ERR_VALIDATION", "Arquivo CSV inválido", { cause: error });
  }
  return toSheet(records.map((cells, i) => ({ row: i + 1, cells: cells.map(unprotect) })));
}

function cellText(cell: ExcelJS.Cell): string {
  const value = cell.value;
  if (value === null || value === undefined) return "";
  // Phone numbers typed into Excel become numbers; print integers without exponent or grouping.
  if (typeof value === "number") return Number.isInteger(value) ? value.toFixed(0) : String(value);
  if (typeof value === "object" && "result" in value && typeof value.result === "number") {
    return Number.isInteger(value.result) ? value.result.toFixed(0) : String(value.result);
  }
  return cell.text ?? "";
}

export async function parseXlsx(bytes: Uint8Array): Promise<Sheet> {
  const workbook = new ExcelJS.Workbook();
  try {
    // deno-lint-ignore no-explicit-any
    await workbook.xlsx.load(bytes as any);
  } catch (error) {
    throw new AppError(400, "ERR_VALIDATION", "Planilha XLSX inválida", { cause: error });
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return { header: [], rows: [] };
  const records: { row: number; cells: string[] }[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: string[] = [];
    for (let col = 1; col <= row.cellCount; col++) cells.push(cellText(row.getCell(col)));
    records.push({ row: rowNumber, cells });
  });
  return toSheet(records);
}

/** XLSX files are zip archives ("PK\x03\x04"); anything else is read as CSV text. */
export async function parseSpreadsheet(file: File): Promise<Sheet> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  const isZip = bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
  const name = file.name.toLowerCase();
  if (isZip || name.endsWith(".xlsx")) {
    if (!isZip) throw new AppError(400, "ERR_VALIDATION", "Planilha XLSX inválida");
    return await parseXlsx(bytes);
  }
  if (name.endsWith(".xls")) {
    throw new AppError(
      400,
      "ERR_VALIDATION",
      "Formato .xls não suportado: salve como .xlsx ou .csv",
    );
  }
  return parseCsv(bytes);
}

/**
 * A cell that a spreadsheet would run as a formula (=, +, -, @, tab, CR first) is written with
 * a leading apostrophe (OWASP CSV injection); parseCsv removes it again on import.
 */
function protect(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** CSV text of rows (all quoted as needed by csv-stringify), cells protected against formulas. */
export function csvLines(rows: readonly (readonly string[])[]): string {
  return stringify(rows.map((cells) => cells.map(protect)), { record_delimiter: "\r\n" });
}
