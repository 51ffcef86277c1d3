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
import { type Browser, type BrowserContext, chromium, type Page, sparticuz } from "./packages.ts";
import { tmpdir } from "node:os";
import { createTestApp, type TestApp, type TestUser } from "./app.ts";
import { deadline, DeadlineError, serve } from "./server.ts";

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

/**
 * @sparticuz/chromium's GPU flags composite every frame through SwiftShader (a GPU emulated on
 * the CPU). A focused field's blinking caret then repaints the whole page twice a second: an idle
 * /tickets tab burnt ~40% of a core, and every page load cost twice the CPU. Tests draw with
 * Chromium's plain software compositor instead.
 */
const GPU_ARGS = ["--use-gl=", "--use-angle=", "--enable-unsafe-swiftshader", "--in-process-gpu"];
const launchArgs = () => [
  ...sparticuz.args.filter((a: string) => !GPU_ARGS.some((g) => a.startsWith(g))),
  "--disable-gpu",
  ...EXTRA_ARGS,
];

/** Flags on top of @sparticuz/chromium's own: nothing reaches out to the (closed) network. */
const EXTRA_ARGS = [
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** How long Chromium may take to start and print its DevTools address. */
const LAUNCH_TIMEOUT_MS = 60_000;

/** A Chromium this process started, driven over CDP, and the means to end it for sure. */
export type LaunchedBrowser = {
  browser: Browser;
  /** The last lines Chromium wrote to stderr (for a failure's message). */
  log(): string;
  /** Disconnects (bounded) and SIGKILLs the process; never hangs. */
  kill(): Promise<void>;
};

/**
 * Starts Chromium with Deno's own process API and connects over CDP on a loopback port.
 *
 * Not `chromium.launch()`: that talks to the browser over extra stdio pipes of node's
 * child_process, and its `close()` waits for those pipes to close, with no bound (a known way
 * for @sparticuz/chromium's single-process build to hang). Here the process is ours: `kill()`
 * ends it and waits only for its exit status, so a test's cleanup always finishes.
 */
export async function launchBrowser(): Promise<LaunchedBrowser> {
  const profile = await Deno.makeTempDir({ prefix: "balcao-chromium-" });
  const child = new Deno.Command(await chromiumPath(), {
    args: [
      ...launchArgs(),
      `--user-data-dir=${profile}`,
      "--remote-debugging-address=127.0.0.1",
      "--remote-debugging-port=0",
      "--no-startup-window",
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const tail: string[] = [];
  let announce: (url: string) => void = () => {};
  const endpoint = new Promise<string>((resolve) => announce = resolve);
  // stderr is read to its end: a full pipe would block Chromium's logging thread.
  const drained = (async () => {
    let pending = "";
    for await (const chunk of child.stderr.pipeThrough(new TextDecoderStream())) {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const found = line.match(/DevTools listening on (ws:\/\/\S+)/);
        if (found) announce(found[1]);
        tail.push(line);
        if (tail.length > 40) tail.shift();
      }
    }
  })().catch(() => {});
  const log = () => tail.join("\n");
  let killed: Promise<void> | undefined;
  const killProcess = () =>
    killed ??= (async () => {
      try {
        child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
      await child.status;
      await drained;
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    })();
  try {
    const exited = child.status.then((s) => {
      throw new Error(`Chromium exited before it was ready (code ${s.code}):\n${log()}`);
    });
    const url = await deadline(
      Promise.race([endpoint, exited]),
      LAUNCH_TIMEOUT_MS,
      () => `Chromium did not start in ${LAUNCH_TIMEOUT_MS} ms:\n${log()}`,
    );
    exited.catch(() => {});
    const browser = await chromium.connectOverCDP(url, { timeout: LAUNCH_TIMEOUT_MS });
    return {
      browser,
      log,
      kill: async () => {
        await deadline(browser.close(), 5_000, () => "").catch(() => {});
        await killProcess();
      },
    };
  } catch (e) {
    await killProcess();
    throw e;
  }
}

export type BrowserOptions = {
  /** Environment for the app's config (e.g. { ACCESS_TOKEN_TTL_SECONDS: "10" }). */
  env?: Record<string, string>;
  viewport?: { width: number; height: number };
  /** The browser's preferred colour scheme (the default theme follows it). */
  colorScheme?: "light" | "dark";
  /** The browser's time zone (IANA name); default this machine's. */
  timezoneId?: string;
  /**
   * Let pages register the service worker (/sw.js). Off by default: the worker answers every
   * navigation, which under --single-process Chromium slows each page load; only the tests of
   * the worker itself (pushes, the offline page) need it.
   */
  serviceWorkers?: "allow";
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
 * The longest a browser test may run. A test that is still going then has its browsers killed
 * (every pending Playwright call rejects) and fails with Chromium's last words, instead of
 * holding the whole suite until CI gives up.
 */
export const BROWSER_TEST_DEADLINE_MS = 240_000;

/**
 * Runs `fn` with a fresh app (temp database) served on port 0 and a fresh browser; closes
 * everything afterwards, whatever happens, each step within a bound.
 */
export async function withBrowser(
  fn: (b: BrowserTest) => Promise<void>,
  options: BrowserOptions = {},
): Promise<void> {
  const t = await createTestApp(options.env);
  const server = serve(t);
  const launched: LaunchedBrowser[] = [];
  const launch = async () => {
    const one = await launchBrowser();
    launched.push(one);
    return one.browser;
  };
  // What each page's socket carried lately, for a failure's message: most browser-test failures
  // under load are a live update that did not arrive, or arrived before the read it raced.
  const recent: string[] = [];
  const remember = (label: string, line: string) => {
    recent.push(`${new Date().toISOString().slice(11, 23)} ${label} ${line.slice(0, 300)}`);
    if (recent.length > 60) recent.shift();
  };
  const chromiumLogs = () =>
    launched.map((l, i) => `--- chromium ${i + 1} stderr ---\n${l.log()}`).join("\n");
  let failure: unknown;
  try {
    const browser = await launch();
    const pageErrors: string[] = [];
    let pageCount = 0;
    const newContext = async (owner: Browser) => {
      const context = await owner.newContext({
        viewport: options.viewport ?? { width: 1280, height: 800 },
        colorScheme: options.colorScheme ?? "light",
        locale: "pt-BR",
        ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
        // No animations: nothing to wait for before a click is "stable".
        reducedMotion: "reduce",
        serviceWorkers: options.serviceWorkers ?? "block",
      });
      context.setDefaultTimeout(BROWSER_TIMEOUT_MS);
      await context.addInitScript(RECORD_TOASTS);
      context.setDefaultNavigationTimeout(BROWSER_TIMEOUT_MS);
      context.on("page", (p) => {
        const label = `page ${++pageCount}`;
        p.on("pageerror", (e) => pageErrors.push(e.message));
        p.on("websocket", (ws) => {
          ws.on("framereceived", (f) => remember(label, `<- ${String(f.payload)}`));
          ws.on("framesent", (f) => remember(label, `-> ${String(f.payload)}`));
          ws.on("close", () => remember(label, "socket closed"));
        });
        p.on("framenavigated", (f) => {
          if (f === p.mainFrame()) remember(label, `navigated to ${f.url()}`);
        });
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
      // A page whose session was just cleared may be leaving for /login by itself; Chromium then
      // aborts our own navigation (net::ERR_ABORTED) in favour of the page's. Go again.
      await p.goto(`${server.url}/login`).catch(async (e) => {
        if (!String(e).includes("ERR_ABORTED")) throw e;
        await p.goto(`${server.url}/login`);
      });
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
    const body = fn({
      t,
      url: server.url,
      browser,
      context,
      page,
      pageErrors,
      secondBrowser: async () => await (await newContext(await launch())).newPage(),
      loginAs,
    });
    try {
      await deadline(body, BROWSER_TEST_DEADLINE_MS, () => "");
    } catch (e) {
      if (!(e instanceof DeadlineError)) throw e;
      const logs = chromiumLogs();
      await Promise.all(launched.map((l) => l.kill()));
      // With its browsers gone the body's Playwright calls reject; give it a moment to unwind.
      await deadline(body, 10_000, () => "").catch(() => {});
      throw new Error(
        `browser test still running after ${BROWSER_TEST_DEADLINE_MS} ms; browsers killed\n${logs}`,
      );
    }
  } catch (e) {
    failure = e;
    if (e instanceof Error) {
      const frames = `\n--- the pages' last socket frames and navigations ---\n${
        recent.join("\n")
      }`;
      e.message += frames;
      if (e.stack) e.stack += frames;
    }
  }
  // Every step is bounded: a cleanup that cannot finish fails the test with its name.
  const steps: [string, () => Promise<unknown>][] = [
    ["killing the browsers", () => Promise.all(launched.map((l) => l.kill()))],
    ["closing the sockets and the HTTP server", () => {
      t.deps.hub.closeAll();
      return server.close();
    }],
    ["closing the app", () => t.close()],
  ];
  for (const [step, run] of steps) {
    try {
      await deadline(run(), 30_000, () => `test cleanup: ${step} took over 30 s`);
    } catch (e) {
      failure ??= e;
    }
  }
  if (failure !== undefined) throw failure;
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

/**
 * Waits until a toast with `text` has been shown in the tab. Toasts last 2 s, and a busy machine
 * may not poll one in time: the harness's record of every toast shown is read instead.
 */
export async function toastShown(page: Page, text: string) {
  await page.waitForFunction(
    (wanted) => JSON.parse(sessionStorage.getItem("__seenToasts") ?? "[]").includes(wanted),
    text,
    { polling: 100 },
  );
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
