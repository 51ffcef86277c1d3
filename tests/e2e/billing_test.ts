import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { toastWith, withBrowser } from "../helpers/browser.ts";
import { asaasEnv, startFakeAsaas } from "../fakes/asaas.ts";
import { ensurePeriodInvoice } from "../../server/billing/repository.ts";
import { createDueInvoices } from "../../server/billing/service.ts";

const TOKEN = "whsec-asaas-e2e-token-0123456789abcdef";

Deno.test("financeiro - an admin pays an invoice: PAGAR, three steps, the Pix QR, the webhook, 'renovada' and back to /", async () => {
  const fake = startFakeAsaas();
  try {
    await withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
      const c = await createCompany(t, "Acme", { dueDate: "2026-12-01", plan: { value: 79.9 } });
      await t.deps.db.updateTable("companies").set({
        billingName: "Acme Ltda",
        addressZipCode: "11000-000",
        addressStreet: "Rua A, 10",
        addressState: "SP",
      }).where("id", "=", c.id).execute();
      await createDueInvoices(t.deps);
      // An old unpaid invoice: overdue rows are tinted red.
      await ensurePeriodInvoice(t.deps.db, {
        companyId: c.id,
        detail: "Antiga",
        value: 79.9,
        dueDate: "2020-01-01",
        now: t.clock.now().toISOString(),
      });

      await loginAs(page, c.admin, { expectPath: "/" });
      await page.goto(`${url}/financeiro`);
      await page.getByRole("heading", { name: "Faturas" }).waitFor();
      const overdue = page.getByTestId("invoice-row").filter({ hasText: "Antiga" });
      await overdue.getByText("Vencido").waitFor();
      assert.match(await overdue.getAttribute("class") ?? "", /invoice-overdue/);
      const row = page.getByTestId("invoice-row").filter({ hasText: "plan-Acme - MENSAL" });
      await row.getByText("R$ 79,90").waitFor();
      await row.getByText("01/12/2026").waitFor();

      await row.getByRole("button", { name: "PAGAR" }).click();
      // 'Dados', prefilled from the company; city is missing.
      await page.getByLabel("Nome completo").waitFor();
      assert.equal(await page.getByLabel("Nome completo").inputValue(), "Acme Ltda");
      assert.equal(await page.getByLabel("CEP").inputValue(), "11000-000");
      await page.getByRole("button", { name: "Próximo" }).click();
      await page.getByText("Cidade é obrigatória").waitFor();
      await page.getByLabel("Cidade").fill("Santos");
      await page.getByLabel("CPF/CNPJ").fill("123.456.789-09");
      await page.getByRole("button", { name: "Próximo" }).click();
      // 'Personalizar': the plan's card.
      const plan = page.getByTestId("checkout-plan");
      await plan.getByText("R$ 79,90 / mês").waitFor();
      await plan.getByRole("button", { name: "SELECIONAR" }).click();
      // 'Revisar', then PAGAR.
      await page.getByText("Resumo da assinatura").waitFor();
      await page.getByRole("dialog").getByRole("button", { name: "PAGAR" }).click();
      await toastWith(
        page,
        "Assinatura realizada com sucesso!, aguardando a realização do pagamento",
      )
        .waitFor();
      const pix = page.getByTestId("pix-screen");
      await pix.getByText("Total: R$ 79,90").waitFor();
      await pix.getByRole("img", { name: "QR Code Pix" }).waitFor();
      await pix.getByText(
        "Para finalizar, basta realizar o pagamento escaneando ou colando o código Pix acima",
      ).waitFor();
      await pix.getByRole("button", { name: "Copiar código" }).click();
      await pix.getByRole("button", { name: "Copiado" }).waitFor();
      await pix.getByRole("button", { name: "Copiar código" }).waitFor();

      // The Pix is paid: Asaas settles the charge and calls the webhook.
      const invoice = await t.deps.db.selectFrom("invoices").selectAll()
        .where("companyId", "=", c.id).where("dueDate", "=", "2026-12-01")
        .executeTakeFirstOrThrow();
      assert.ok(invoice.chargeId);
      const res = await t.request("POST", "/api/billing/asaas/webhook", {
        body: fake.receive(invoice.chargeId!),
        headers: { "asaas-access-token": TOKEN },
      });
      assert.deepEqual(await res.json(), { received: true, outcome: "paid" });
      await page.getByText("Sua licença foi renovada até 01/01/2027!").waitFor();
      await page.waitForURL(`${url}/`);
      const company = await t.deps.db.selectFrom("companies").select("dueDate")
        .where("id", "=", c.id).executeTakeFirstOrThrow();
      assert.equal(company.dueDate, "2027-01-01");

      // /subscription: the new expiration (a paid invoice ended the trial: the subscription's
      // due date, issue 50 item 2), the billing e-mail, the days left; subscribing opens the
      // checkout of the oldest unpaid invoice ('Antiga').
      await page.goto(`${url}/subscription`);
      const card = page.getByTestId("subscription");
      await card.waitFor();
      await card.getByLabel("Vencimento da assinatura")
        .and(page.locator('[value="01/01/2027"]')).waitFor();
      await card.getByLabel("E-mail de cobrança").and(page.locator('[value="Acme@example.test"]'))
        .waitFor();
      const now = new Date();
      const days = Math.round(
        (Date.UTC(2027, 0, 1) - Date.UTC(now.getFullYear(), now.getMonth(), now.getDate())) /
          86_400_000,
      );
      assert.equal(await card.getByLabel("Dias restantes").inputValue(), String(Math.max(days, 0)));
      await card.getByRole("button", { name: "Assine agora!" }).click();
      await page.getByRole("dialog").getByLabel("Nome completo").waitFor();
      assert.equal(await page.getByLabel("Nome completo").inputValue(), "Acme Ltda");
      assert.deepEqual(pageErrors, []);
    }, { env: asaasEnv(fake, TOKEN) });
  } finally {
    await fake.close();
  }
});
