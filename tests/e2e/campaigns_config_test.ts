import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { toastWith, withBrowser } from "../helpers/browser.ts";
import { connectSimulator } from "../whatsapp/helpers.ts";
import { numbers } from "../campaigns/helpers.ts";

/** A contact list of one valid number, through the API (imports have their own tests). */
async function oneContactList(
  t: Parameters<Parameters<typeof withBrowser>[0]>[0]["t"],
  token: string,
) {
  const list = await (await t.request("POST", "/api/contact-lists", {
    token,
    body: { name: "VIP" },
  })).json();
  const item = await t.request("POST", "/api/contact-list-items", {
    token,
    body: { contactListId: list.id, name: "Joana Lima", number: numbers(1, 800)[0] },
  });
  assert.equal(item.status, 201, await item.clone().text());
}

// issue 24 item 3: the campaign settings' traps.
Deno.test("campaigns config - a variable is saved as it is added; intervals in reach and in the singular; an unknown variable refused by name", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Acme");
    await connectSimulator(t, c, { name: "Loja" });
    await oneContactList(t, c.admin.token);
    await loginAs(page, c.admin, { expectPath: "/" });

    await page.goto(`${url}/campaigns-config`);
    // Added without 'Salvar' it is stored: after a reload it is still there.
    await page.getByLabel("Atalho").fill("cupom");
    await page.getByLabel("Conteúdo").fill("BLACK10");
    await page.getByRole("button", { name: "Adicionar variável" }).click();
    await toastWith(page, "Variável {cupom} salva.").waitFor();
    await page.reload();
    await page.getByTestId("campaign-variables").getByText("{cupom}").waitFor();
    const stored = await t.deps.db.selectFrom("campaign_settings").select("value")
      .where("companyId", "=", c.id).where("key", "=", "variables").executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(stored.value), [{ key: "cupom", value: "BLACK10" }]);

    // The longest dropdown stays inside the window; '1 segundo', '1 mensagem'.
    const viewport = page.viewportSize()!;
    await page.getByRole("combobox", { name: "Intervalo maior", exact: true }).click();
    const list = page.getByRole("listbox");
    await list.waitFor();
    const box = (await list.boundingBox())!;
    assert.ok(box.y >= 0 && box.y + box.height <= viewport.height, JSON.stringify(box));
    await page.getByRole("option", { name: "1 segundo", exact: true }).waitFor();
    await page.getByRole("option", { name: "120 segundos", exact: true }).click();
    await page.getByRole("combobox", { name: "Intervalo maior após", exact: true }).click();
    await page.getByRole("option", { name: "1 mensagem", exact: true }).click();
    // Intervals wait for 'Salvar', and say so until then.
    const unsaved = page.getByText("Há alterações não salvas nos intervalos. Clique em Salvar.");
    await unsaved.waitFor();
    await page.getByTestId("campaign-settings-save").click();
    await toastWith(page, "Configurações salvas").waitFor();
    await unsaved.waitFor({ state: "detached" });

    // A campaign whose message uses a variable that does not exist is not scheduled.
    await page.goto(`${url}/campaigns`);
    await page.getByRole("button", { name: "Nova campanha" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByTestId("variable-list").getByText("{cupom}").waitFor();
    await dialog.getByLabel("Nome", { exact: true }).fill("Black Friday");
    await dialog.getByRole("combobox", { name: "Conexão" }).click();
    await page.getByRole("option", { name: "Loja" }).click();
    await dialog.getByRole("combobox", { name: "Lista de contatos" }).click();
    await page.getByRole("option", { name: "VIP" }).click();
    await dialog.getByLabel("Agendamento").fill("2030-01-10T10:00");
    await dialog.locator("textarea[name=message1]").fill("Olá {nome}, use {cupom} ou {desconto}!");
    await dialog.getByRole("button", { name: "Salvar" }).click();
    await toastWith(page, /A mensagem usa a variável \{desconto\}, que não existe/).waitFor();
    const campaigns = await t.deps.db.selectFrom("campaigns").select("id")
      .where("companyId", "=", c.id).execute();
    assert.equal(campaigns.length, 0);
    assert.deepEqual(pageErrors, []);
  }, { viewport: { width: 1366, height: 600 } }));
