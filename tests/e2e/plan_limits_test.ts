import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { withBrowser } from "../helpers/browser.ts";
import { createDueInvoices } from "../../server/billing/service.ts";

// issue 24 item 8: a plan's 0 means no limit, and says so wherever a plan is offered.
Deno.test("plan limits - 0 reads 'ilimitado' on the signup plan picker and in the checkout", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Acme", {
      dueDate: "2026-12-01",
      plan: { value: 79.9, users: 0, connections: 0, queues: 3 },
    });
    await t.deps.db.updateTable("companies").set({
      billingName: "Acme Ltda",
      addressZipCode: "11000-000",
      addressStreet: "Rua A, 10",
      addressCity: "Santos",
      addressState: "SP",
    }).where("id", "=", c.id).execute();
    await createDueInvoices(t.deps);

    await page.goto(`${url}/signup`);
    const option = page.getByTestId("signup-form").locator("option", { hasText: "plan-Acme" });
    await option.waitFor({ state: "attached" });
    assert.equal(
      await option.textContent(),
      "plan-Acme - Usuários: ilimitado - Conexões: ilimitado - Filas: 3 - R$ 79,90",
    );

    await loginAs(page, c.admin, { expectPath: "/" });
    await page.goto(`${url}/financeiro`);
    await page.getByTestId("invoice-row").filter({ hasText: "plan-Acme" })
      .getByRole("button", { name: "PAGAR" }).click();
    await page.getByLabel("CPF/CNPJ").or(page.getByLabel("Nome completo")).first().waitFor();
    await page.getByRole("button", { name: "Próximo" }).click();
    const plan = page.getByTestId("checkout-plan");
    await plan.getByText("Usuários: ilimitado").waitFor();
    await plan.getByText("Conexões: ilimitado").waitFor();
    await plan.getByText("Filas: 3").waitFor();
    await plan.getByRole("button", { name: "SELECIONAR" }).click();
    const summary = page.locator(".checkout-summary");
    await summary.waitFor();
    assert.deepEqual(await summary.locator("dd").allTextContents().then((d) => d.slice(0, 2)), [
      "ilimitado",
      "ilimitado",
    ]);
    assert.deepEqual(pageErrors, []);
  }));
