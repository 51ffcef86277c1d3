import { Worker } from "node:worker_threads";
import { AppError, type ErrorCode } from "../errors.ts";
import { log } from "../log.ts";
import type { SkippedRow, ValidRow } from "./rows.ts";
import type { SheetAnswer, SheetRequest } from "./sheet_worker.ts";
import { importTooLarge, isZip, keptEntries } from "./xlsx_archive.ts";

/**
 * Every spreadsheet import (contacts, contact lists) reads its file here: on a worker thread
 * (the server keeps answering meanwhile) whose heap is limited (node:worker_threads
 * resourceLimits, which Deno enforces), with a time limit, and at most SHEET_READERS at once. What
 * exceeds a limit is 413 ERR_IMPORT_TOO_LARGE and costs the server nothing more (issue 35: one
 * 8 MB file of a million rows held the main thread 17 s and 2.2 GB).
 */
export type ReadSheet = { total: number; valid: ValidRow[]; skipped: SkippedRow[] };

/** Bytes an XLSX's sheet, workbook and strings may declare once uncompressed. */
export const IMPORT_MAX_UNCOMPRESSED_BYTES = 32 * 1024 * 1024;
/** The reader's heap: a 100,000-row sheet needs a small part of it. */
export const SHEET_HEAP_MB = 128;
/** A sheet that takes longer than this to read is refused. */
export const SHEET_READ_TIMEOUT_MS = 120_000;
/** Readers at once; more imports wait their turn. */
export const SHEET_READERS = 2;

let running = 0;
const waiting: (() => void)[] = [];

async function turn<T>(task: () => Promise<T>): Promise<T> {
  if (running >= SHEET_READERS) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await task();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

function readOnce(request: SheetRequest, heapMb: number): Promise<SheetAnswer> {
  const worker = new Worker(new URL("./sheet_worker.ts", import.meta.url), {
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 16 },
  });
  const tooLarge = (message: string): SheetAnswer => ({
    ok: false,
    status: 413,
    code: "ERR_IMPORT_TOO_LARGE",
    message,
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new Promise<SheetAnswer>((resolve) => {
    worker.once("message", (text: string) => resolve(JSON.parse(text)));
    worker.once("error", (error: Error & { code?: string }) => {
      // Out of memory on a hostile or huge file is the file's fault, not the server's.
      log.warn("spreadsheet reader stopped", { code: error.code, error: error.message });
      resolve(tooLarge("Planilha grande demais para importar"));
    });
    worker.once("exit", () => resolve(tooLarge("Planilha grande demais para importar")));
    timer = setTimeout(
      () => resolve(tooLarge("A planilha demorou demais para ser lida")),
      SHEET_READ_TIMEOUT_MS,
    );
    worker.postMessage(request);
  }).finally(() => {
    clearTimeout(timer);
    void worker.terminate();
  });
}

/**
 * Reads and checks the rows of `file`, at most `maxRows` of them. `heapMb`: the reader's heap
 * (SHEET_HEAP_MB; tests make it small to see the limit act).
 */
export async function readSheetOffThread(
  file: File,
  maxRows: number,
  heapMb = SHEET_HEAP_MB,
): Promise<ReadSheet> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  // What its zip directory says is too large is refused here, before any thread starts.
  if (isZip(bytes)) keptEntries(bytes, IMPORT_MAX_UNCOMPRESSED_BYTES);
  // Shared memory: Deno's node:worker_threads copies a plain buffer into a message at about
  // 0.4 s per MB (and a 6 MB one never arrived); a SharedArrayBuffer is handed over at once.
  const shared = new SharedArrayBuffer(bytes.byteLength);
  new Uint8Array(shared).set(bytes);
  const answer = await turn(() =>
    readOnce({
      name: file.name,
      bytes: shared,
      limits: { maxRows, maxUncompressed: IMPORT_MAX_UNCOMPRESSED_BYTES },
    }, heapMb)
  );
  if (!answer.ok) {
    if (answer.status >= 500) throw new Error(answer.message);
    if (answer.code === "ERR_IMPORT_TOO_LARGE") throw importTooLarge(answer.message);
    throw new AppError(answer.status, answer.code as ErrorCode, answer.message);
  }
  return answer;
}
