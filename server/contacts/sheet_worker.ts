import { parentPort } from "node:worker_threads";
import { AppError } from "../errors.ts";
import { checkRows, type SkippedRow } from "./rows.ts";
import { readSpreadsheet, type SheetLimits } from "./spreadsheet.ts";

/**
 * The worker thread of read_sheet.ts: reads one spreadsheet (CSV, or XLSX streamed) within its
 * limits and checks every row, then answers once. Its heap is limited by the thread that starts
 * it: a sheet that needs more ends the thread, not the server.
 */
export type SheetRequest = { name: string; bytes: SharedArrayBuffer; limits: SheetLimits };
export type SheetAnswer =
  | { ok: true; total: number; valid: ReturnType<typeof checkRows>; skipped: SkippedRow[] }
  | { ok: false; status: number; code: string; message: string };

parentPort?.once("message", async (request: SheetRequest) => {
  let answer: SheetAnswer;
  try {
    // A copy of its own: decoders refuse views of shared memory.
    const bytes = new Uint8Array(request.bytes).slice();
    const sheet = await readSpreadsheet(request.name, bytes, request.limits);
    const skipped: SkippedRow[] = [];
    const valid = checkRows(sheet, skipped);
    answer = { ok: true, total: sheet.rows.length, valid, skipped };
  } catch (error) {
    const known = error instanceof AppError;
    answer = {
      ok: false,
      status: known ? error.status : 500,
      code: known ? error.code : "ERR_INTERNAL",
      message: known ? error.message : String(error),
    };
  }
  // As JSON text: Deno copies a string between threads at once, and a tree of 100,000 row
  // objects slowly, on the receiving (main) thread too.
  parentPort?.postMessage(JSON.stringify(answer));
});
