import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { withBrowser } from "../helpers/browser.ts";
import { auditPages, menuPages } from "../helpers/page_audit.ts";

/**
 * Issue 25 items 1 and 2, as a company's admin, the administration group of the menu: no
 * serious or critical axe finding and no horizontal scroll, at 1366 and 390 px.
 */
Deno.test("every page - a company admin's administration pages: no serious axe finding, no horizontal scroll at 1366 and 390 px", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Alpha");
    await loginAs(page, c.admin);
    const pages = await menuPages(page, ["administration"]);
    assert.ok(pages.includes("/users") && pages.includes("/settings"), pages.join(" "));
    assert.deepEqual(await auditPages(page, url, pages, "admin"), []);
    assert.deepEqual(pageErrors, []);
  }));
