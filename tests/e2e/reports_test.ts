import assert from "node:assert/strict";
import { createCompany, createUser } from "../helpers/app.ts";
import { withBrowser } from "../helpers/browser.ts";
import { auditPages } from "../helpers/page_audit.ts";
import { addContact, addMessage, addTicket, scene } from "../helpers/tickets.ts";

/**
 * /reports (issue 27): an admin filters a period, sees the per-day chart and the attendants'
 * table, downloads the attendants' XLSX and it reads back with the figures the table shows.
 */
Deno.test("reports page - filter a period (each filter named), see the chart with its axes and the table, download the XLSX", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Alpha");
    const s = await scene(t, c);
    // Two conversations on 2026-11-10 (local), one taken by the user.
    const first = await addTicket(t, c.id, {
      contactId: s.contactId,
      queueId: s.q1,
      at: "2026-11-10T13:00:00.000Z",
    });
    const other = await addContact(t, c.id, "João", "5511999990002");
    await addTicket(t, c.id, { contactId: other, queueId: s.q1, at: "2026-11-10T14:00:00.000Z" });
    t.clock.set("2026-11-10T13:05:00.000Z");
    const res = await t.request("PUT", `/api/tickets/${first.id}`, {
      token: c.user.token,
      body: { action: "accept" },
    });
    assert.equal(res.status, 200);

    await loginAs(page, c.admin);
    await page.goto(`${url}/reports`);
    await page.getByRole("heading", { name: "Relatórios" }).waitFor();
    await page.getByTestId("reports-from").fill("2026-11-09");
    await page.getByTestId("reports-to").fill("2026-11-11");
    await page.getByTestId("reports-chart").locator("title", { hasText: "2026-11-10: 2 / 0" })
      .waitFor({ state: "attached" });
    // Issue 50 item 5: each filter's name shown above it, the chart's axes and the period in the
    // reader's date format.
    const bar = page.getByTestId("reports");
    for (const name of ["Fila", "Atendente", "Conexão", "Etiqueta"]) {
      await bar.locator("label", { hasText: new RegExp(`^${name}$`) }).waitFor();
      await bar.getByRole("combobox", { name, exact: true }).waitFor();
    }
    assert.equal(await page.getByTestId("reports-period").innerText(), "09/11/2026 — 11/11/2026");
    assert.deepEqual(
      await page.getByTestId("reports-chart-x").locator("span").allInnerTexts(),
      ["09/11", "10/11", "11/11"],
    );
    assert.deepEqual(
      await page.getByTestId("reports-chart-y").locator("span").allInnerTexts(),
      ["2", "1", "0"],
    );
    // Tuesday 10:00 and 11:00 local on the heat map; two opened in the totals.
    await page.getByTestId("reports-heatmap").locator("title", { hasText: "Ter 10h: 1" })
      .waitFor({ state: "attached" });
    await page.getByTestId("reports-totals").getByText("Abertos", { exact: true }).waitFor();
    assert.equal(
      await page.getByTestId("reports-totals").locator("div").first().locator("dd").textContent(),
      "2",
    );
    const row = page.getByTestId("reports-attendants").getByRole("row", { name: /Alpha User/ });
    await row.getByRole("cell", { name: "1", exact: true }).first().waitFor();

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByTestId("reports-attendants-xlsx").click(),
    ]);
    assert.equal(download.suggestedFilename(), "attendants-2026-11-09-2026-11-11.xlsx");
    const { default: ExcelJS } = await import("exceljs");
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await Deno.readFile((await download.path())!)).buffer);
    const rows = book.worksheets[0].getSheetValues().slice(1).map((r) => (r as unknown[]).slice(1));
    // Column titles in the reader's language (issue 43 item 6).
    assert.deepEqual(rows[0].slice(0, 3), ["Código do atendente", "Nome", "Abertos"]);
    const user = rows.find((r) => r[0] === c.user.id)!;
    assert.deepEqual(user.slice(1, 3), ["Alpha User", 1]);

    assert.deepEqual(await auditPages(page, url, ["/reports"], "admin"), []);
    assert.deepEqual(pageErrors, []);
  }));

/**
 * A supervisor of a queue (issue 26) sees /reports in the menu, and the ticket screen's options
 * offer the printable transcript (GET /api/reports/tickets/:id/transcript), which downloads with
 * the conversation (who is offered the menu entry: tests/islands/policy_menu_test.ts).
 */
Deno.test("ticket transcript - a supervisor reaches the printable transcript from the ticket's options", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Alpha");
    const s = await scene(t, c);
    const ticket = await addTicket(t, c.id, { contactId: s.contactId, queueId: s.q1 });
    await addMessage(t, c.id, { ticketId: ticket.id, body: "Quero o boleto <2>", fromMe: false });
    const sup = await createUser(t, c.id, {
      name: "Supervisora",
      email: "sup@alpha.test",
      queueIds: [s.q1],
    });
    const mark = await t.request("PUT", `/api/users/${sup.id}`, {
      token: c.admin.token,
      body: { supervisedQueueIds: [s.q1] },
    });
    assert.equal(mark.status, 200);

    await loginAs(page, sup, { expectPath: "/tickets" });
    await page.locator('aside [data-menu="reports"]').waitFor();
    assert.equal(await page.locator('aside [data-menu="dashboard"]').count(), 0);
    await page.goto(`${url}/tickets/${ticket.uuid}`);
    await page.getByTestId("ticket-options").click();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("menuitem", { name: "Transcrição" }).click(),
    ]);
    assert.equal(download.suggestedFilename(), `ticket-${ticket.id}.html`);
    const html = await Deno.readTextFile((await download.path())!);
    assert.match(html, /Quero o boleto &lt;2&gt;/);
    // The page itself lets the supervisor in (its guard asks the same as the menu).
    await page.locator('aside [data-menu="reports"]').click();
    await page.getByRole("heading", { name: "Relatórios" }).waitFor();
    await page.getByTestId("reports-totals").getByText("Abertos", { exact: true }).waitFor();
    assert.equal(new URL(page.url()).pathname, "/reports");
    assert.deepEqual(pageErrors, []);
  }));
