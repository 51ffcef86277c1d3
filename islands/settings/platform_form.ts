import { ApiError } from "../lib/errors.ts";
import { saveRecord } from "../lib/list/form_submit.ts";

/**
 * The save of a record of the platform tabs (useRecordForm's `save`). seeds/001 sections 5 and 8:
 * a refused save of a company, plan or help shows that tab's 'Não foi possível realizar a
 * operação...' text; a validation answer still puts its messages under the fields.
 */
export function savePlatformRecord(failedText: string) {
  return async <T>(path: string, id: number | null, body: unknown): Promise<T> => {
    try {
      return await saveRecord<T>(path, id, body);
    } catch (error) {
      if (error instanceof ApiError && error.code === "ERR_VALIDATION") throw error;
      throw new Error(failedText);
    }
  };
}

/** Today in the browser's calendar, YYYY-MM-DD (the due-date colours count local days). */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** DD/MM/YYYY of a YYYY-MM-DD date. */
export function brDate(date: string | null): string {
  if (!date) return "";
  const [y, m, d] = date.slice(0, 10).split("-");
  return `${d}/${m}/${y}`;
}

/** R$ 1.234,50 */
export function brl(value: number): string {
  return value.toLocaleString("pt-BR", { style: "currency", currency: "BRL" });
}
