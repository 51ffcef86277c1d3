/**
 * Browser tests: a headless Chromium (from the @sparticuz/chromium npm package, no apt) driven by
 * playwright-core against the real app served on a free port. Needs the island bundles:
 * `deno task test` builds them first; alone, run `deno task build` once.
 *
 *   Deno.test("tickets page - accepts a pending ticket", () =>
 *     withBrowser(async ({ t, page, url, loginAs }) => {
 *       const c = await createCompany(t, "Acme");
 *       await loginAs(page, c.admin);            // through the login form, lands on /
 *       await page.goto(`${url}/tickets`);
 *       await page.getByRole("button", { name: "Aceitar" }).click();
 *       await page.getByText("...").waitFor();   // wait for what the user sees, never sleep
 *     }));
 */
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import sparticuz from "@sparticuz/chromium";
import { tmpdir } from "node:os";
import { createTestApp, type TestApp, type TestUser } from "./app.ts";
import { serve } from "./server.ts";

export type { Browser, BrowserContext, Page };

/** Timeouts generous enough for 2 busy cores; tests wait for selectors, never for time. */
export const BROWSER_TIMEOUT_MS = 20_000;

/**
 * The Chromium binary. The package unpacks it to /tmp on first use; test files run in parallel
 * processes, so a file lock keeps two of them from unpacking over each other.
 */
export async function chromiumPath(): Promise<string> {
  const lock = await Deno.open(`${tmpdir()}/balcao-chromium.lock`, {
    create: true,
    write: true,
  });
  try {
    await lock.lock(true);
    return await sparticuz.executablePath();
  } finally {
    await lock.unlock().catch(() => {});
    lock.close();
  }
}

export async function launchBrowser(): Promise<Browser> {
  return await chromium.launch({
    executablePath: await chromiumPath(),
    args: [
      ...sparticuz.args,
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-quic",
    ],
    headless: true,
    timeout: 60_000,
  });
}

export type BrowserOptions = {
  /** Environment for the app's config (e.g. { ACCESS_TOKEN_TTL_SECONDS: "10" }). */
  env?: Record<string, string>;
  viewport?: { width: number; height: number };
  /** The browser's preferred colour scheme (the default theme follows it). */
  colorScheme?: "light" | "dark";
};

export type BrowserTest = {
  t: TestApp;
  /** http://127.0.0.1:<port> of the app. */
  url: string;
  browser: Browser;
  context: BrowserContext;
  /** A first tab, already open (about:blank). */
  page: Page;
  /**
   * Uncaught exceptions in the page and console errors other than failed resource loads (an API
   * answering 4xx is logged by the browser): assert it stays empty.
   */
  pageErrors: string[];
  /**
   * A second browser with its own storage (a second user at the same time), closed at the end.
   * Not `browser.newContext()`: Chromium runs --single-process here, where contexts of one
   * browser share localStorage.
   */
  secondBrowser(): Promise<Page>;
  /** Opens /login, fills the form, submits and waits for the shell (or the given path). */
  loginAs(
    page: Page,
    user: Pick<TestUser, "email" | "password">,
    options?: { expectPath?: string },
  ): Promise<void>;
};

/**
 * Runs `fn` with a fresh app (temp database) served on port 0 and a fresh browser; closes
 * everything afterwards, whatever happens.
 */
export async function withBrowser(
  fn: (b: BrowserTest) => Promise<void>,
  options: BrowserOptions = {},
): Promise<void> {
  const t = await createTestApp(options.env);
  const server = serve(t);
  let browser: Browser | undefined;
  const browsers: Browser[] = [];
  try {
    browser = await launchBrowser();
    browsers.push(browser);
    const pageErrors: string[] = [];
    const newContext = async (owner: Browser) => {
      const context = await owner.newContext({
        viewport: options.viewport ?? { width: 1280, height: 800 },
        colorScheme: options.colorScheme ?? "light",
        locale: "pt-BR",
        // No animations: nothing to wait for before a click is "stable".
        reducedMotion: "reduce",
      });
      context.setDefaultTimeout(BROWSER_TIMEOUT_MS);
      await context.addInitScript(RECORD_TOASTS);
      context.setDefaultNavigationTimeout(BROWSER_TIMEOUT_MS);
      context.on("page", (p) => {
        p.on("pageerror", (e) => pageErrors.push(e.message));
        p.on("console", (m) => {
          if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) {
            pageErrors.push(m.text());
          }
        });
      });
      return context;
    };
    const context = await newContext(browser);
    const page = await context.newPage();
    const loginAs: BrowserTest["loginAs"] = async (p, user, opts = {}) => {
      await p.goto(`${server.url}/login`);
      await p.locator("form input[name=email]").fill(user.email);
      await p.locator("form input[name=password]").fill(user.password);
      await p.locator("form button[type=submit]:not([disabled])").click();
      if (opts.expectPath) {
        await p.waitForURL(`${server.url}${opts.expectPath}`);
      } else {
        await p.waitForURL((u) => u.pathname !== "/login");
      }
      // The shell knows the user: the greeting names them (visible at every width).
      await p.getByTestId("greeting").locator("strong").first().waitFor();
    };
    await fn({
      t,
      url: server.url,
      browser,
      context,
      page,
      pageErrors,
      secondBrowser: async () => {
        const other = await launchBrowser();
        browsers.push(other);
        return await (await newContext(other)).newPage();
      },
      loginAs,
    });
  } finally {
    for (const b of browsers) await b.close().catch(() => {});
    t.deps.hub.closeAll();
    await server.close();
    await t.close();
  }
}

/**
 * Every toast text shown in a tab is kept in its sessionStorage, which survives navigations: a
 * test can check a toast that lived only for the second before a redirect (see seenToasts).
 */
const RECORD_TOASTS = `(() => {
  const KEY = "__seenToasts";
  const record = () => {
    const seen = JSON.parse(sessionStorage.getItem(KEY) || "[]");
    let changed = false;
    for (const el of document.querySelectorAll(".toast-text")) {
      const text = el.textContent || "";
      if (text && !seen.includes(text)) { seen.push(text); changed = true; }
    }
    if (changed) sessionStorage.setItem(KEY, JSON.stringify(seen));
  };
  new MutationObserver(record).observe(document, { subtree: true, childList: true, characterData: true });
})();`;

/** The texts of every toast shown in this tab so far (across navigations). */
export async function seenToasts(page: Page): Promise<string[]> {
  return JSON.parse(
    (await page.evaluate(() => sessionStorage.getItem("__seenToasts"))) ?? "[]",
  ) as string[];
}

/** Reads a localStorage key in the page. */
export function storageItem(page: Page, key: string): Promise<string | null> {
  return page.evaluate((k) => localStorage.getItem(k), key);
}

/**
 * A toast showing `text` (radix also repeats it in an aria-live region: match the toast itself).
 */
export function toastWith(page: Page, text: string | RegExp) {
  return page.locator(".toast", { hasText: text });
}
