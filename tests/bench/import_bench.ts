/**
 * Spreadsheet imports against large and hostile files (issue 35, finding 5), on a real port:
 * for each, the time to the answer, the process's peak RSS above where it started (the reader's
 * worker thread is part of the process), and the slowest /healthz answer meanwhile (asked every
 * 20 ms).
 *
 *   deno run -A --v8-flags=--expose-gc tests/bench/import_bench.ts [--skip-bomb]
 *
 * (With --expose-gc the bench collects its own garbage before each case, so that its pauses are
 * not counted as the server's.)
 *
 * 1. a 1,000,000-row XLSX (6 MB) to POST /api/contacts/import: refused;
 * 2. the same to POST /api/contact-lists/:id/upload: refused;
 * 3. a zip bomb (0.4 MB that unpacks to 400 MB of one string, its sizes declared as 1 KB):
 *    refused;
 * 4. an honest 100,000-row contact list (LIST_IMPORT_MAX_ROWS): imported.
 */
import { createCompany, createTestApp, type TestCompany } from "../helpers/app.ts";
import { serve } from "../helpers/server.ts";
import { contactRows, numberRows, workbook } from "../helpers/xlsx.ts";

const encoder = new TextEncoder();
/** The bench prints its figures (lint keeps console out of the app; this is a report). */
function print(line: string) {
  Deno.stdout.writeSync(encoder.encode(`${line}\n`));
}

const t = await createTestApp();
const s = serve(t);

async function measure(label: string, send: () => Promise<Response>) {
  // A settled heap first, so that the peak is the import's.
  (globalThis as { gc?: () => void }).gc?.();
  const base = Deno.memoryUsage().rss;
  let peak = base;
  let slowest = 0;
  let done = false;
  const sampler = setInterval(() => (peak = Math.max(peak, Deno.memoryUsage().rss)), 20);
  const probe = (async () => {
    while (!done) {
      const started = performance.now();
      const res = await fetch(`${s.url}/healthz`);
      await res.body?.cancel();
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const started = performance.now();
  const res = await send();
  const body = await res.json();
  const ms = performance.now() - started;
  done = true;
  await probe;
  clearInterval(sampler);
  const outcome = res.ok
    ? `${body.created} created`
    : `${res.status} ${body.error}: ${body.message}`;
  print(
    `${label}: ${outcome}; ${(ms / 1000).toFixed(2)} s; peak RSS +${
      Math.round((peak - base) / 1024 / 1024)
    } MB; /healthz slowest ${slowest.toFixed(0)} ms`,
  );
}

function upload(path: string, company: TestCompany, bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.append("file", new File([bytes as BlobPart], name));
  return fetch(`${s.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${company.admin.token}` },
    body: form,
  });
}

/** 0.4 MB that unpacks to 400 MB of one shared string, its sizes declared as 1 KB. */
function zipBomb() {
  return workbook(contactRows(2), {
    declaredSize: 1024,
    sharedStrings: (function* () {
      yield `<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>`;
      const mb = "A".repeat(1024 * 1024);
      for (let i = 0; i < 400; i++) yield mb;
      yield `</t></si></sst>`;
    })(),
  });
}

try {
  const c = await createCompany(t, "Bench");
  const list = await (await fetch(`${s.url}/api/contact-lists`, {
    method: "POST",
    headers: { authorization: `Bearer ${c.admin.token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "Bench" }),
  })).json();
  const million = await workbook(numberRows(1_000_000));
  print(`1,000,000-row XLSX: ${(million.byteLength / 1024 / 1024).toFixed(1)} MB`);
  await measure(
    "contacts import, 1,000,000 rows",
    () => upload("/api/contacts/import", c, million, "m.xlsx"),
  );
  await measure(
    "contact list import, 1,000,000 rows",
    () => upload(`/api/contact-lists/${list.id}/upload`, c, million, "m.xlsx"),
  );
  if (!Deno.args.includes("--skip-bomb")) {
    const bomb = await zipBomb();
    print(`zip bomb: ${(bomb.byteLength / 1024 / 1024).toFixed(1)} MB, 400 MB unpacked`);
    await measure(
      "contacts import, zip bomb",
      () => upload("/api/contacts/import", c, bomb, "b.xlsx"),
    );
  }
  const honest = await workbook(contactRows(100_000));
  print(`100,000-row XLSX: ${(honest.byteLength / 1024 / 1024).toFixed(1)} MB`);
  await measure(
    "contact list import, 100,000 rows",
    () => upload(`/api/contact-lists/${list.id}/upload`, c, honest, "ok.xlsx"),
  );
} finally {
  await s.close();
  await t.close();
}
