import type ExcelJS from "exceljs";
import { Buffer } from "node:buffer";
import { Readable } from "node:stream";
import { parse } from "csv-parse/sync";
import { AppError } from "../errors.ts";
import { importableWorkbook, importTooLarge, isZip } from "./xlsx_archive.ts";

/**
 * Reading and writing the contact spreadsheets: CSV (comma, semicolon or tab separated,
 * UTF-8 or the Windows-1252 that Excel in Portuguese writes) and XLSX (first worksheet).
 * Both become rows of strings; the first non-empty row is the header. Reading stops at the first
 * row past `limits.maxRows` (413 ERR_IMPORT_TOO_LARGE); an XLSX is streamed (exceljs'
 * WorkbookReader over the archive xlsx_archive.ts rebuilds), never unpacked whole. Imports run
 * this on a worker thread with a memory limit (read_sheet.ts).
 */
export type Sheet = { header: string[]; rows: { row: number; cells: string[] }[] };

export type SheetLimits = {
  /** Data rows (the header excluded) a sheet may have. */
  maxRows: number;
  /** Bytes an XLSX's entries may declare once uncompressed. */
  maxUncompressed: number;
};

function tooManyRows(maxRows: number) {
  return importTooLarge(
    `A planilha tem mais de ${maxRows} linhas; o limite é ${maxRows} por importação`,
  );
}

/** Collects non-empty rows: the first is the header; past `maxRows` data rows, a refusal. */
class SheetBuilder {
  readonly sheet: Sheet = { header: [], rows: [] };
  #headed = false;
  constructor(private readonly maxRows: number) {}

  add(row: number, cells: string[]) {
    if (!cells.some((c) => c.trim() !== "")) return;
    if (!this.#headed) {
      this.#headed = true;
      this.sheet.header = cells.map((c) => c.trim());
      return;
    }
    if (this.sheet.rows.length >= this.maxRows) throw tooManyRows(this.maxRows);
    this.sheet.rows.push({ row, cells });
  }
}

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

export function parseCsv(bytes: Uint8Array, maxRows: number): Sheet {
  const text = decodeText(bytes);
  const builder = new SheetBuilder(maxRows);
  let index = 0;
  try {
    parse(text, {
      bom: true,
      delimiter: detectDelimiter(text),
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: false,
      // Record by record, none kept by the parser: reading stops at the first past the limit.
      on_record: (record: string[]) => {
        builder.add(++index, record.map(unprotect));
        return null;
      },
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(400, "ERR_VALIDATION", "Arquivo CSV inválido", { cause: error });
  }
  return builder.sheet;
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

/** The first worksheet, streamed row by row. */
export async function parseXlsx(bytes: Uint8Array, limits: SheetLimits): Promise<Sheet> {
  const archive = await importableWorkbook(bytes, limits.maxUncompressed);
  const builder = new SheetBuilder(limits.maxRows);
  // Loaded at the first XLSX import, not at start (issue 33: a large module few requests use).
  const { default: Excel } = await import("exceljs");
  const reader = new Excel.stream.xlsx.WorkbookReader(Readable.from([Buffer.from(archive)]), {
    sharedStrings: "cache",
    styles: "ignore",
    hyperlinks: "ignore",
    worksheets: "emit",
  });
  try {
    for await (const worksheet of reader) {
      for await (const row of worksheet) {
        const cells: string[] = [];
        for (let col = 1; col <= row.cellCount; col++) cells.push(cellText(row.getCell(col)));
        builder.add(row.number, cells);
      }
      break; // the first worksheet only
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError(400, "ERR_VALIDATION", "Planilha XLSX inválida", { cause: error });
  }
  return builder.sheet;
}

/** An XLSX is a zip archive; anything else is read as CSV text. */
export async function readSpreadsheet(
  name: string,
  bytes: Uint8Array,
  limits: SheetLimits,
): Promise<Sheet> {
  const zip = isZip(bytes);
  const lower = name.toLowerCase();
  if (zip || lower.endsWith(".xlsx")) {
    if (!zip) throw new AppError(400, "ERR_VALIDATION", "Planilha XLSX inválida");
    return await parseXlsx(bytes, limits);
  }
  if (lower.endsWith(".xls")) {
    throw new AppError(
      400,
      "ERR_VALIDATION",
      "Formato .xls não suportado: salve como .xlsx ou .csv",
    );
  }
  return parseCsv(bytes, limits.maxRows);
}
