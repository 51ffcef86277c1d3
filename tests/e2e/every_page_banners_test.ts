import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { withBrowser } from "../helpers/browser.ts";
import { addContact, addTicket, addWhatsapp } from "../helpers/tickets.ts";
import { auditPages, PHONE } from "../helpers/page_audit.ts";

/**
 * Issue 44 item 4: the axe pass with every banner the shell can show: the subscription's (a trial
 * ending in 3 days), the storage's (free space under the threshold), the connections' alert (a
 * disconnected number marks the menu), the tickets taken back while offline (issue 50 item 17),
 * and a late company's billing-only banner, at 1366 and 390 px. Issue 50 item 2: the late trial's admin reads that the trial ended and finds 'Pagar'
 * on /financeiro. The test clock: 2026-11-22T12:00Z; the browser's is today's.
 */

const PAGES = ["/tickets", "/connections", "/queues", "/financeiro"];

Deno.test("banners - every banner the shell shows passes axe at 1366 and 390 px", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const today = new Date();
    const soon = new Date(today.getTime() + 3 * 86_400_000).toISOString().slice(0, 10);
    const c = await createCompany(t, "Alpha", { dueDate: soon });
    await addWhatsapp(t, c.id, "Vendas", { status: "DISCONNECTED" });
    // A ticket distribution took back from the admin while offline: the notice with its link and
    // its button is a banner too.
    const contactId = await addContact(t, c.id, "Carlos Cliente", "5511988887777");
    const ticket = await addTicket(t, c.id, { contactId, status: "open", userId: c.user.id });
    await t.deps.db.insertInto("taken_back_notices").values({
      companyId: c.id,
      userId: c.admin.id,
      ticketId: ticket.id,
      toUserId: c.user.id,
      at: t.clock.now().toISOString(),
      seenAt: null,
    }).execute();
    await loginAs(page, c.admin);
    await page.getByTestId("subscription-warning").waitFor();
    await page.getByTestId("storage-warning").waitFor();
    await page.getByTestId("subscription-pay").waitFor();
    await page.getByTestId("taken-back").getByText("Carlos Cliente").waitFor();
    assert.deepEqual(await auditPages(page, url, PAGES, "admin with banners"), []);
    // The same banners on the dark theme (their tints and texts are the theme's own colours).
    await page.evaluate(() => localStorage.setItem("preferredTheme", "dark"));
    const dark = await auditPages(page, url, ["/tickets"], "admin with banners, dark");
    assert.equal(await page.locator("html").getAttribute("data-theme"), "dark");
    await page.getByTestId("taken-back").waitFor();
    assert.deepEqual(dark, []);
    assert.deepEqual(pageErrors, []);
  }, { env: { STORAGE_WARN_BYTES: String(1024 ** 5) } }));

Deno.test("banners - a late trial's admin: the billing-only banner passes axe, says the trial ended, and /financeiro offers 'Pagar'", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors, secondBrowser }) => {
    const c = await createCompany(t, "Alpha");
    await t.deps.db.updateTable("companies").set({ dueDate: "2026-01-10" })
      .where("id", "=", c.id).execute();
    await loginAs(page, c.admin, { expectPath: "/financeiro" });
    const banner = page.getByTestId("billing-only");
    await banner.getByText("Seu período de teste terminou em 10/01/2026").waitFor();
    const row = page.getByTestId("invoice-row").first();
    await row.getByRole("button", { name: "Pagar" }).waitFor();
    // The top bar no longer calls the company active until a past day.
    assert.equal(
      await page.getByTestId("due-date").innerText(),
      "Vencido em 10/01/2026",
    );
    assert.deepEqual(await auditPages(page, url, ["/financeiro"], "late admin"), []);
    // Issue 44 item 6, met on a phone: the row's 'Pagar' lay mostly left of its card (the
    // actions cell kept the table's 1% width), and the banner's icon shrank beside three lines.
    await page.setViewportSize(PHONE);
    const pay = row.getByRole("button", { name: "Pagar" });
    assert.equal(
      await pay.evaluate((button) => {
        const box = button.getBoundingClientRect();
        const card = button.closest("tr")!.getBoundingClientRect();
        return box.left >= card.left && box.right <= card.right ||
          `${box.left}-${box.right} outside ${card.left}-${card.right}`;
      }),
      true,
    );
    const icon = await banner.locator("svg").first().boundingBox();
    assert.equal(icon?.width, 16, "the banner's icon keeps its size");

    // A late company whose plan costs nothing has no invoice to pay: /financeiro says so and
    // what to do, instead of "Nenhuma fatura encontrada." under a banner that says to pay.
    const free = await createCompany(t, "Gratis", { plan: { value: 0 } });
    await t.deps.db.updateTable("companies").set({ dueDate: "2026-01-10" })
      .where("id", "=", free.id).execute();
    const other = await secondBrowser();
    await loginAs(other, free.admin, { expectPath: "/financeiro" });
    await other.getByTestId("invoices-list")
      .getByText(/Não há fatura a pagar: o plano desta empresa não tem valor/).waitFor();
    assert.deepEqual(pageErrors, []);
  }, { env: { STORAGE_WARN_BYTES: String(1024 ** 5) } }));
