import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { type Page, toastWith, withBrowser } from "../helpers/browser.ts";

/** The row of a list whose text contains `text`. */
function row(page: Page, testId: string, text: string) {
  return page.getByTestId(testId).filter({ hasText: text });
}

// One browser and one company for the three list pages of issue 10 (tags, quick messages,
// schedules): each part starts on its own page and waits for what the user sees.
Deno.test("attendance tools - tags, quick messages and schedules pages", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Acme");
    await loginAs(page, c.admin, { expectPath: "/" });

    // /tags: the dialog's rules, a kanban tag saved, its chip in the list, search, delete.
    await page.goto(`${url}/tags`);
    await page.getByText("Nenhuma tag encontrada").waitFor();
    await page.getByRole("button", { name: "Nova tag" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByTestId("tag-submit").click();
    await dialog.getByText("Obrigatório").waitFor();
    await dialog.locator("input[name=name]").fill("Ab");
    await dialog.getByTestId("tag-submit").click();
    await dialog.getByText("Mensagem muito curta").waitFor();
    await dialog.locator("input[name=name]").fill("Em negociação");
    await dialog.locator("input[name=color]").fill("#2196f3");
    await dialog.getByTestId("tag-kanban").check();
    await dialog.getByTestId("tag-submit").click();
    await toastWith(page, "Tag salva com sucesso!").waitFor();
    await row(page, "tag-row", "Em negociação").waitFor();
    const tag = await t.deps.db.selectFrom("tags").selectAll().where("companyId", "=", c.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual([tag.name, tag.color, tag.kanban], ["Em negociação", "#2196f3", 1]);
    // Another tag arrives live (created by someone else through the API).
    await t.request("POST", "/api/tags", { token: c.user.token, body: { name: "Retornar" } });
    await row(page, "tag-row", "Retornar").waitFor();
    await page.getByTestId("tags-search").fill("neg");
    await row(page, "tag-row", "Retornar").waitFor({ state: "detached" });
    await row(page, "tag-row", "Em negociação").getByRole("button", { name: "Excluir" }).click();
    await page.getByRole("alertdialog").getByRole("button", { name: "Excluir" }).click();
    await toastWith(page, "Tag excluída com sucesso!").waitFor();
    await row(page, "tag-row", "Em negociação").waitFor({ state: "detached" });

    assert.deepEqual(pageErrors, []);
  }));
