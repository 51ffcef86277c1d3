import assert from "node:assert/strict";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "../helpers/app.ts";
import { withBrowser } from "../helpers/browser.ts";
import { announce, auditPages, menuPages } from "../helpers/page_audit.ts";

/**
 * Issue 25 items 1 and 2, the super user's administration group (campaigns, announcements,
 * the platform's tabs of /settings, every company's invoices): no serious or critical axe
 * finding and no horizontal scroll, at 1366 and 390 px.
 */
Deno.test("every page - the super user's administration pages: no serious axe finding, no horizontal scroll at 1366 and 390 px", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    await announce(t);
    await loginAs(page, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    await page.getByTestId("bell-announcements").getByText("1").waitFor();
    const pages = await menuPages(page, ["administration"]);
    assert.ok(pages.includes("/announcements") && pages.includes("/campaigns"), pages.join(" "));
    assert.deepEqual(await auditPages(page, url, pages, "super user"), []);
    assert.deepEqual(pageErrors, []);
  }));
