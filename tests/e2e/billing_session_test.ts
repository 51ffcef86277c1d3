import assert from "node:assert/strict";
import { createCompany, type TestApp } from "../helpers/app.ts";
import { toastWith, withBrowser } from "../helpers/browser.ts";
import { asaasEnv, startFakeAsaas } from "../fakes/asaas.ts";
import { createDueInvoices } from "../../server/billing/service.ts";
import { dueDateTick } from "../../server/companies/due_dates.ts";

const TOKEN = "whsec-asaas-e2e-token-0123456789abcdef";

/** A second plan, 'Pro', for the admin to change to. */
async function addPro(t: TestApp, valueCents: number) {
  const stamp = t.clock.now().toISOString();
  await t.deps.db.insertInto("plans").values({
    name: "Pro",
    users: 10,
    connections: 10,
    queues: 10,
    campaigns: 0,
    schedules: 0,
    valueCents,
    createdAt: stamp,
    updatedAt: stamp,
  }).execute();
}

Deno.test("billing session - a company past due and grace logs in, lands on /financeiro, pays, and reaches /tickets without a new login", async () => {
  const fake = startFakeAsaas();
  try {
    await withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
      const c = await createCompany(t, "Late", { dueDate: "2026-12-20", plan: { value: 79.9 } });
      await t.deps.db.updateTable("companies").set({
        dueDate: "2026-11-10",
        billingName: "Late Ltda",
        addressZipCode: "11000-000",
        addressStreet: "Rua A, 10",
        addressState: "SP",
        addressCity: "Santos",
      }).where("id", "=", c.id).execute();
      await addPro(t, 4990);
      await createDueInvoices(t.deps);
      // 12 days late, 7 of grace: the due-date job switches it off.
      assert.deepEqual((await dueDateTick(t.deps)).blocked, [c.id]);

      await loginAs(page, c.admin, { expectPath: "/financeiro" });
      await page.getByTestId("billing-only").getByText(
        "Seu período de teste terminou em 10/11/2026",
      )
        .waitFor();
      // Any other page leads back to /financeiro.
      await page.goto(`${url}/tickets`);
      await page.waitForURL(`${url}/financeiro`);
      const row = page.getByTestId("invoice-row").filter({ hasText: "plan-Late - MENSAL" });
      await row.getByRole("button", { name: "PAGAR" }).click();
      await page.getByLabel("CPF/CNPJ").fill("123.456.789-09");
      await page.getByRole("button", { name: "Próximo" }).click();
      // Issue 50 item 2: while late, 'Personalizar' offers the other plans too; the confirmation
      // says what the open invoice becomes (the period in full: no paid days to deduct).
      const wizard = page.getByRole("dialog", { name: "Assinatura" });
      await wizard.getByRole("combobox", { name: "Trocar de plano" }).click();
      await page.getByRole("option", { name: /^Pro/ }).click();
      await wizard.getByRole("button", { name: "Trocar plano" }).click();
      const confirm = page.getByRole("alertdialog");
      await confirm.getByText(/A fatura em aberto, vencida em 10\/11\/2026, passa a R\$\s49,90/)
        .waitFor();
      await confirm.getByRole("button", { name: "Trocar plano" }).click();
      const card = page.getByTestId("checkout-plan");
      await card.getByRole("heading", { name: "Pro" }).waitFor();
      // The chooser is ready for another change: it reads its placeholder, not a blank.
      await wizard.getByRole("combobox", { name: "Trocar de plano" })
        .getByText("Trocar de plano", { exact: true }).waitFor();
      await card.getByRole("button", { name: "SELECIONAR" }).click();
      await page.locator(".checkout-summary").getByText(/^R\$\s49,90$/).first().waitFor();
      await page.getByRole("dialog").getByRole("button", { name: "PAGAR" }).click();
      await page.getByTestId("pix-screen").getByRole("img", { name: "QR Code Pix" }).waitFor();

      // The Pix is paid: the provider calls the webhook; the page follows without a login.
      const invoice = await t.deps.db.selectFrom("invoices").selectAll()
        .where("companyId", "=", c.id).where("status", "=", "open").executeTakeFirstOrThrow();
      const res = await t.request("POST", "/api/billing/asaas/webhook", {
        body: fake.receive(invoice.chargeId!),
        headers: { "asaas-access-token": TOKEN },
      });
      assert.deepEqual(await res.json(), { received: true, outcome: "paid" });
      await toastWith(page, "Pagamento confirmado. Bem-vindo de volta!").waitFor();
      await page.getByTestId("billing-only").waitFor({ state: "detached" });
      await page.goto(`${url}/tickets`);
      await page.waitForURL(`${url}/tickets`);
      await page.getByRole("heading", { name: "Atendimentos" }).waitFor();
      assert.deepEqual(pageErrors, []);
    }, { env: asaasEnv(fake, TOKEN) });
  } finally {
    await fake.close();
  }
});

Deno.test("financeiro - the admin changes plan: confirmed, the next invoice carries the difference at once", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Acme", { dueDate: "2026-12-07" });
    await t.deps.db.updateTable("companies").set({
      billingName: "Acme Ltda",
      addressZipCode: "11000-000",
      addressStreet: "Rua A, 10",
      addressState: "SP",
      addressCity: "Santos",
    }).where("id", "=", c.id).execute();
    await addPro(t, 15900);
    await loginAs(page, c.admin, { expectPath: "/" });
    await page.goto(`${url}/financeiro`);
    const bar = page.getByTestId("plan-change");
    await bar.getByRole("combobox", { name: "Trocar de plano" }).click();
    await page.getByRole("option", { name: /^Pro/ }).click();
    await bar.getByRole("button", { name: "Trocar plano" }).click();
    // Issue 50 item 12: the confirmation says the amount (99 -> 159, 15 of 30 days left).
    const confirm = page.getByRole("alertdialog");
    await confirm.getByText(/A fatura de 07\/12\/2026 passa a R\$\s189,00\./).waitFor();
    await confirm.getByText(/Na próxima fatura: \+R\$\s30,00 pelos dias que restam/).waitFor();
    await confirm.getByText(/depois, R\$\s159,00 por mês/).waitFor();
    await confirm.getByRole("button", { name: "Trocar plano" }).click();
    await toastWith(page, "Plano alterado para Pro.").waitFor();
    // 99 paid until 2026-12-07; the test clock's day to then, at the difference, on the invoice.
    const row = page.getByTestId("invoice-row").filter({ hasText: "Pro - MENSAL" });
    await row.getByText("troca de plano").waitFor();
    // The checkout's review has a line for it, and says 'Conexões' as the app does.
    await row.getByRole("button", { name: "PAGAR" }).click();
    await page.getByRole("button", { name: "Próximo" }).click();
    await page.getByTestId("checkout-plan").getByRole("button", { name: "SELECIONAR" }).click();
    const summary = page.locator(".checkout-summary");
    await summary.getByText("Troca de plano").waitFor();
    await summary.getByTestId("checkout-adjustment").getByText(/^\+R\$\s30,00$/).waitFor();
    await summary.getByText("Conexões").waitFor();
    assert.equal(await summary.getByText("Whatsapps").count(), 0);
    const company = await t.deps.db.selectFrom("companies").select("planId")
      .where("id", "=", c.id).executeTakeFirstOrThrow();
    const plan = await t.deps.db.selectFrom("plans").select("name")
      .where("id", "=", company.planId!).executeTakeFirstOrThrow();
    assert.equal(plan.name, "Pro");
    assert.deepEqual(pageErrors, []);
  }));
