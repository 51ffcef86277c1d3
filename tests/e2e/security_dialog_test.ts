import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { withBrowser } from "../helpers/browser.ts";
import { LAPTOP, PHONE } from "../helpers/page_audit.ts";

// Issue 50 item 13: 'Esta sessão' marks its own row of the security dialog, not the dialog's corner.
Deno.test("security dialog - 'Esta sessão' sits on the current session's row at 1366 and 390 px", () =>
  withBrowser(async ({ page, t, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Acme");
    await loginAs(page, c.admin);
    for (const size of [LAPTOP, PHONE]) {
      await page.setViewportSize(size);
      await page.getByTestId("account-menu").click();
      await page.getByRole("menuitem", { name: "Segurança" }).click();
      const dialog = page.getByRole("dialog");
      const row = dialog.getByTestId("session-row").filter({ hasText: "Esta sessão" });
      const badge = row.getByText("Esta sessão", { exact: true });
      await badge.waitFor();
      const [inner, outer] = [await badge.boundingBox(), await row.boundingBox()];
      assert.ok(inner && outer);
      assert.ok(
        inner.x >= outer.x && inner.x + inner.width <= outer.x + outer.width + 0.5 &&
          inner.y >= outer.y && inner.y + inner.height <= outer.y + outer.height + 0.5,
        `${size.width} px: ${JSON.stringify(inner)} inside ${JSON.stringify(outer)}`,
      );
      assert.ok(inner.x + inner.width <= size.width, `${size.width} px: inside the window`);
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
    }
    assert.deepEqual(pageErrors, []);
  }));
