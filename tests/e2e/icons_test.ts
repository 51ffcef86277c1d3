import assert from "node:assert/strict";
import { createCompany } from "../helpers/app.ts";
import { withBrowser } from "../helpers/browser.ts";
import { eventually } from "../helpers/eventually.ts";

/**
 * Issue 33: the icons are drawn from the build's sprite (`<use href="/static/build/<build>/icons-*.svg#x">`,
 * islands/lib/ui/icon.tsx). The browser must fetch it and draw each icon: a `<use>` whose target
 * is missing, or whose file does not load, has an empty box.
 */
Deno.test("icons - the shell's and the page's icons are drawn from the sprite", () =>
  withBrowser(async ({ t, page, url, loginAs, pageErrors }) => {
    const c = await createCompany(t, "Acme");
    await loginAs(page, c.admin, { expectPath: "/" });
    await page.goto(`${url}/tickets`);
    await page.getByRole("heading", { name: "Atendimentos" }).waitFor();
    const drawn = await eventually(() =>
      page.locator("svg.lucide use").evaluateAll((uses) => {
        // Icons in a closed menu or a hidden column have no box whatever they hold.
        const shown = uses.filter((use) => use.parentElement!.checkVisibility());
        const boxes = shown.map((use) => {
          const box = (use as SVGGraphicsElement).getBBox();
          return { href: use.getAttribute("href") ?? "", width: box.width, height: box.height };
        });
        return boxes.length > 10 && boxes.every((b) => b.width > 0 && b.height > 0) && boxes;
      }), { what: "every icon drawn" });
    assert.ok(
      drawn.every((b) =>
        /^\/static\/build\/b[0-9a-f-]+\/icons-[0-9A-F]+\.svg#[a-z0-9-]+$/.test(b.href)
      ),
    );
    assert.ok(new Set(drawn.map((b) => b.href)).size > 5, "several different icons");
    assert.deepEqual(pageErrors, []);
  }));
