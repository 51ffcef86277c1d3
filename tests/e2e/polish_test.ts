import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { withBrowser } from "../helpers/browser.ts";
import { connectSimulator } from "../whatsapp/helpers.ts";

// issue 24 item 10: what a new user met raw or unexplained.
Deno.test("polish - statuses translated, WhatsApp markup on the phone, a way back from /api-docs, empty states that say what to do, styled file pickers", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Acme");
    const whatsappId = await connectSimulator(t, c, { name: "Loja" });
    const list = await (await t.request("POST", "/api/contact-lists", {
      token: c.admin.token,
      body: { name: "Clientes" },
    })).json();
    await loginAs(page, c.admin, { expectPath: "/" });

    // /messages-api: the connection's status in words, not "CONNECTED".
    await page.goto(`${url}/messages-api`);
    const tokens = page.getByTestId("api-tokens");
    await tokens.getByText("Conectado", { exact: true }).waitFor();
    assert.equal(await tokens.getByText("CONNECTED").count(), 0);

    // /simulator: a signed message shows the name in bold, without the asterisks.
    await page.goto(`${url}/simulator`);
    await page.getByTestId("simulator-number").fill("5511988887777");
    await page.getByTestId("simulator-name").fill("Carlos Cliente");
    const provider = t.deps.sessions.connectedProvider(whatsappId);
    assert.ok(provider);
    await provider.sendText("5511988887777@s.whatsapp.net", "*Joana Lima:*\nOlá, _tudo bem_?");
    const answer = page.getByTestId("simulator-company-message").filter({ hasText: "Olá" });
    await answer.locator("strong", { hasText: "Joana Lima:" }).waitFor();
    await answer.locator("em", { hasText: "tudo bem" }).waitFor();
    assert.doesNotMatch(await answer.innerText(), /\*/);

    // /api-docs: operations grouped by resource, and a way back to the app.
    await page.goto(`${url}/api-docs`);
    await page.locator("#operations-tag-auth").waitFor();
    assert.equal(await page.locator("#operations-tag-default").count(), 0);
    await page.getByTestId("api-docs-back").click();
    await page.waitForURL(`${url}/`);

    // Empty lists say what to do; the kanban says where its lanes come from.
    await page.goto(`${url}/tags`);
    await page.getByTestId("tags-list-empty")
      .getByText("Com a opção Kanban ligada, ela vira uma coluna do Kanban.", { exact: false })
      .waitFor();
    await page.goto(`${url}/kanban`);
    const noLanes = page.getByTestId("kanban-no-lanes");
    await noLanes.getByText("As colunas do Kanban são as tags com a opção Kanban ligada.", {
      exact: false,
    }).waitFor();
    await noLanes.getByRole("link", { name: "Ir para Tags" }).waitFor();

    // A native file picker looks like the app's buttons.
    await page.goto(`${url}/contact-lists/${list.id}/contacts`);
    await page.getByRole("button", { name: "Importar" }).click();
    const picker = page.getByRole("dialog").locator("input[type=file]");
    await picker.waitFor({ state: "attached" });
    const radius = await picker.evaluate((el) =>
      getComputedStyle(el, "::file-selector-button").borderTopLeftRadius
    );
    assert.notEqual(radius, "0px");
    assert.deepEqual(pageErrors, []);
  }));
