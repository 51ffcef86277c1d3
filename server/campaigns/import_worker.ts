/// <reference lib="deno.worker" />
import { checkRows, type SkippedRow, type ValidRow } from "../contacts/import.ts";
import { parseSpreadsheet } from "../contacts/spreadsheet.ts";
import { AppError } from "../errors.ts";

/**
 * Reads a contact-list spreadsheet off the main thread (issue 13: a 50,000-row sheet imports
 * without blocking the server): unzipping and parsing the XLSX with exceljs and normalising every
 * number take seconds of CPU, which here run while the server keeps answering. list_import.ts
 * starts one worker per import and writes what it answers.
 */
export type ParseRequest = { name: string; bytes: Uint8Array };
export type ParseAnswer =
  | { ok: true; total: number; valid: ValidRow[]; skipped: SkippedRow[] }
  | { ok: false; status: number; code: string; message: string };

self.onmessage = async (event: MessageEvent<ParseRequest>) => {
  try {
    const { name, bytes } = event.data;
    const sheet = await parseSpreadsheet(new File([bytes as BlobPart], name));
    const skipped: SkippedRow[] = [];
    const valid = checkRows(sheet, skipped);
    self.postMessage({ ok: true, total: sheet.rows.length, valid, skipped } as ParseAnswer);
  } catch (error) {
    const known = error instanceof AppError;
    self.postMessage(
      {
        ok: false,
        status: known ? error.status : 500,
        code: known ? error.code : "ERR_INTERNAL",
        message: known ? error.message : String(error),
      } as ParseAnswer,
    );
  }
};
