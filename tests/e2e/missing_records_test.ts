import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { seenToasts, withBrowser } from "../helpers/browser.ts";

/**
 * Issue 24 item 4: a page that opens a record by the id of its URL says once, in one shared part
 * (RecordMissing), that it does not exist (another company's answers the same), offers the way
 * back, shows no toast and none of the record's actions.
 */
Deno.test("missing records - campaign report, contact-list contacts and a chat of a missing or foreign id: one message and a way back", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const acme = await createCompany(t, "Acme");
    const other = await createCompany(t, "Other");
    const theirList = await t.request("POST", "/api/contact-lists", {
      token: other.admin.token,
      body: { name: "Deles" },
    });
    assert.equal(theirList.status, 201, await theirList.clone().text());
    const theirCampaign = await t.request("POST", "/api/campaigns", {
      token: other.admin.token,
      body: { name: "Deles" },
    });
    assert.ok(theirCampaign.status < 300, await theirCampaign.clone().text());
    const listId = (await theirList.json()).id as number;
    const campaignId = (await theirCampaign.json()).id as number;

    await loginAs(page, acme.admin, { expectPath: "/" });
    const cases: [string, string, string][] = [
      ["/campaign/999/report", "Voltar às campanhas", "/campaigns"],
      [`/campaign/${campaignId}/report`, "Voltar às campanhas", "/campaigns"],
      ["/contact-lists/999/contacts", "Voltar", "/contact-lists"],
      [`/contact-lists/${listId}/contacts`, "Voltar", "/contact-lists"],
      ["/chats/00000000-0000-4000-8000-000000000000", "Voltar às conversas", "/chats"],
    ];
    for (const [path, back, backPath] of cases) {
      await page.evaluate(() => sessionStorage.removeItem("__seenToasts"));
      await page.goto(`${url}${path}`);
      const missing = page.getByTestId("record-missing");
      await missing.getByText("Este registro não existe ou não pertence à sua empresa.").waitFor();
      assert.equal(await page.getByTestId("record-missing").count(), 1, path);
      // No toast at all, and none of the record's actions.
      assert.deepEqual(await seenToasts(page), [], path);
      for (const action of ["Importar", "Adicionar contato"]) {
        assert.equal(await page.getByRole("button", { name: action }).count(), 0, path);
      }
      await missing.getByRole("link", { name: back }).click();
      await page.waitForURL(`${url}${backPath}`);
    }
    assert.deepEqual(pageErrors, []);
  }));
