import { COLUMNS } from "../contacts/rows.ts";

/**
 * The example spreadsheet the contact-list page offers (seeds/002 section 2.4). It is written with
 * the header names the import reads (COLUMNS of server/contacts/rows.ts), so the template and
 * the reader cannot drift apart; tests import the example back.
 */
export async function exampleSpreadsheet(): Promise<Uint8Array> {
  // Loaded when first asked for, not at start (issue 33).
  const { default: ExcelJS } = await import("exceljs");
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("contatos");
  sheet.addRow([COLUMNS.name[0], COLUMNS.number[0], COLUMNS.email[0]]);
  sheet.addRow(["Maria Souza", "5511987654321", "maria@exemplo.com.br"]);
  sheet.addRow(["João Lima", "5521998765432", ""]);
  // Numbers stored as text: Excel would otherwise show long numbers in scientific notation.
  sheet.getColumn(2).numFmt = "@";
  sheet.columns.forEach((column) => (column.width = 24));
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}
