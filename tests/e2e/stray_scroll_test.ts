import assert from "node:assert/strict";
import { ADMIN_EMAIL, ADMIN_PASSWORD, createCompany, login } from "../helpers/app.ts";
import { withBrowser } from "../helpers/browser.ts";
import { LAPTOP, PHONE, settled, strayScrollbars } from "../helpers/page_audit.ts";
import { addContact, addTicket, addWhatsapp } from "../helpers/tickets.ts";

/**
 * Issue 24 item 7, as the super user at 1366 and 390 px: a table of one or two rows, the
 * invoices, the companies and plans of /settings, the notes dialog and a connection's Automação
 * tab show no scrollbar of their own (the rows' hidden tooltips used to make them scroll).
 */
Deno.test("stray scrollbars - short tables, invoices, companies, plans, the notes dialog and the Automação tab at 1366 and 390 px", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const companyId = root.user.companyId as number;
    await createCompany(t, "Beta Comércio de Roupas e Acessórios Ltda");
    const stamp = t.clock.now().toISOString();
    await t.deps.db.insertInto("tags").values({
      companyId,
      name: "Urgente",
      color: "#dc2626",
      kanban: 0,
      createdAt: stamp,
      updatedAt: stamp,
    }).execute();
    for (const dueDate of ["2027-01-10", "2027-02-10"]) {
      await t.deps.db.insertInto("invoices").values({
        companyId,
        detail: "Plano mensal completo",
        valueCents: 9990,
        dueDate,
        paidAt: null,
        paidByUserId: null,
        paidVia: null,
        provider: null,
        chargeId: null,
        pixPayload: null,
        createdAt: stamp,
        updatedAt: stamp,
      }).execute();
    }
    const whatsappId = await addWhatsapp(t, companyId, "Loja Centro", { isDefault: true });
    const contactId = await addContact(t, companyId, "Carlos Cliente", "5511988887777");
    const ticket = await addTicket(t, companyId, {
      contactId,
      whatsappId,
      status: "open",
      userId: root.user.id,
      lastMessage: "Olá",
    });
    await t.deps.db.insertInto("ticket_notes").values({
      companyId,
      ticketId: ticket.id,
      contactId,
      userId: root.user.id,
      note: "Cliente pediu retorno amanhã",
      createdAt: stamp,
      updatedAt: stamp,
    }).execute();

    await loginAs(page, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    const problems: string[] = [];
    const check = async (what: string, size: number, selector: string) => {
      for (const p of await strayScrollbars(page, selector)) {
        problems.push(`${what} at ${size}: ${p}`);
      }
    };
    for (const size of [LAPTOP, PHONE]) {
      await page.setViewportSize(size);
      for (const path of ["/tags", "/financeiro"]) {
        await page.goto(`${url}${path}`);
        await settled(page);
        await page.locator("main tbody tr").first().waitFor();
        await check(path, size.width, "main");
      }
      await page.goto(`${url}/settings`);
      await settled(page);
      for (const tab of ["Empresas", "Planos"]) {
        await page.getByRole("tab", { name: tab }).click();
        await page.getByRole("tabpanel").locator("tbody tr").first().waitFor();
        await check(`/settings ${tab}`, size.width, "main");
      }

      await page.goto(`${url}/tickets/${ticket.uuid}`);
      await page.getByTestId("ticket-options").click();
      await page.getByRole("menuitem", { name: "Observações" }).click();
      await page.getByTestId("notes").getByText("Cliente pediu retorno amanhã").waitFor();
      await check("notes dialog", size.width, "[role=dialog]");

      await page.goto(`${url}/connections`);
      await page.getByTestId("edit-connection").click();
      await page.getByRole("tab", { name: "Automação" }).click();
      await page.getByRole("tabpanel").waitFor();
      await page.waitForLoadState("networkidle");
      await check("connection's Automação tab", size.width, "[role=dialog]");
    }
    assert.deepEqual(problems, []);
    assert.deepEqual(pageErrors, []);
  }));
