import { type Recurrence, RECURRENCE_MONTHS } from "../../contract/platform_types.ts";

/** seeds/001 sections 4 and 9: how many months one payment buys, per recurrence (declared once in
 * contract/platform_types.ts, which the companies form reads too). */
export { type Recurrence, RECURRENCE_MONTHS };

/** Months of a company's recurrence; an unset or unknown one is MENSAL (the form's only option). */
export function recurrenceMonths(recurrence: string | null): number {
  return RECURRENCE_MONTHS[(recurrence ?? "MENSAL") as Recurrence] ?? 1;
}

/** `date` (YYYY-MM-DD) plus `months`, kept on the same day or the month's last (Jan 31 -> Feb 28). */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = date.slice(0, 10).split("-").map(Number);
  const lastDay = new Date(Date.UTC(y, m - 1 + months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m - 1 + months, Math.min(d, lastDay))).toISOString().slice(0, 10);
}

/**
 * The due date after a payment (issue 12 point 5): the later of today and the old due date,
 * advanced by the recurrence. Paying early keeps the days already bought; paying late does not
 * charge for the days the company was locked out.
 */
export function advancedDueDate(
  oldDueDate: string | null,
  recurrence: string | null,
  today: string,
): string {
  const base = oldDueDate && oldDueDate.slice(0, 10) > today ? oldDueDate.slice(0, 10) : today;
  return addMonths(base, recurrenceMonths(recurrence));
}

/** `date` (YYYY-MM-DD) plus `days`. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.slice(0, 10).split("-").map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}
