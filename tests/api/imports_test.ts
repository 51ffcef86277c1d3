import assert from "node:assert/strict";
import { createCompany, type TestCompany, withApp } from "../helpers/app.ts";
import { serve } from "../helpers/server.ts";
import { contactRows, numberRows, workbook } from "../helpers/xlsx.ts";
import { IMPORT_MAX_ROWS } from "../../server/contacts/import.ts";
import { readSheetOffThread } from "../../server/contacts/read_sheet.ts";
import { AppError } from "../../server/errors.ts";

/**
 * Spreadsheet imports against files made to hurt (issue 35): a million rows, a zip bomb, an
 * upload past the imports' own limit. Each is refused with 413 ERR_IMPORT_TOO_LARGE while the
 * server keeps answering; nothing is written. (Memory and time are measured in
 * tests/bench/import_bench.ts, not here.)
 */

async function listOf(url: string, company: TestCompany): Promise<number> {
  const res = await fetch(`${url}/api/contact-lists`, {
    method: "POST",
    headers: { authorization: `Bearer ${company.admin.token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "Grande" }),
  });
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()).id;
}

function upload(url: string, path: string, company: TestCompany, bytes: Uint8Array, name: string) {
  const form = new FormData();
  form.append("file", new File([bytes as BlobPart], name));
  return fetch(`${url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${company.admin.token}` },
    body: form,
  });
}

/** Sends the import and, while it is read, asks /healthz: the server must answer it first. */
async function refusedWhileServing(url: string, send: () => Promise<Response>) {
  const order: string[] = [];
  const importing = send().then(async (res) => {
    order.push("import");
    return { status: res.status, body: await res.json() };
  });
  const health = await fetch(`${url}/healthz`);
  assert.equal(health.status, 200);
  await health.body?.cancel();
  order.push("healthz");
  const answer = await importing;
  assert.deepEqual(order, ["healthz", "import"], "/healthz answered while the sheet was read");
  assert.equal(answer.status, 413, JSON.stringify(answer.body));
  assert.equal(answer.body.error, "ERR_IMPORT_TOO_LARGE");
  return answer.body.message as string;
}

Deno.test("imports - a 1,000,000-row XLSX is refused (ERR_IMPORT_TOO_LARGE) for contacts and contact lists, and /healthz answers meanwhile", () =>
  withApp(async (t) => {
    const s = serve(t);
    try {
      const c = await createCompany(t, "Milhao");
      const million = await workbook(numberRows(1_000_000));
      // Under the 10 MB upload limit: it is the reading that must refuse it.
      assert.ok(million.byteLength < 10 * 1024 * 1024, `${million.byteLength} bytes`);
      const listId = await listOf(s.url, c);
      for (const path of ["/api/contacts/import", `/api/contact-lists/${listId}/upload`]) {
        const message = await refusedWhileServing(
          s.url,
          () => upload(s.url, path, c, million, "milhao.xlsx"),
        );
        assert.match(message, /MB descompactada/);
      }
      assert.equal((await t.deps.db.selectFrom("contacts").select("id").execute()).length, 0);
      const items = await t.deps.db.selectFrom("contact_list_items").select("id").execute();
      assert.equal(items.length, 0);
    } finally {
      await s.close();
    }
  }));

Deno.test("imports - reading stops at the first row past the limit: one row too many is refused (XLSX, CSV), the limit itself imports", () =>
  withApp(async (t) => {
    const s = serve(t);
    try {
      const c = await createCompany(t, "Limite");
      const over = await upload(
        s.url,
        "/api/contacts/import",
        c,
        await workbook(contactRows(IMPORT_MAX_ROWS + 1)),
        "demais.xlsx",
      );
      const body = await over.json();
      assert.equal(over.status, 413, JSON.stringify(body));
      assert.equal(body.error, "ERR_IMPORT_TOO_LARGE");
      assert.match(body.message, new RegExp(`mais de ${IMPORT_MAX_ROWS} linhas`));

      // The limit itself imports (a CSV: the same row count, read faster).
      const csv = [
        "name,number",
        ...Array.from(
          { length: IMPORT_MAX_ROWS },
          (_, i) => `Cliente ${i},55119${String(i).padStart(8, "0")}`,
        ),
      ].join("\n");
      const exact = await upload(
        s.url,
        "/api/contacts/import",
        c,
        new TextEncoder().encode(csv),
        "certo.csv",
      );
      const report = await exact.json();
      assert.equal(exact.status, 200, JSON.stringify(report).slice(0, 500));
      assert.deepEqual([report.total, report.created], [IMPORT_MAX_ROWS, IMPORT_MAX_ROWS]);
      const tooMany = await upload(
        s.url,
        "/api/contacts/import",
        c,
        new TextEncoder().encode(`${csv}\nUm a mais,5511999999999`),
        "demais.csv",
      );
      assert.equal((await tooMany.json()).error, "ERR_IMPORT_TOO_LARGE");
    } finally {
      await s.close();
    }
  }));

/** A workbook whose shared strings table is one string of `mb` megabytes. */
function oneLongString(mb: number, declaredSize?: number) {
  return workbook(contactRows(2), {
    declaredSize,
    sharedStrings: (function* () {
      yield `<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>`;
      const chunk = "A".repeat(1024 * 1024);
      for (let i = 0; i < mb; i++) yield chunk;
      yield `</t></si></sst>`;
    })(),
  });
}

Deno.test("imports - a zip bomb that lies about its sizes is refused by what it really unpacks to", () =>
  withApp(async (t) => {
    const s = serve(t);
    try {
      const c = await createCompany(t, "Bomba");
      // 40 MB of one shared string (the limit is 32), its sizes declared as 1 KB each.
      const bomb = await oneLongString(40, 1024);
      assert.ok(bomb.byteLength < 1024 * 1024, `${bomb.byteLength} bytes`);
      const message = await refusedWhileServing(
        s.url,
        () => upload(s.url, "/api/contacts/import", c, bomb, "b.xlsx"),
      );
      assert.match(message, /MB descompactada/);
      // The server still imports an honest sheet afterwards.
      const ok = await upload(
        s.url,
        "/api/contacts/import",
        c,
        await workbook(contactRows(3)),
        "ok.xlsx",
      );
      assert.equal((await ok.json()).created, 3);
    } finally {
      await s.close();
    }
  }));

Deno.test("imports - the reader's heap is limited: a sheet that needs more ends the reader (ERR_IMPORT_TOO_LARGE), not the server", async () => {
  // 30 MB in one cell: within the size limit, read with the usual heap, refused with 32 MB.
  const file = new File([await oneLongString(30) as BlobPart], "longa.xlsx");
  const read = await readSheetOffThread(file, IMPORT_MAX_ROWS);
  assert.equal(read.total, 2);
  await assert.rejects(
    () => readSheetOffThread(file, IMPORT_MAX_ROWS, 32),
    (error: unknown) => error instanceof AppError && error.code === "ERR_IMPORT_TOO_LARGE",
  );
});

Deno.test("imports - their uploads have their own, smaller limit (IMPORT_MAX_BYTES)", () =>
  withApp(async (t) => {
    const c = await createCompany(t, "Envio");
    const big = new Uint8Array(64 * 1024);
    const form = new FormData();
    form.append("file", new File([big], "grande.csv"));
    const res = await t.request("POST", "/api/contacts/import", {
      token: c.admin.token,
      body: form,
    });
    const body = await res.json();
    assert.equal(res.status, 413);
    assert.equal(body.error, "ERR_IMPORT_TOO_LARGE");
    // Attachments keep MEDIA_MAX_BYTES.
    assert.ok(t.config.mediaMaxBytes > t.config.importMaxBytes);
  }, { IMPORT_MAX_BYTES: String(32 * 1024) }));
