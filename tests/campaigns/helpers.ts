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

/**
 * `count` distinct valid Brazilian mobile numbers starting at `from`, all ending in 1 (so none
 * ends in 404, which the simulator answers as "not on WhatsApp").
 */
export function numbers(count: number, from = 0): string[] {
  return Array.from({ length: count }, (_, i) => `55119${10_000_001 + (from + i) * 10}`);
}

/** Saves campaign settings through the API. */
export async function saveSettings(
  t: TestApp,
  company: TestCompany,
  settings: Record<string, unknown>,
) {
  const res = await t.request("POST", "/api/campaign-settings", {
    token: company.admin.token,
    body: { settings },
  });
  assert.equal(res.status, 200, await res.clone().text());
}

/** A list of `count` recipients written directly (imports have their own tests). */
export async function seedList(t: TestApp, company: TestCompany, count: number, from = 0) {
  const listId = await createList(t, company, `Lista ${from}-${count}`);
  const stamp = t.clock.now().toISOString();
  const rows = numbers(count, from).map((number, i) => ({
    companyId: company.id,
    contactListId: listId,
    name: `Pessoa ${from + i}`,
    number,
    email: "",
    isWhatsappValid: null,
    checkedAt: null,
    createdAt: stamp,
    updatedAt: stamp,
  }));
  for (let i = 0; i < rows.length; i += 500) {
    await t.deps.db.insertInto("contact_list_items").values(rows.slice(i, i + 500)).execute();
  }
  return listId;
}

/** Creates a campaign through the API; answers the whole view. */
export async function createCampaign(
  t: TestApp,
  company: TestCompany,
  body: Record<string, unknown>,
) {
  const res = await t.request("POST", "/api/campaigns", {
    token: company.admin.token,
    body: { name: "Promoção", message1: "Olá {nome}!", ...body },
  });
  assert.equal(res.status, 201, await res.clone().text());
  return await res.json();
}
