import assert from "node:assert/strict";
import { Buffer } from "node:buffer";
import { createCompany } from "../helpers/app.ts";
import { toastShown, toastWith, withBrowser } from "../helpers/browser.ts";
import { connectSimulator } from "../whatsapp/helpers.ts";
import { JOBS, startJobs } from "../../jobs/registry.ts";
import { numbers, xlsxFile } from "../campaigns/helpers.ts";
import { startFakeGraph } from "../fakes/graph.ts";
import { cloudBody, ORDER_READY } from "../whatsapp/cloud_helpers.ts";

Deno.test("campaigns - import a spreadsheet, run a campaign with intervals 0, watch the report reach 100 %; on a Cloud API number the form picks a template", async () => {
  // The Cloud API number of the template campaign (issue 45), on a fake Graph API.
  const graph = startFakeGraph();
  graph.templates.push(ORDER_READY);
  try {
    await withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
      const c = await createCompany(t, "Acme");
      const wid = await connectSimulator(t, c, { name: "Loja" });
      t.deps.simulator.ackDelayMs = 5;
      // Set up before the browser signs in (its login replaces this session's token).
      const cloud = await t.request("POST", "/api/whatsapp", {
        token: c.admin.token,
        body: cloudBody(graph, "Oficial"),
      });
      assert.equal(cloud.status, 201);
      const cloudId = (await cloud.json()).id;
      const synced = await t.request("POST", `/api/whatsapp/${cloudId}/templates/sync`, {
        token: c.admin.token,
      });
      assert.equal(synced.status, 200);
      const stopJob = startJobs(t.deps, JOBS.filter((job) => job.name === "campaigns"));
      try {
        await loginAs(page, c.admin, { expectPath: "/" });
        // The company has campaignsEnabled: the session stores cshow and the menu shows campaigns.
        await page.locator('aside [data-menu="campaigns"]').waitFor();

        // Settings: intervals 0 (seeds/002 section 9 options), 'Configurações salvas'.
        await page.goto(`${url}/campaigns-config`);
        for (
          const [label, option] of [
            ["Intervalo entre mensagens", "Sem intervalo"],
            ["Intervalo maior após", "Não definido"],
            ["Intervalo maior", "Sem intervalo"],
          ]
        ) {
          await page.getByRole("combobox", { name: label, exact: true }).click();
          await page.getByRole("option", { name: option, exact: true }).click();
        }
        await page.getByTestId("campaign-settings-save").click();
        await toastWith(page, "Configurações salvas").waitFor();

        // A contact list, and its items from a spreadsheet; one number is not on WhatsApp.
        await page.goto(`${url}/contact-lists`);
        await page.getByRole("button", { name: "Nova lista" }).click();
        const dialog = page.getByRole("dialog");
        await dialog.locator("input[name=name]").fill("Clientes");
        await dialog.getByRole("button", { name: "Salvar" }).click();
        const listRow = page.getByTestId("contact-list-row").filter({ hasText: "Clientes" });
        await listRow.getByRole("button", { name: "Contatos" }).click();
        await page.waitForURL(/\/contact-lists\/\d+\/contacts$/);
        await page.getByTestId("contact-list-name").filter({ hasText: "Clientes" }).waitFor();
        const good = numbers(3, 900);
        const file = await xlsxFile([
          ["nome", "numero", "email"],
          ["Ana", good[0], ""],
          ["Bia", good[1], ""],
          ["Caio", good[2], ""],
          ["Sem Zap", "5511987650404", ""],
        ]);
        await page.getByRole("button", { name: "Importar" }).click();
        await dialog.locator("input[type=file]").setInputFiles({
          name: "clientes.xlsx",
          mimeType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
          buffer: Buffer.from(await file.arrayBuffer()),
        });
        await dialog.getByRole("button", { name: "Importar" }).click();
        await page.getByTestId("import-report").waitFor();
        assert.match(await page.getByTestId("import-created").innerText(), /^4 /);
        await dialog.getByRole("button", { name: "Fechar" }).last().click();
        // The background check reaches the page live: three valid, one invalid.
        const items = page.getByTestId("contact-list-item");
        await page.locator('[data-testid=contact-list-item][data-valid="false"]').waitFor();
        await page.locator('[data-testid=contact-list-item][data-valid="true"]').nth(2).waitFor();
        assert.equal(await items.count(), 4);

        // A campaign scheduled in the past starts at the next tick.
        await page.goto(`${url}/campaigns`);
        await page.getByRole("button", { name: "Nova campanha" }).click();
        await dialog.locator("input[name=name]").fill("Black Friday");
        await dialog.getByRole("combobox", { name: "Conexão" }).click();
        await page.getByRole("option", { name: "Loja" }).click();
        await dialog.getByRole("combobox", { name: "Lista de contatos" }).click();
        await page.getByRole("option", { name: "Clientes" }).click();
        await dialog.locator("input[name=scheduledAt]").fill("2020-01-01T10:00");
        await dialog.locator("textarea[name=message1]").fill("Olá {nome}, ofertas hoje!");
        await dialog.getByRole("button", { name: "Salvar" }).click();
        const campaignRow = page.getByTestId("campaign-row").filter({ hasText: "Black Friday" });
        await campaignRow.waitFor();
        await campaignRow.getByRole("button", { name: "Relatório" }).click();
        await page.waitForURL(/\/campaign\/\d+\/report$/);
        await page.getByTestId("report-status").filter({ hasText: "Finalizada" }).waitFor();
        assert.equal(await page.getByTestId("report-percent").innerText(), "100%");
        assert.match(await page.getByTestId("report-validContacts").innerText(), /3$/);
        assert.match(await page.getByTestId("report-delivered").innerText(), /3$/);
        const sent = await t.deps.db.selectFrom("simulator_sent").select(["toJid", "body"])
          .where("whatsappId", "=", wid).orderBy("id").execute();
        assert.deepEqual(sent.map((s) => s.body), [
          "Olá Ana, ofertas hoje!",
          "Olá Bia, ofertas hoje!",
          "Olá Caio, ofertas hoje!",
        ]);
        // On a Cloud API number the campaign is a template: the form picks one and maps its
        // variables (the first starts as the recipient's name); no free-form message to write.
        await page.goto(`${url}/campaigns`);
        await page.getByRole("button", { name: "Nova campanha" }).click();
        await dialog.locator("input[name=name]").fill("Pedidos prontos");
        await dialog.getByRole("combobox", { name: "Conexão" }).click();
        await page.getByRole("option", { name: "Oficial" }).click();
        await dialog.getByRole("combobox", { name: "Lista de contatos" }).click();
        await page.getByRole("option", { name: "Clientes" }).click();
        await dialog.locator("input[name=scheduledAt]").fill("2099-01-01T10:00");
        await dialog.locator("[data-field=template] button").click();
        await page.getByRole("option", { name: "pedido_pronto (pt_BR)" }).click();
        assert.equal(await dialog.locator("input[name=variable-1]").inputValue(), "{nome}");
        await dialog.locator("input[name=variable-2]").fill("42");
        await dialog.getByTestId("template-preview")
          .filter({ hasText: "Olá {nome}, seu pedido 42 está pronto." }).waitFor();
        assert.equal(await dialog.locator("textarea[name=message1]").count(), 0);
        await dialog.getByRole("button", { name: "Salvar" }).click();
        await page.getByTestId("campaign-row").filter({ hasText: "Pedidos prontos" }).waitFor();
        const saved = await t.deps.db.selectFrom("campaigns").select(["template", "whatsappId"])
          .where("name", "=", "Pedidos prontos").executeTakeFirstOrThrow();
        assert.equal(saved.whatsappId, cloudId);
        assert.deepEqual(JSON.parse(saved.template!), {
          name: "pedido_pronto",
          language: "pt_BR",
          parameters: ["{nome}", "42"],
        });

        // A plain user of the same company: no campaign pages (the API would answer 403 too).
        await page.evaluate(() => localStorage.clear());
        await loginAs(page, c.user, { expectPath: "/tickets" });
        // The menu's rule: sent to /tickets before the page paints (issue 24 item 9).
        await page.goto(`${url}/campaigns`);
        await page.waitForURL(`${url}/tickets`);
        await toastShown(page, "Acesso não permitido");
        assert.deepEqual(pageErrors, []);
      } finally {
        await stopJob();
      }
    }, { env: { WHATSAPP_CLOUD_API_URL: graph.apiUrl } });
  } finally {
    await graph.close();
  }
});
