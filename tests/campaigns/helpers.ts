import assert from "node:assert/strict";
import ExcelJS from "exceljs";
import type { TestApp, TestCompany } from "../helpers/app.ts";

/** An .xlsx workbook of `rows` (the first is the header), as the import reads it. */
export async function xlsxFile(rows: unknown[][], name = "lista.xlsx"): Promise<File> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("contatos");
  for (const row of rows) sheet.addRow(row);
  const bytes = await workbook.xlsx.writeBuffer();
  return new File([bytes as ArrayBuffer], name);
}

/** Creates a contact list through the API and answers its id. */
export async function createList(t: TestApp, company: TestCompany, name = "Clientes") {
  const res = await t.request("POST", "/api/contact-lists", {
    token: company.admin.token,
    body: { name },
  });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()).id as number;
}

/** Uploads a spreadsheet to a list; answers the status and the report. */
export async function uploadList(t: TestApp, company: TestCompany, listId: number, file: File) {
  const form = new FormData();
  form.append("file", file);
  const res = await t.request("POST", `/api/contact-lists/${listId}/upload`, {
    token: company.admin.token,
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

/** `count` distinct valid Brazilian mobile numbers starting at `from`. */
export function numbers(count: number, from = 0): string[] {
  return Array.from({ length: count }, (_, i) => `55119${String(10_000_000 + from + i)}`);
}
