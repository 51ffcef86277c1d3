/**
 * Recognises SQLite constraint failures so that services can answer a race on a unique key
 * (two requests creating the same contact) with the same error as the check before the insert.
 */
export function isUniqueViolation(error: unknown, ...columns: string[]): boolean {
  const message = error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : "";
  if (!/UNIQUE constraint failed/i.test(message)) return false;
  return columns.every((column) => message.includes(column));
}
