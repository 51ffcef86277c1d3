import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { type Page, toastWith, withBrowser } from "../helpers/browser.ts";
import { LAPTOP, PHONE } from "../helpers/page_audit.ts";

type Box = { x: number; y: number; width: number; height: number };

function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

async function boxOf(page: Page, testId: string): Promise<Box> {
  const box = await page.getByTestId(testId).boundingBox();
  assert.ok(box, testId);
  return box;
}

// Issue 50 item 16: on the connection dialog's 'Mensagens' tab the footer is whole, and an error
// toast does not cover its 'Adicionar'.
Deno.test("connection dialog - the 'Mensagens' tab's footer in the window and uncovered by an error toast, at 1366 and 390 px", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Delta");
    for (const [name, color] of [["Vendas", "#0EA5E9"], ["Suporte", "#16A34A"]]) {
      const res = await t.request("POST", "/api/queue", {
        token: c.admin.token,
        body: { name, color },
      });
      assert.equal(res.status, 201, await res.clone().text());
    }
    await loginAs(page, c.admin, { expectPath: "/" });
    for (const size of [LAPTOP, PHONE]) {
      await page.setViewportSize(size);
      await page.goto(`${url}/connections`);
      await page.getByTestId("add-connection").click();
      const form = page.getByTestId("connection-form");
      await form.locator("input[name=name]").fill(`Loja ${size.width}`);
      await form.locator("[data-field=provider] button").click();
      await page.getByRole("option", { name: "Simulador (demonstração)" }).click();
      await form.locator("[data-field=queues] button").click();
      await page.getByRole("menuitemcheckbox", { name: "Vendas" }).click();
      await page.getByRole("menuitemcheckbox", { name: "Suporte" }).click();
      await page.keyboard.press("Escape");
      await form.getByRole("tab", { name: "Mensagens" }).click();
      await form.locator("textarea[name=greetingMessage]").waitFor();

      const save = await boxOf(page, "connection-save");
      const dialog = await page.getByRole("dialog").boundingBox();
      assert.ok(dialog);
      assert.ok(
        save.y >= dialog.y && save.y + save.height <= dialog.y + dialog.height + 0.5 &&
          save.y + save.height <= size.height,
        `${size.width} px: 'Adicionar' ${JSON.stringify(save)} in the dialog ${
          JSON.stringify(dialog)
        } and the window`,
      );
      // Two queues without a greeting: the server refuses, told in a toast.
      await page.getByTestId("connection-save").click();
      const toast = toastWith(page, "A mensagem de saudação é obrigatória");
      await toast.waitFor();
      const covering = await toast.boundingBox();
      assert.ok(covering);
      assert.ok(
        !overlap(covering, await boxOf(page, "connection-save")),
        `${size.width} px: the toast ${JSON.stringify(covering)} covers 'Adicionar'`,
      );
      // Nor any other of the dialog's buttons: on a phone the toast at the top hid its close
      // button and title, the dialog now makes room below it.
      const controls = page.getByRole("dialog").locator(
        ".dialog-header button, [role=tab], .dialog-footer button",
      );
      for (const control of await controls.all()) {
        const box = await control.boundingBox();
        assert.ok(box);
        assert.ok(
          !overlap(covering, box),
          `${size.width} px: the toast ${JSON.stringify(covering)} covers '${
            (await control.getAttribute("aria-label")) ?? await control.innerText()
          }' ${JSON.stringify(box)}`,
        );
      }
      await page.keyboard.press("Escape");
    }
    assert.deepEqual(pageErrors, []);
  }));
