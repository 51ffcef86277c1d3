import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { withBrowser } from "../helpers/browser.ts";
import { auditPages, menuPages } from "../helpers/page_audit.ts";

/**
 * Issue 25 items 1, 2 and 5, as a plain user: every page of the menu has no serious or critical
 * axe finding and no horizontal scroll, at 1366 and 390 px; /todo (a common guess) is /todolist.
 */
Deno.test("every page - a plain user's menu: no serious axe finding, no horizontal scroll at 1366 and 390 px; /todo goes to /todolist", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Alpha");
    await loginAs(page, c.user);
    const pages = await menuPages(page, ["service", "management", "administration"]);
    assert.ok(pages.includes("/tickets") && !pages.includes("/users"), pages.join(" "));
    assert.deepEqual(await auditPages(page, url, pages, "user"), []);

    await page.goto(`${url}/todo`);
    await page.waitForURL(`${url}/todolist`);
    await page.getByRole("heading", { level: 1, name: "Tarefas" }).waitFor();
    assert.deepEqual(pageErrors, []);
  }));
