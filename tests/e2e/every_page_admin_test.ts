import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { withBrowser } from "../helpers/browser.ts";
import { auditPages, menuPages } from "../helpers/page_audit.ts";

/**
 * Issue 25 items 1 and 2, as a company's admin, the service and management groups of the menu
 * (the administration group in every_page_admin_settings_test.ts): no serious or critical axe
 * finding and no horizontal scroll, at 1366 and 390 px.
 */
Deno.test("every page - a company admin's service pages: no serious axe finding, no horizontal scroll at 1366 and 390 px", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Alpha");
    await loginAs(page, c.admin);
    const pages = await menuPages(page, ["service", "management"]);
    assert.ok(pages.includes("/tickets") && pages.includes("/"), pages.join(" "));
    assert.deepEqual(await auditPages(page, url, pages, "admin"), []);
    assert.deepEqual(pageErrors, []);
  }));
