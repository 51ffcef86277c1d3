import { PassThrough, Readable } from "node:stream";
import {
  DURATION_COLUMNS,
  durationText,
  FIGURE_COLUMNS,
  type ReportFigures,
  type ReportTable,
} from "../../contract/report_types.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { csvLines } from "../contacts/csv_lines.ts";
import { type ReportQuery, reportTable } from "./service.ts";
import type { TextLanguage } from "../http/language.ts";
import pt from "../../locales/pt.json" with { type: "json" };
import en from "../../locales/en.json" with { type: "json" };
import es from "../../locales/es.json" with { type: "json" };

/**
 * A report's table as a file (issue 27): CSV, or XLSX written by exceljs' streaming writer. The
 * figures come from the same call as the JSON answer (at most 366 days, or one row per user,
 * queue or tag), so a long period costs what its JSON costs; the file is streamed to the client
 * as it is written. exceljs is imported on first use: it stays out of the start-up memory
 * (issue 33).
 */
export type ExportFormat = "csv" | "xlsx";

const KEY_COLUMNS: Record<ReportTable, readonly string[]> = {
  attendants: ["userId", "name"],
  queues: ["queueId", "name"],
  tags: ["tagId", "name"],
  days: ["day"],
};

/** Column titles per language (locales' reports.columns), keyed by the answer's field names. */
const TITLES: Record<TextLanguage, Record<string, string>> = {
  pt: pt.reports.columns,
  en: en.reports.columns,
  es: es.reports.columns,
};

/** A day's order in each language: what a CSV writes and how the XLSX shows its date cells. */
const DAY_ORDER: Record<
  TextLanguage,
  { csv: (y: string, m: string, d: string) => string; xlsx: string }
> = {
  pt: { csv: (y, m, d) => `${d}/${m}/${y}`, xlsx: "dd/mm/yyyy" },
  en: { csv: (y, m, d) => `${m}/${d}/${y}`, xlsx: "mm/dd/yyyy" },
  es: { csv: (y, m, d) => `${d}/${m}/${y}`, xlsx: "dd/mm/yyyy" },
};

function cells(row: Record<string, unknown>, table: ReportTable): (string | number | null)[] {
  const figures = row as unknown as ReportFigures;
  const values: (string | number | null)[] = KEY_COLUMNS[table].map((k) =>
    row[k] as string | number | null
  );
  for (const column of FIGURE_COLUMNS) {
    if (column === "ratings1") values.push(figures.ratings[1]);
    else if (column === "ratings2") values.push(figures.ratings[2]);
    else if (column === "ratings3") values.push(figures.ratings[3]);
    else if (DURATION_COLUMNS.has(column)) {
      const seconds = figures[column] as number | null;
      values.push(seconds === null ? null : durationText(seconds));
    } else values.push(figures[column]);
  }
  return values;
}

export async function exportReport(
  deps: AppDeps,
  auth: AuthInfo,
  table: ReportTable,
  format: ExportFormat,
  query: ReportQuery,
  language: TextLanguage,
): Promise<{ body: ReadableStream<Uint8Array>; fileName: string; contentType: string }> {
  const answer = await reportTable(deps, auth, table, query);
  // A person reads the file: the columns' titles in their language, not the JSON's field names.
  const header = [...KEY_COLUMNS[table], ...FIGURE_COLUMNS].map((column) =>
    TITLES[language][column] ?? column
  );
  const rows = answer.rows.map((r) => cells(r as unknown as Record<string, unknown>, table));
  // The days table's first column is a calendar day ("2026-11-02"): in the reader's date format.
  const isDay = table === "days";
  const fileName = `${table}-${answer.range.from}-${answer.range.to}.${format}`;
  if (format === "csv") {
    // ';' for Portuguese: Excel in Brazil splits on it (its decimal separator is the comma).
    const text = "\uFEFF" + csvLines(
      [
        header,
        ...rows.map((r) =>
          r.map((v, i) =>
            v === null
              ? ""
              : isDay && i === 0
              ? DAY_ORDER[language].csv(...(String(v).split("-") as [string, string, string]))
              : String(v)
          )
        ),
      ],
      language === "pt" ? ";" : ",",
    );
    return {
      body: new Blob([text]).stream(),
      fileName,
      contentType: "text/csv; charset=utf-8",
    };
  }
  const { default: ExcelJS } = await import("exceljs");
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  const sheet = workbook.addWorksheet(table);
  sheet.addRow(header).commit();
  for (const row of rows) {
    if (!isDay) {
      sheet.addRow(row).commit();
      continue;
    }
    // A real date (sorts, filters) shown in the reader's order.
    const line = sheet.addRow([new Date(`${row[0]}T00:00:00Z`), ...row.slice(1)]);
    line.getCell(1).numFmt = DAY_ORDER[language].xlsx;
    line.commit();
  }
  sheet.commit();
  // Written while the client reads; a failure ends the stream with the error.
  workbook.commit().catch((error: unknown) => out.destroy(error as Error));
  return {
    body: Readable.toWeb(out) as unknown as ReadableStream<Uint8Array>,
    fileName,
    contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  };
}
