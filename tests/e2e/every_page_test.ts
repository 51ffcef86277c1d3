import assert from "node:assert/strict";
import { ADMIN_EMAIL, ADMIN_PASSWORD, login } from "../helpers/app.ts";
import { withBrowser } from "../helpers/browser.ts";
import { auditPages, menuPages } from "../helpers/page_audit.ts";

/**
 * Issue 25 items 1 and 2, as the super user and signed out: every page of the menu, and the
 * public pages, have no serious or critical axe finding and no horizontal scroll, at 1366 and 390
 * px. /api-docs is left out: it is the third-party Swagger UI (its own colours and layout, not the
 * shell's), served as the vendor ships it.
 */
Deno.test("every page - the super user's menu and the public pages: no serious axe finding, no horizontal scroll at 1366 and 390 px", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    // An unread announcement: the 'Informativos' bell shows its count beside its name.
    const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
    const res = await t.request("POST", "/api/announcements", {
      token: root.token,
      body: { title: "Manutenção", text: "Domingo às 22h", priority: 1, status: true },
    });
    assert.equal(res.status, 201);

    const problems = await auditPages(
      page,
      url,
      ["/login", "/signup", "/resetpassword"],
      "visitor",
    );
    await loginAs(page, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    await page.getByTestId("bell-announcements").getByText("1").waitFor();
    const pages = await menuPages(page);
    assert.ok(pages.includes("/announcements") && pages.includes("/campaigns"), pages.join(" "));
    problems.push(...await auditPages(page, url, pages, "super user"));
    assert.deepEqual(problems, []);
    assert.deepEqual(pageErrors, []);
  }));
