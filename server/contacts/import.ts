import type { Contact } from "../../db/schema.ts";
import { noteOutgoingMany } from "../events/outgoing_repository.ts";
import { inBackground } from "../../db/priority.ts";
import type { AppDeps } from "../context.ts";
import { contactView } from "./service.ts";
import * as repo from "./repository.ts";
import { readSheetOffThread } from "./read_sheet.ts";
import type { SkippedRow } from "./rows.ts";
import { csvLines } from "./csv_lines.ts";

/**
 * Contact import from CSV or XLSX (issue 5): every row is checked first, off the main thread
 * (read_sheet.ts), then all valid rows are written in one transaction, so an import is either
 * applied as reported or not at all.
 */
export type ImportReport = {
  /** Data rows read (the header excluded). */
  total: number;
  created: number;
  /** Existing contacts (same number) whose name or email changed. */
  updated: number;
  /** Existing contacts the row matched without changing anything. */
  unchanged: number;
  skipped: SkippedRow[];
};

export const IMPORT_MAX_ROWS = 20_000;

/**
 * Imports a spreadsheet. Rows whose number already belongs to a contact update that contact's
 * name (and email, when the row has one) if `updateExisting`, else they are skipped as
 * ERR_DUPLICATED_CONTACT. After commit: contact.created / contact.updated per contact, then
 * contacts.reloaded once.
 */
export async function importContacts(
  deps: AppDeps,
  companyId: number,
  file: File,
  options: { updateExisting: boolean },
): Promise<ImportReport> {
  const sheet = await readSheetOffThread(file, IMPORT_MAX_ROWS);
  const skipped = [...sheet.skipped];
  const valid = sheet.valid;
  const now = deps.clock.now().toISOString();
  // Thousands of rows in one transaction: it takes the writer after the interactive ones
  // waiting (db/priority.ts), not before an inbound message that arrived meanwhile.
  const changes = await inBackground(() =>
    deps.db.transaction().execute(async (trx) => {
      const existing = await repo.contactsByNumbers(trx, companyId, valid.map((v) => v.number));
      const inserts: repo.ContactFields[] = [];
      const updated: Contact[] = [];
      let unchanged = 0;
      for (const v of valid) {
        const found = existing.get(v.number);
        if (!found) {
          inserts.push({
            name: v.name,
            number: v.number,
            email: v.email,
            isGroup: v.isGroup ? 1 : 0,
          });
          continue;
        }
        if (!options.updateExisting) {
          skipped.push({
            row: v.row,
            code: "ERR_DUPLICATED_CONTACT",
            reason: `Já existe um contato com o número ${v.number}`,
          });
          continue;
        }
        const email = v.email || found.email;
        if (found.name === v.name && found.email === email) {
          unchanged++;
          continue;
        }
        const row = await repo.updateContact(
          trx,
          companyId,
          found.id,
          { name: v.name, email },
          now,
        );
        if (row) updated.push(row);
      }
      const created = await repo.insertContacts(trx, companyId, inserts, now);
      // Each contact's event noted with the import (server/events/outgoing.ts): no webhook lost.
      const notes = await noteOutgoingMany(trx, companyId, [
        ...created.map((row) => ({ event: "contact.created", subject: { contactId: row.id } })),
        ...updated.map((row) => ({ event: "contact.updated", subject: { contactId: row.id } })),
      ], now);
      return { created, updated, unchanged, notes };
    })
  );
  skipped.sort((a, b) => a.row - b.row);
  // Each contact is told as the catalogue promises (webhooks hear contact.created/updated per
  // contact, whatever made it); the lists read once, on contacts.reloaded, not per contact.
  const { notes } = changes;
  changes.created.forEach((row, i) => {
    const outgoing = notes[i];
    deps.events.emit("contact.created", {
      companyId,
      contact: contactView(row),
      bulk: true,
      outgoing,
    });
  });
  changes.updated.forEach((row, i) => {
    const outgoing = notes[changes.created.length + i];
    deps.events.emit("contact.updated", {
      companyId,
      contact: contactView(row),
      bulk: true,
      outgoing,
    });
  });
  if (changes.created.length + changes.updated.length > 0) {
    deps.events.emit("contacts.reloaded", { companyId });
  }
  return {
    total: sheet.total,
    created: changes.created.length,
    updated: changes.updated.length,
    unchanged: changes.unchanged,
    skipped,
  };
}

/** The CSV export as a stream: header, then the company's contacts 1,000 at a time. */
export function exportContactsCsv(deps: AppDeps, companyId: number): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let afterId = 0;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        // The BOM makes Excel read the file as UTF-8 (accents in names).
        controller.enqueue(encoder.encode("\uFEFF" + csvLines([["name", "number", "email"]])));
        return;
      }
      const page = await repo.exportPage(deps.db, companyId, afterId, 1000);
      if (page.length === 0) return controller.close();
      afterId = page[page.length - 1].id;
      controller.enqueue(encoder.encode(csvLines(page.map((c) => [c.name, c.number, c.email]))));
    },
  });
}
