import { createCompany } from "../helpers/app.ts";
import { type Page, withBrowser } from "../helpers/browser.ts";
import { publishReload } from "../../server/realtime/publish.ts";

function row(page: Page, testId: string, text: string) {
  return page.getByTestId(testId).filter({ hasText: text });
}

/**
 * The `sync` reload signal (issue 31): when events between processes may have been lost (Redis
 * restarted), the server tells every socket, and an open list reads itself again. A tag written
 * behind the page's back (no event: what a Redis outage loses) shows once the signal arrives.
 */
Deno.test("sync reload - an open list reads itself again on the server's reload signal", () =>
  withBrowser(async ({ t, page, url, loginAs }) => {
    const c = await createCompany(t, "Sync");
    await loginAs(page, c.admin, { expectPath: "/" });
    await page.goto(`${url}/tags`);
    await page.getByText("Nenhuma tag encontrada").waitFor();
    const now = new Date().toISOString();
    await t.deps.db.insertInto("tags")
      .values({ companyId: c.id, name: "Perdida no caminho", createdAt: now, updatedAt: now })
      .execute();
    publishReload(t.deps.hub);
    await row(page, "tag-row", "Perdida no caminho").waitFor();
  }));
