import assert from "node:assert/strict";
import { twoCompanies, withApp } from "../helpers/app.ts";
import { addMessage, addTicket, scene } from "../helpers/tickets.ts";
import { act, at, dataset, get, PERIOD, type Row } from "../helpers/report_dataset.ts";

Deno.test("reports - every figure of the hand-made period, per attendant, queue, tag and day", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const d = await dataset(t, a);
    // Company B's busy day inside the period never counts for A.
    const sb = await scene(t, b);
    const other = await addTicket(t, b.id, {
      contactId: sb.contactId,
      queueId: sb.q1,
      at: "2026-11-02T12:00:00.000Z",
    });
    at(t, "2026-11-02T12:30:00.000Z");
    await act(t, b.admin.token, other.id, { action: "accept" });
    await addMessage(t, b.id, { ticketId: other.id, body: "b", fromMe: true });

    const attendants = await get<{ rows: Row[] }>(
      t,
      a.admin.token,
      `/api/reports/attendants?${PERIOD}`,
    );
    const user = attendants.rows.find((r) => r.userId === a.user.id)!;
    assert.deepEqual(user, {
      userId: a.user.id,
      name: user.name,
      opened: 6, // T1, T2, T3, T3 reopened, T4 transferred to them, T7
      resolved: 4,
      reopened: 1,
      transfers: 1,
      slaBreaches: 0,
      waitingMedianSeconds: 360, // 60 120 | 600 4200
      waitingP90Seconds: 4200,
      firstResponseMedianSeconds: 450, // 120 300 | 600 1200
      firstResponseP90Seconds: 1200,
      resolutionMedianSeconds: 3600, // 1800 3600 | 3600 7200
      resolutionP90Seconds: 7200,
      messagesIn: 1, // T1's first message came before anyone held it
      messagesOut: 4,
      ratings: { 1: 1, 2: 0, 3: 2 },
    });
    // A long period ranks from the attendants' index (repository.ts durationSource): T6 joins.
    const year = await get<{ rows: Row[] }>(
      t,
      a.admin.token,
      "/api/reports/attendants?dateFrom=2026-01-01&dateTo=2026-11-30",
    );
    const yearUser = year.rows.find((r) => r.userId === a.user.id)!;
    assert.equal(yearUser.opened, 7);
    assert.equal(yearUser.waitingMedianSeconds, 120); // 60 60 120 600 4200
    assert.equal(yearUser.waitingP90Seconds, 4200);
    assert.equal(yearUser.resolutionMedianSeconds, 3600);
    const admin = attendants.rows.find((r) => r.userId === a.admin.id)!;
    assert.equal(admin.opened, 1);
    assert.equal(admin.resolved, 0);
    assert.equal(admin.waitingMedianSeconds, 1800);
    assert.equal(admin.firstResponseMedianSeconds, 2400);
    assert.equal(admin.resolutionMedianSeconds, null);
    assert.equal(admin.messagesOut, 1);
    assert.deepEqual(attendants.rows.map((r) => r.userId).sort(), [a.admin.id, a.user.id].sort());

    const queues = await get<{ rows: Row[] }>(t, a.admin.token, `/api/reports/queues?${PERIOD}`);
    const byQueue = Object.fromEntries(queues.rows.map((r) => [String(r.queueId), r]));
    assert.equal(byQueue[d.q1].opened, 5); // T1, T2, T3, T4 (transferred in), T5
    assert.equal(byQueue[d.q1].resolved, 4);
    assert.equal(byQueue[d.q2].opened, 1);
    assert.equal(byQueue[d.q2].firstResponseMedianSeconds, 2400);
    assert.equal(byQueue[d.q1].transfers, 1);

    const tags = await get<{ rows: Row[] }>(t, a.admin.token, `/api/reports/tags?${PERIOD}`);
    assert.equal(tags.rows.length, 1);
    assert.equal(tags.rows[0].opened, 2);
    assert.equal(tags.rows[0].resolved, 3);
    assert.equal(tags.rows[0].reopened, 1);
    assert.deepEqual(tags.rows[0].ratings, { 1: 0, 2: 0, 3: 2 });
    assert.equal(tags.rows[0].messagesIn, 1);
    assert.equal(tags.rows[0].messagesOut, 3);

    const days = await get<{ rows: Row[] }>(t, a.admin.token, `/api/reports/days?${PERIOD}`);
    assert.deepEqual(days.rows.map((r) => [r.day, r.opened, r.resolved, r.reopened]), [
      ["2026-11-02", 2, 2, 0],
      ["2026-11-03", 3, 2, 1],
      ["2026-11-04", 0, 0, 0],
    ]);
    assert.deepEqual(days.rows.map((r) => r.ratings), [
      { 1: 1, 2: 0, 3: 1 },
      { 1: 0, 2: 0, 3: 1 },
      { 1: 0, 2: 0, 3: 0 },
    ]);

    const summary = await get<{ totals: Row }>(t, a.admin.token, `/api/reports/summary?${PERIOD}`);
    assert.equal(summary.totals.opened, 5);
    assert.equal(summary.totals.resolved, 4);
    assert.equal(summary.totals.messagesIn, 2);
    assert.equal(summary.totals.messagesOut, 5);
    // 60 120 600 1800 | 4200: waits of every ticket taken from no one
    assert.equal(summary.totals.waitingMedianSeconds, 600);

    const heat = await get<{ cells: number[][] }>(
      t,
      a.admin.token,
      `/api/reports/heatmap?${PERIOD}`,
    );
    // Monday Nov 2: 09:00, 11:00; Tuesday Nov 3: 07:00, 17:00, 23:00 (local).
    const hot: string[] = [];
    heat.cells.forEach((hours, day) => hours.forEach((n, h) => n && hot.push(`${day}-${h}:${n}`)));
    assert.deepEqual(hot, ["1-9:1", "1-11:1", "2-7:1", "2-17:1", "2-23:1"]);

    // Filters: a tag, a queue, a user; another company's ids answer like missing ones.
    const vip = await get<{ totals: Row }>(
      t,
      a.admin.token,
      `/api/reports/summary?${PERIOD}&tagId=${d.tagId}`,
    );
    assert.equal(vip.totals.opened, 2);
    const q2 = await get<{ totals: Row }>(
      t,
      a.admin.token,
      `/api/reports/summary?${PERIOD}&queueId=${d.q2}`,
    );
    assert.equal(q2.totals.opened, 1);
    for (const filter of [`userId=${b.admin.id}`, "userId=999999"]) {
      const rows = await get<{ rows: Row[] }>(
        t,
        a.admin.token,
        `/api/reports/attendants?${PERIOD}&${filter}`,
      );
      assert.deepEqual(rows.rows, []);
    }
    const foreign = await get<{ totals: Row }>(
      t,
      a.admin.token,
      `/api/reports/summary?${PERIOD}&queueId=${sb.q1}`,
    );
    const missing = await get<{ totals: Row }>(
      t,
      a.admin.token,
      `/api/reports/summary?${PERIOD}&queueId=999999`,
    );
    assert.deepEqual(foreign, missing);
    assert.equal(foreign.totals.opened, 0);
  }));

Deno.test("reports - the client's series: ticketsUsers and ticketsDay (per day, per hour)", () =>
  withApp(async (t) => {
    const { a } = await twoCompanies(t);
    await dataset(t, a);
    const users = await get<{ data: { nome: string; quantidade: number }[] }>(
      t,
      a.admin.token,
      "/api/dashboard/ticketsUsers?initialDate=2026-11-02&finalDate=2026-11-04&companyId=1",
    );
    assert.deepEqual(
      users.data.map((u) => u.quantidade).sort(),
      [1, 6],
    );
    const days = await get<{ data: unknown[]; count: number }>(
      t,
      a.admin.token,
      "/api/dashboard/ticketsDay?initialDate=2026-11-02&finalDate=2026-11-04",
    );
    assert.deepEqual(days, {
      data: [
        { total: 2, data: "02/11/2026" },
        { total: 3, data: "03/11/2026" },
        { total: 0, data: "04/11/2026" },
      ],
      count: 5,
    });
    const hours = await get<{ data: { total: number; horario: string }[]; count: number }>(
      t,
      a.admin.token,
      "/api/dashboard/ticketsDay?initialDate=2026-11-02&finalDate=2026-11-02",
    );
    assert.equal(hours.data.length, 24);
    assert.deepEqual(hours.data.filter((h) => h.total), [
      { total: 1, horario: "09" },
      { total: 1, horario: "11" },
    ]);
    assert.equal(hours.count, 2);
  }));

Deno.test("reports - exports (CSV, XLSX read back), transcript, roles, bad periods", () =>
  withApp(async (t) => {
    const { a, b } = await twoCompanies(t);
    const d = await dataset(t, a);
    const csv = await t.request("GET", `/api/reports/days.csv?${PERIOD}`, { token: a.admin.token });
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get("content-type")!, /text\/csv/);
    const lines = (await csv.text()).replace(/^\uFEFF/, "").trim().split("\r\n");
    // Issue 43 item 6: column titles in the reader's language (pt when the page chose none),
    // separated by ';' for Portuguese (Excel in Brazil), durations in words (issue 50 item 6).
    const titles = lines[0].split(";");
    assert.deepEqual(titles.slice(0, 3), ["Dia", "Abertos", "Resolvidos"]);
    const firstResponse = titles.indexOf("1ª resposta, mediana");
    assert.ok(firstResponse > 0, lines[0]);
    for (const line of lines.slice(1)) {
      assert.match(line.split(";")[firstResponse], /^(\d+ s|\d+ min|\d+ h \d\d min|)$/, line);
    }
    const spanish = await t.request("GET", `/api/reports/days.csv?${PERIOD}`, {
      token: a.admin.token,
      headers: { "accept-language": "es-ES,es;q=0.9" },
    });
    assert.deepEqual(
      (await spanish.text()).replace(/^\uFEFF/, "").split("\r\n")[0].split(",").slice(0, 3),
      ["Día", "Abiertos", "Resueltos"],
    );
    assert.equal(lines.length, 4);
    // The day in the reader's date format (issue 50 item 6), not ISO.
    assert.match(lines[1], /^02\/11\/2026;2;2;0;/);
    const dayBook = new (await import("exceljs")).default.Workbook();
    await dayBook.xlsx.load(
      await (await t.request("GET", `/api/reports/days.xlsx?${PERIOD}`, {
        token: a.admin.token,
      })).arrayBuffer(),
    );
    // A date a spreadsheet sorts and formats, shown in the reader's order.
    const dayCell = dayBook.worksheets[0].getRow(2).getCell(1);
    assert.deepEqual(dayCell.value, new Date("2026-11-02T00:00:00.000Z"));
    assert.equal(dayCell.numFmt, "dd/mm/yyyy");

    const xlsx = await t.request("GET", `/api/reports/attendants.xlsx?${PERIOD}`, {
      token: a.admin.token,
      // The page's language switcher's cookie wins over the browser's languages.
      headers: { cookie: "theme=dark; lang=en", "accept-language": "pt-BR" },
    });
    assert.equal(xlsx.status, 200);
    assert.match(
      xlsx.headers.get("content-disposition")!,
      /attendants-2026-11-02-2026-11-04\.xlsx/,
    );
    const { default: ExcelJS } = await import("exceljs");
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await xlsx.arrayBuffer());
    const sheet = book.worksheets[0];
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    assert.deepEqual(header.slice(0, 4), ["Attendant id", "Name", "Opened", "Resolved"]);
    const userRow = [2, 3].map((n) => (sheet.getRow(n).values as unknown[]).slice(1))
      .find((r) => r[0] === a.user.id)!;
    assert.deepEqual(userRow.slice(2, 4), [6, 4]);

    await addMessage(t, a.id, { ticketId: d.t1, body: "*Alpha User:*\nTudo certo", fromMe: true });
    const transcript = await t.request("GET", `/api/reports/tickets/${d.t1}/transcript`, {
      token: a.admin.token,
    });
    assert.equal(transcript.status, 200);
    const html = await transcript.text();
    assert.match(html, /&lt;b&gt;oi&lt;\/b&gt;/);
    assert.match(html, /resposta/);
    // Issue 50 item 6: events and status in the reader's words, markup drawn, not shown.
    assert.match(html, /<td>Resolvido<\/td>/);
    assert.match(html, /<td>Aceito<\/td>/);
    assert.doesNotMatch(html, /<td>(created|accepted|resolved|first_response|queued)<\/td>/);
    assert.match(html, /<strong>Alpha User:<\/strong>/);
    assert.doesNotMatch(html, /\*Alpha User:\*/);
    const english = await (await t.request("GET", `/api/reports/tickets/${d.t1}/transcript`, {
      token: a.admin.token,
      headers: { cookie: "lang=en" },
    })).text();
    assert.match(english, /<td>Resolved<\/td>/);
    assert.match(english, /<html lang="en-US">/);
    for (
      const path of [
        `/api/reports/tickets/${d.t1}/transcript`,
        "/api/reports/tickets/999999/transcript",
      ]
    ) {
      const res = await t.request("GET", path, { token: b.admin.token });
      assert.equal(res.status, 404);
      assert.equal((await res.json()).error, "ERR_NO_TICKET_FOUND");
    }

    // The routes are in the API's document (generated from the route table).
    const doc = await (await t.request("GET", "/api/openapi.json")).json();
    for (const path of ["/reports/attendants", "/reports/attendants.xlsx", "/reports/heatmap"]) {
      assert.ok(doc.paths[path]?.get, path);
    }
    assert.ok(doc.paths["/dashboard/ticketsUsers"]?.get);

    for (const path of [`/api/reports/attendants?${PERIOD}`, `/api/reports/attendants.xlsx`]) {
      const res = await t.request("GET", path, { token: a.user.token });
      assert.equal(res.status, 403);
      assert.equal((await res.json()).error, "ERR_NO_PERMISSION");
    }
    const long = await t.request("GET", "/api/reports/days?dateFrom=2025-01-01&dateTo=2026-11-04", {
      token: a.admin.token,
    });
    assert.equal(long.status, 400);
    assert.equal((await long.json()).error, "ERR_VALIDATION");
    const bad = await t.request("GET", "/api/reports/days?dateFrom=2026-13-01", {
      token: a.admin.token,
    });
    assert.equal(bad.status, 400);
  }));
