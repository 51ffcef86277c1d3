/**
 * What a new user meets on every page (issue 25): axe-core's serious and critical findings and
 * a page wider than the window. Used by tests/e2e/every_page*_test.ts, which walk each role's
 * menu at a laptop's and a phone's size in one browser.
 */
import assert from "node:assert/strict";
import { ADMIN_EMAIL, ADMIN_PASSWORD, login, type TestApp } from "./app.ts";
import type { Page } from "./browser.ts";
import { axe } from "./packages.ts";

/** The two sizes a new user tried every page at: a laptop and a phone. */
export const LAPTOP = { width: 1366, height: 800 };
export const PHONE = { width: 390, height: 844 };

/** An unread announcement: the 'Informativos' bell shows its count beside its name. */
export async function announce(t: TestApp) {
  const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
  const res = await t.request("POST", "/api/announcements", {
    token: root.token,
    body: { title: "Manutenção", text: "Domingo às 22h", priority: 1, status: true },
  });
  assert.equal(res.status, 201);
}

/** The side menu's groups (islands/lib/shell/menu.ts). */
export type MenuGroupId = "service" | "management" | "administration";

/**
 * Every page the side menu offers the signed-in user in those groups (submenus opened; the
 * laptop's menu). A role's groups are audited in two files, so that each stays well within the
 * browser tests' time bound on a busy machine.
 */
export async function menuPages(page: Page, groups: MenuGroupId[]): Promise<string[]> {
  await page.setViewportSize(LAPTOP);
  await page.locator("aside a.nav-link").first().waitFor();
  for (const trigger of await page.locator("aside .nav-submenu-trigger").all()) {
    if (await trigger.getAttribute("aria-expanded") !== "true") await trigger.click();
  }
  const inGroups = groups.map((g) => `aside .nav-group[data-group="${g}"] a.nav-link`).join(", ");
  const hrefs = await page.locator(inGroups).evaluateAll((links) =>
    links.map((a) => a.getAttribute("href") ?? "")
  );
  return [...new Set(hrefs)];
}

/** The page is drawn: its heading is shown, no request is pending, its fonts are in. */
export async function settled(page: Page) {
  await page.getByRole("heading", { level: 1 }).first().waitFor();
  await page.waitForLoadState("networkidle");
  await page.evaluate(() => document.fonts.ready.then(() => {}));
}

/**
 * axe's rules, plus one it keeps experimental that the new user's report counted: a control's
 * accessible name must contain its visible text (the 'Informativos' bell and its count).
 */
const AXE_OPTIONS = {
  resultTypes: ["violations"],
  rules: { "label-content-name-mismatch": { enabled: true } },
};

/** axe-core's serious and critical findings on the page as it is now, one line each. */
export async function axeFindings(page: Page): Promise<string[]> {
  // Through the DevTools protocol, which the page's CSP does not govern (no inline script runs).
  if (!await page.evaluate(() => "axe" in globalThis)) await page.evaluate(axe.source);
  return await page.evaluate(async (options) => {
    type Node = { target: string[]; failureSummary?: string };
    type Finding = { id: string; impact: string | null; nodes: Node[] };
    const engine = (globalThis as unknown as {
      axe: { run(context: Document, options: unknown): Promise<{ violations: Finding[] }> };
    }).axe;
    const { violations } = await engine.run(document, options);
    return violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) =>
        `${v.id} (${v.impact}): ${
          v.nodes.slice(0, 3).map((n) =>
            `${n.target.join(" ")} ${(n.failureSummary ?? "").replace(/\s+/g, " ")}`
          ).join(" | ")
        }`
      );
  }, AXE_OPTIONS);
}

/**
 * How many pixels the document is wider than the window (0: no horizontal scroll), with the
 * elements that reach past its right edge.
 */
export async function overflow(page: Page): Promise<string | null> {
  return await page.evaluate(() => {
    const root = document.documentElement;
    const extra = root.scrollWidth - root.clientWidth;
    if (extra <= 0) return null;
    const past = [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > root.clientWidth + 0.5)
      .slice(-4)
      .map((el) =>
        `${el.tagName.toLowerCase()}.${String(el.className).trim().replace(/\s+/g, ".")}`
      );
    return `${extra} px wider than the window (${past.join(", ") || "a pseudo-element"})`;
  });
}

/**
 * Opens each path at the laptop's size, then the phone's (the same page, resized), and returns
 * what is wrong, one line per page, size and finding.
 */
export async function auditPages(
  page: Page,
  url: string,
  paths: string[],
  label: string,
): Promise<string[]> {
  const problems: string[] = [];
  for (const path of paths) {
    await page.setViewportSize(LAPTOP);
    await page.goto(`${url}${path}`);
    await settled(page);
    for (const size of [LAPTOP, PHONE]) {
      await page.setViewportSize(size);
      // The resize's layout and the media queries' renders are done by the second frame.
      await page.evaluate(() =>
        new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))
      );
      const where = `${label} ${path} at ${size.width} px:`;
      for (const finding of await axeFindings(page)) problems.push(`${where} axe ${finding}`);
      const wide = await overflow(page);
      if (wide) problems.push(`${where} ${wide}`);
    }
  }
  return problems;
}

/**
 * Scroll boxes inside `root` (itself included) that show a scrollbar they should not: any that
 * scrolls sideways, and any holding a table of 1-3 rows that scrolls at all (issue 24 item 7).
 */
export async function strayScrollbars(page: Page, root: string): Promise<string[]> {
  return await page.evaluate((selector) => {
    const found: string[] = [];
    for (const el of document.querySelectorAll(`${selector}, ${selector} *`)) {
      const style = getComputedStyle(el);
      const scrolls = (overflow: string) => overflow === "auto" || overflow === "scroll";
      const sideways = scrolls(style.overflowX) && el.scrollWidth > el.clientWidth;
      const rows = el.querySelectorAll("tbody tr").length;
      const down = scrolls(style.overflowY) && el.scrollHeight > el.clientHeight &&
        el.querySelector("table") !== null && rows <= 3;
      if (!sideways && !down) continue;
      found.push(
        `${el.tagName.toLowerCase()}.${String(el.className).trim().replace(/\s+/g, ".")} ${
          sideways ? `${el.scrollWidth - el.clientWidth} px sideways` : ""
        }${down ? `${el.scrollHeight - el.clientHeight} px down with ${rows} rows` : ""}`,
      );
    }
    return found;
  }, root);
}
