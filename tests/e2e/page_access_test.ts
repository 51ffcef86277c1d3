import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { seenToasts, toastShown, withBrowser } from "../helpers/browser.ts";
import { slowScripts } from "../fakes/slow_network.ts";

/**
 * Issue 24 item 9: one rule (the menu's, PAGE_ACTIONS of contract/policy.ts) decides which pages
 * a role may open. A plain user sent to an admin page leaves it before its first paint (the head
 * script reads the stored roles), lands on /tickets told 'Acesso não permitido', and never sees
 * the page's admin actions.
 */

/** Records in the tab's sessionStorage each path the browser painted (Chromium's paint timing). */
const RECORD_PAINTS = `(() => {
  new PerformanceObserver((list) => {
    if (!list.getEntries().length) return;
    const seen = JSON.parse(sessionStorage.getItem("__painted") || "[]");
    seen.push(location.pathname);
    sessionStorage.setItem("__painted", JSON.stringify(seen));
  }).observe({ type: "paint", buffered: true });
  new MutationObserver(() => {
    if (location.pathname === "/tickets") return;
    for (const b of document.querySelectorAll("button")) {
      if ((b.textContent || "").includes("Adicionar")) sessionStorage.setItem("__addSeen", location.pathname);
    }
  }).observe(document, { subtree: true, childList: true });
})();`;

Deno.test("page access - a plain user on /prompts and /queue-integration goes to /tickets before paint, no 'Adicionar'", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Acme", { plan: { useOpenAi: 1, useIntegrations: 1 } });
    await page.context().addInitScript(RECORD_PAINTS);
    await loginAs(page, c.user, { expectPath: "/tickets" });
    for (const path of ["/prompts", "/queue-integration", "/users", "/settings", "/"]) {
      await page.evaluate(() => sessionStorage.removeItem("__seenToasts"));
      await page.goto(`${url}${path}`);
      await page.waitForURL(`${url}/tickets`);
      await page.getByTestId("greeting").getByText("Acme User").waitFor();
      await page.waitForFunction(() =>
        JSON.parse(sessionStorage.getItem("__seenToasts") ?? "[]").includes("Acesso não permitido")
      );
      const painted = await page.evaluate(() =>
        JSON.parse(sessionStorage.getItem("__painted") ?? "[]") as string[]
      );
      assert.ok(!painted.includes(path), `${path} was painted: ${painted.join(", ")}`);
      assert.ok(painted.includes("/tickets"), "the recorder sees paints");
    }
    assert.equal(await page.evaluate(() => sessionStorage.getItem("__addSeen")), null);
    // The menu shows none of them either: the same rule.
    for (const entry of ["prompts", "queueIntegration", "users", "settings", "dashboard"]) {
      assert.equal(await page.locator(`aside [data-menu="${entry}"]`).count(), 0, entry);
    }
    assert.deepEqual(pageErrors, []);
  }));

Deno.test("page access - without stored roles (an older session) the shell sends the user away, nothing of the page rendered", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Acme", { plan: { useOpenAi: 1 } });
    await page.context().addInitScript(RECORD_PAINTS);
    await loginAs(page, c.user, { expectPath: "/tickets" });
    await page.evaluate(() => localStorage.removeItem("roles"));
    await page.goto(`${url}/prompts`);
    await page.waitForURL(`${url}/tickets`);
    await page.getByTestId("greeting").getByText("Acme User").waitFor();
    await toastShown(page, "Acesso não permitido");
    assert.equal(await page.evaluate(() => sessionStorage.getItem("__addSeen")), null);
    // An admin opens it, with its add button.
    await page.evaluate(() => localStorage.clear());
    await loginAs(page, c.admin, { expectPath: "/" });
    await page.goto(`${url}/prompts`);
    await page.getByRole("button", { name: "Adicionar" }).first().waitFor();
    assert.deepEqual(pageErrors, []);
  }));

Deno.test("page access - a plan guard's message is on screen before its redirect, even when the toast code arrives late", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Slow", { plan: { useKanban: 0 } });
    await loginAs(page, c.admin, { expectPath: "/" });
    // A slow network: every script takes 1.5 s, longer than the guard's 1 s before redirecting.
    // The toast layer's code is fetched with the first toast, so before the fix the redirect left
    // before the message explaining it was ever painted.
    const normalNetwork = await slowScripts(page, 1500);
    await page.evaluate(() => sessionStorage.removeItem("__seenToasts"));
    await page.goto(`${url}/kanban`);
    await page.waitForURL(`${url}/`);
    assert.ok(
      (await seenToasts(page)).includes(
        "Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.",
      ),
    );
    await normalNetwork();
    assert.deepEqual(pageErrors, []);
  }));
