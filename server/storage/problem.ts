/**
 * What a failed write says about the storage under the data folder (issue 34). One classifier for
 * every layer: SQLite's own codes (from the database thread), Deno's file errors and anything that
 * wraps them (an AppError's cause).
 *
 * - `full`: no space or quota left (SQLITE_FULL, ENOSPC, EDQUOT): 507 ERR_STORAGE_FULL;
 * - `unavailable`: the folder or file cannot be written at all (read-only file system, permission,
 *   SQLITE_READONLY, SQLITE_IOERR): 503 ERR_STORAGE_UNAVAILABLE.
 */
export type StorageProblem = "full" | "unavailable";

const FULL = [
  /database or disk is full/i,
  /\bSQLITE_FULL\b/,
  /No space left on device/i,
  /Disk quota exceeded/i,
  /\(os error (28|122)\)/,
];
const UNAVAILABLE = [
  /attempt to write a readonly database/i,
  /\bSQLITE_(READONLY|IOERR|CANTOPEN)/,
  /disk I\/O error/i,
  /Read-only file system/i,
  /\(os error (30|13|1)\)/,
];
const FULL_CODES = new Set(["ENOSPC", "EDQUOT", "SQLITE_FULL"]);
const UNAVAILABLE_CODES = new Set(["EROFS", "EACCES", "EPERM"]);

/** The storage problem behind an error, or undefined when it is something else. */
export function storageProblem(error: unknown): StorageProblem | undefined {
  for (let e = error, depth = 0; e && depth < 5; depth++) {
    const found = problemOf(e);
    if (found) return found;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function problemOf(error: unknown): StorageProblem | undefined {
  if (typeof error === "string") return byText(error);
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (FULL_CODES.has(code) || code.startsWith("SQLITE_FULL")) return "full";
    if (UNAVAILABLE_CODES.has(code) || /^SQLITE_(READONLY|IOERR|CANTOPEN)/.test(code)) {
      return "unavailable";
    }
  }
  if (error instanceof Deno.errors.PermissionDenied) return "unavailable";
  return byText(error.message);
}

function byText(text: string): StorageProblem | undefined {
  if (FULL.some((pattern) => pattern.test(text))) return "full";
  if (UNAVAILABLE.some((pattern) => pattern.test(text))) return "unavailable";
  return undefined;
}
