import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { toastWith, withBrowser } from "../helpers/browser.ts";
import { totpCode } from "../../server/auth/totp.ts";
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

// Issue 50 item 13: 'Confirmar' of the two-factor setup is whole at both sizes; the recovery
// codes can be copied and downloaded as a .txt.
Deno.test("security dialog - 'Confirmar' is whole at 1366 and 390 px; the recovery codes are copied and downloaded", () =>
  withBrowser(async ({ page, t, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Acme");
    await loginAs(page, c.admin);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: url });
    let secret = "";
    for (const size of [LAPTOP, PHONE]) {
      await page.setViewportSize(size);
      await page.getByTestId("account-menu").click();
      await page.getByRole("menuitem", { name: "Segurança" }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByTestId("two-factor-start").click();
      secret = (await dialog.getByTestId("two-factor-secret").textContent()) ?? "";
      const confirm = dialog.getByRole("button", { name: "Confirmar", exact: true });
      await confirm.waitFor();
      const [button, box] = [await confirm.boundingBox(), await dialog.boundingBox()];
      assert.ok(button && box);
      const whole = await confirm.evaluate((el) =>
        el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight
      );
      assert.ok(whole, `${size.width} px: the label fits its button`);
      assert.ok(
        button.x >= box.x && button.x + button.width <= box.x + box.width + 0.5 &&
          button.y >= box.y && button.y + button.height <= box.y + box.height + 0.5 &&
          button.y + button.height <= size.height && button.x + button.width <= size.width,
        `${size.width} px: ${JSON.stringify(button)} inside ${JSON.stringify(box)}`,
      );
      if (size === PHONE) break;
      await page.keyboard.press("Escape");
      await dialog.waitFor({ state: "detached" });
    }
    const dialog = page.getByRole("dialog");
    await dialog.getByTestId("two-factor-code").fill(totpCode(secret, t.clock.now()));
    await dialog.getByRole("button", { name: "Confirmar", exact: true }).click();
    const list = dialog.getByTestId("recovery-codes");
    await list.waitFor();
    const codes = (await list.locator("code").allTextContents()).map((s) => s.trim());
    assert.equal(codes.length, 10);
    await dialog.getByRole("button", { name: "Copiar códigos" }).click();
    await toastWith(page, "Códigos copiados.").waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.deepEqual(copied.trim().split("\n").slice(-10), codes);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      dialog.getByRole("button", { name: "Baixar .txt" }).click(),
    ]);
    assert.equal(download.suggestedFilename(), "balcao-codigos-de-recuperacao.txt");
    const text = await Deno.readTextFile((await download.path())!);
    for (const code of codes) assert.ok(text.includes(code), `${code} in the file`);
    assert.deepEqual(pageErrors, []);
  }));
