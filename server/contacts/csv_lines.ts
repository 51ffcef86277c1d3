import { stringify } from "csv-stringify/sync";

// Apart from spreadsheet.ts (issue 33): the export runs in the server process, the import's parsing
// in its worker (sheet_worker.ts), so the server does not load the CSV and XLSX readers.

/**
 * A cell that a spreadsheet would run as a formula (=, +, -, @, tab, CR first) is written with
 * a leading apostrophe (OWASP CSV injection); parseCsv removes it again on import.
 */
function protect(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * CSV text of rows (all quoted as needed by csv-stringify), cells protected against formulas.
 * `delimiter`: ";" for Brazilian spreadsheets (their decimal comma makes Excel split on ";").
 */
export function csvLines(rows: readonly (readonly string[])[], delimiter = ","): string {
  return stringify(rows.map((cells) => cells.map(protect)), {
    record_delimiter: "\r\n",
    delimiter,
  });
}
