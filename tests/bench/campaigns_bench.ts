/**
 * Campaigns (issue 13): a 50,000-row contact-list import and the dispatcher's throughput, each
 * while GET /api/tickets is timed on the same process (the rest of the app must keep answering).
 *
 *   deno run -A tests/bench/campaigns_bench.ts [--rows=50000] [--recipients=5000]
 *
 * 1. import: POST /api/contact-lists/:id/upload of an .xlsx of `rows` rows (the sheet is read on
 *    a worker thread); printed: the import's wall time and /api/tickets p50/p95 meanwhile;
 * 2. dispatch: a campaign of `recipients` numbers, intervals 0, on a simulator connection, with
 *    the dispatcher ticking every second as the `campaigns` job does; printed: messages per second
 *    (first send to last delivery) and /api/tickets p50/p95 meanwhile. Goal: >= 200 msg/s with
 *    the ticket list p95 under 50 ms.
 */
import ExcelJS from "exceljs";
import { createCompany, createTestApp, type TestApp } from "../helpers/app.ts";
import { connectSimulator } from "../whatsapp/helpers.ts";
import { dispatchTick } from "../../server/campaigns/dispatcher.ts";
import { generate } from "./dashboard_bench.ts";

const args = Object.fromEntries(
  Deno.args.map((a) => a.replace(/^--/, "").split("=")).map(([k, v]) => [k, v ?? "true"]),
);
const ROWS = Number(args.rows ?? 50_000);
const RECIPIENTS = Number(args.recipients ?? 5_000);

const encoder = new TextEncoder();
/** The bench prints its figures (lint keeps console out of the app; this is a report). */
function print(line: string) {
  Deno.stdout.writeSync(encoder.encode(`${line}\n`));
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
}

/** Times GET /api/tickets back to back (10 ms apart) until `stop` resolves. */
async function probeTickets(t: TestApp, token: string, stop: Promise<unknown>) {
  const times: number[] = [];
  let done = false;
  stop.finally(() => (done = true));
  while (!done) {
    const started = performance.now();
    const res = await t.request("GET", "/api/tickets?status=open&showAll=true", { token });
    await res.arrayBuffer();
    times.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 10));
  }
  return times;
}

async function sheet(rows: number): Promise<File> {
  const workbook = new ExcelJS.Workbook();
  const ws = workbook.addWorksheet("contatos");
  ws.addRow(["nome", "numero", "email"]);
  for (let i = 0; i < rows; i++) {
    ws.addRow([`Pessoa ${i}`, `55119${10_000_001 + i * 10}`, `p${i}@exemplo.com`]);
  }
  return new File([await workbook.xlsx.writeBuffer() as ArrayBuffer], "lista.xlsx");
}

const t = await createTestApp({ LOG_LEVEL: "warn" });
try {
  const company = await createCompany(t, "Bench");
  await generate(t, company.id, 20_000, 5_000);
  const token = company.admin.token;
  const wid = await connectSimulator(t, company);
  t.deps.simulator.ackDelayMs = 50;

  // The same probe with nothing else running: the machine's own noise floor.
  const idle = await probeTickets(t, token, new Promise((r) => setTimeout(r, 3000)));
  print(
    `campaigns: /api/tickets idle p50 ${quantile(idle, 0.5).toFixed(1)} ms, p95 ` +
      `${quantile(idle, 0.95).toFixed(1)} ms (${idle.length} requests)`,
  );

  // 1. import
  const file = await sheet(ROWS);
  const list = await (await t.request("POST", "/api/contact-lists", {
    token,
    body: { name: "Bench" },
  })).json();
  const form = new FormData();
  form.append("file", file);
  const started = performance.now();
  const upload = t.request("POST", `/api/contact-lists/${list.id}/upload`, { token, body: form })
    .then((r) => r.json());
  const during = await probeTickets(t, token, upload);
  const report = await upload;
  const importMs = performance.now() - started;
  print(
    `campaigns: import of ${ROWS} rows (${(file.size / 1024 / 1024).toFixed(1)} MB xlsx): ` +
      `${(importMs / 1000).toFixed(2)} s, ${report.created} created, ${report.skipped.length} ` +
      `skipped; /api/tickets meanwhile p50 ${quantile(during, 0.5).toFixed(1)} ms, p95 ` +
      `${quantile(during, 0.95).toFixed(1)} ms (${during.length} requests)`,
  );

  // 2. dispatch: a second list of RECIPIENTS numbers, checked as valid, intervals 0.
  await t.request("POST", "/api/campaign-settings", {
    token,
    body: { settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 } },
  });
  const target = await (await t.request("POST", "/api/contact-lists", {
    token,
    body: { name: "Destinatários" },
  })).json();
  await t.deps.db.insertInto("contact_list_items").columns([
    "companyId",
    "contactListId",
    "name",
    "number",
    "email",
    "isWhatsappValid",
    "createdAt",
    "updatedAt",
  ]).expression((eb) =>
    eb.selectFrom("contact_list_items").select([
      "companyId",
      eb.val(target.id).as("contactListId"),
      "name",
      "number",
      "email",
      eb.val(1).as("isWhatsappValid"),
      "createdAt",
      "updatedAt",
    ]).where("contactListId", "=", list.id).orderBy("id").limit(RECIPIENTS)
  ).execute();
  const campaign = await (await t.request("POST", "/api/campaigns", {
    token,
    body: {
      name: "Bench",
      message1: "Olá {nome}",
      whatsappId: wid,
      contactListId: target.id,
      scheduledAt: t.clock.now().toISOString(),
    },
  })).json();
  const sendStart = performance.now();
  let finished = false;
  const ticking = (async () => {
    while (!finished) {
      const tickStart = performance.now();
      await dispatchTick(t.deps);
      const row = await t.deps.db.selectFrom("campaigns").select("status")
        .where("id", "=", campaign.id).executeTakeFirstOrThrow();
      if (row.status === "FINALIZADA") finished = true;
      else {await new Promise((r) =>
          setTimeout(r, Math.max(0, 1000 - (performance.now() - tickStart)))
        );}
    }
  })();
  const meanwhile = await probeTickets(t, token, ticking);
  const seconds = (performance.now() - sendStart) / 1000;
  const sent = await t.deps.db.selectFrom("simulator_sent").select((eb) =>
    eb.fn.countAll<number>().as("n")
  ).where("whatsappId", "=", wid).executeTakeFirstOrThrow();
  print(
    `campaigns: dispatch of ${RECIPIENTS} messages, intervals 0, simulator: ${
      seconds.toFixed(1)
    } s, ` +
      `${(Number(sent.n) / seconds).toFixed(0)} msg/s (${sent.n} sent); /api/tickets meanwhile ` +
      `p50 ${quantile(meanwhile, 0.5).toFixed(1)} ms, p95 ${
        quantile(meanwhile, 0.95).toFixed(1)
      } ms ` +
      `(${meanwhile.length} requests)`,
  );
} finally {
  await t.close();
}
