/**
 * Usable on a phone over 4G (issue 49 item 4): how soon /login, /tickets, /contacts, /kanban and
 * /reports answer input, and what they fetch, on a throttled phone.
 *
 *   deno task build && deno run -A tests/bench/phone_bench.ts [--rounds=3] [--tickets=300]
 *     [--waterfall]   (prints every request of each visit: start, end, bytes, cached or not)
 *     [--before=/tmp/balcao-before]   (another checkout, built, node_modules linked: both are
 *                                      measured in the same rounds, turn about)
 *
 * Seeds a data folder (one company: 3 queues, 5 tags of which 3 are kanban lanes, a connection,
 * 400 contacts, `tickets` tickets with 3 messages each, open/pending/closed, some tagged), starts
 * main.ts on it as `deno task start` does, and drives Chromium (@sparticuz/chromium through
 * playwright-core, launched as the browser tests launch it) through the DevTools protocol:
 * Network.emulateNetworkConditions 9 Mbps down / 1.5 Mbps up / 60 ms RTT,
 * Emulation.setCPUThrottlingRate 4, a 390×844 phone viewport (mobile, touch, 3× pixels).
 *
 * A cold visit is a new tab after Network.clearBrowserCache (the session's token stays in
 * localStorage: a signed-in phone opening the app again); a warm visit is the same tab opening
 * the page a second time. The time is the page's performance.now() (from the navigation's start)
 * when its "usable" condition first holds, checked on every animation frame:
 *
 * - /login: the e-mail and password fields and the submit button are shown and hydrated (React's
 *   handlers are on the nodes, `__reactProps$…`); then the bench signs in through that form.
 * - /tickets: the first ticket of the list is shown and hydrated; then a click on it opens the
 *   ticket (its URL).
 * - /contacts: the first contact row is shown and the search box is hydrated; then typing a
 *   name in the search narrows the rows to that name.
 * - /kanban: the first card of a lane is shown and hydrated; then a click on it opens the ticket.
 * - /reports: the totals show numbers and the period's "from" field is hydrated; then the field
 *   takes a date.
 *
 * The response checks run after the time is taken (they prove the condition means "answers
 * input"; they are not timed). Bytes are what crossed the network (encodedDataLength: headers and
 * compressed body) until the page was usable, and until the network went quiet after it. The
 * service worker is blocked, as in the browser tests (it only answers navigations offline).
 * Target (issue 49): ≤ 2.0 s cold, ≤ 1.0 s warm, every page. Each table prints the load average.
 */
import type { BrowserContext, Page } from "../helpers/packages.ts";
import { launchBrowser } from "../helpers/browser.ts";
import { createCompany, createTestApp } from "../helpers/app.ts";
import {
  addContact,
  addMessage,
  addQueue,
  addTicket,
  addUserToQueues,
  addWhatsapp,
} from "../helpers/tickets.ts";
import { closeDeps } from "../../server/deps.ts";
import { startMain } from "../helpers/main_process.ts";
import { loadAverage, print, startServer } from "./http_load.ts";

const args = Object.fromEntries(
  Deno.args.map((a) => a.replace(/^--/, "").split("=")).map(([k, v]) => [k, v ?? "true"]),
);
const ROUNDS = Number(args.rounds ?? 3);
const TICKETS = Number(args.tickets ?? 300);
const CONTACTS = Math.max(400, TICKETS);
const WATERFALL = args.waterfall === "true";
/** Another checkout to compare with, e.g. the commit before a change (see `Build` below). */
const BEFORE = args.before;

/** The profile of issue 49: a phone on 4G. */
const NETWORK = {
  offline: false,
  latency: 60,
  downloadThroughput: 9_000_000 / 8,
  uploadThroughput: 1_500_000 / 8,
};
const CPU_SLOWDOWN = 4;
const PHONE = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 3,
  isMobile: true,
  hasTouch: true,
};
const TARGET_COLD_MS = 2_000;
const TARGET_WARM_MS = 1_000;

/** Fills a fresh data folder; returns it and the admin who signs in. */
async function seed() {
  const t = await createTestApp();
  const c = await createCompany(t, "Phone Bench");
  const db = t.deps.db;
  const stamp = t.clock.now().toISOString();
  const queues = [
    await addQueue(t, c.id, "Vendas", "#0EA5E9"),
    await addQueue(t, c.id, "Suporte", "#22C55E"),
    await addQueue(t, c.id, "Financeiro", "#F97316"),
  ];
  await addUserToQueues(t, c.id, c.admin.id, queues);
  const whatsappId = await addWhatsapp(t, c.id, "Principal", { isDefault: true });
  const tags: number[] = [];
  for (
    const [name, kanban] of [["Proposta", 1], ["Negociação", 1], ["Fechamento", 1], ["VIP", 0], [
      "Atraso",
      0,
    ]] as const
  ) {
    const tag = await db.insertInto("tags").values({
      companyId: c.id,
      name,
      color: "#A4CCCC",
      kanban,
      createdAt: stamp,
      updatedAt: stamp,
    }).returning("id").executeTakeFirstOrThrow();
    tags.push(tag.id);
  }
  const first = ["Ana", "Bruno", "Carla", "Daniel", "Eduarda", "Felipe", "Gabriela", "Henrique"];
  const last = ["Silva", "Santos", "Oliveira", "Souza", "Rodrigues", "Ferreira", "Lima", "Costa"];
  const contacts: number[] = [];
  for (let i = 0; i < CONTACTS; i++) {
    const name = `${first[i % 8]} ${last[(i >> 3) % 8]} ${i}`;
    contacts.push(await addContact(t, c.id, name, `55119${String(80000000 + i)}`));
  }
  const statuses = ["open", "pending", "closed", "closed"] as const;
  const texts = [
    "Olá, bom dia! Meu pedido ainda não chegou, pode verificar o rastreio?",
    "Claro, vou verificar com a transportadora e já retorno.",
    "Obrigado, aguardo o retorno.",
  ];
  for (let i = 0; i < TICKETS; i++) {
    const status = statuses[i % 4];
    const at = new Date(t.clock.now().getTime() - (TICKETS - i) * 60_000).toISOString();
    const { id: ticketId } = await addTicket(t, c.id, {
      contactId: contacts[i],
      whatsappId,
      status,
      userId: status === "pending" ? null : c.admin.id,
      queueId: queues[i % 3],
      unreadMessages: status === "pending" ? 1 : 0,
      lastMessage: texts[2],
      at,
    });
    for (const [m, body] of texts.entries()) {
      await addMessage(t, c.id, {
        ticketId,
        body,
        fromMe: m === 1,
        read: true,
        at,
        contactId: contacts[i],
      });
    }
    if (status !== "closed" && i % 3 !== 2) {
      await db.insertInto("ticket_tags").values({ companyId: c.id, ticketId, tagId: tags[i % 3] })
        .execute();
    }
  }
  await closeDeps(t.deps);
  return { dir: t.dir, admin: c.admin };
}

/**
 * Runs in the page on every animation frame: performance.now() once `path` is usable (see the
 * file's comment), else 0. A function, not a string: the pages' CSP forbids eval.
 */
function usableAt(path: string): number {
  /** Shown (has a box) and hydrated (React's props are on the node, so its handlers answer). */
  const shown = (selector: string) => {
    const el = document.querySelector(selector);
    return !!el && el.getClientRects().length > 0 &&
      Object.keys(el).some((k) => k.startsWith("__reactProps$"));
  };
  let ok = false;
  if (path === "/login") {
    ok = shown("form input[name=email]") && shown("form input[name=password]") &&
      shown("form button[type=submit]");
  } else if (path === "/tickets") ok = shown("[data-testid=ticket-item]");
  else if (path === "/contacts") {
    ok = shown("[data-testid=contact-row]") && shown("input[type=search]");
  } else if (path === "/kanban") ok = shown("[data-testid=kanban-card]");
  else if (path === "/reports") {
    ok = /\d/.test(document.querySelector("[data-testid=reports-totals] dd")?.textContent ?? "") &&
      shown("[data-testid=reports-from]");
  }
  return ok ? performance.now() : 0;
}

/** The response each page gives to input once usable (not timed). */
async function answersInput(page: Page, path: string) {
  if (path === "/tickets" || path === "/kanban") {
    const item = path === "/tickets" ? "[data-testid=ticket-item]" : "[data-testid=kanban-card] a";
    await page.locator(item).first().click();
    await page.waitForURL(/\/tickets\/[0-9a-f-]{36}$/);
  } else if (path === "/contacts") {
    const name = (await page.locator("[data-testid=contact-row] .people-name").nth(3).innerText())
      .trim();
    await page.locator("input[type=search]").fill(name);
    await page.waitForFunction(
      (wanted) => {
        const rows = [...document.querySelectorAll("[data-testid=contact-row] .people-name")];
        return rows.length >= 1 && rows.every((r) => r.textContent?.includes(wanted));
      },
      name,
    );
  } else if (path === "/reports") {
    await page.getByTestId("reports-from").fill("2026-01-01");
    await page.waitForFunction(() =>
      (document.querySelector("[data-testid=reports-from]") as HTMLInputElement).value ===
        "2026-01-01"
    );
  }
}

type Request = { url: string; start: number; end?: number; bytes: number; cached: boolean };
type Visit = { ms: number; bytes: number; requests: number; bytesAfter: number; log: Request[] };

/** One visit of `path` in `page`: the time until usable and the bytes fetched. */
async function visit(context: BrowserContext, page: Page, url: string, path: string) {
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", NETWORK);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: CPU_SLOWDOWN });
  const requests = new Map<string, Request>();
  let origin = 0;
  cdp.on("Network.requestWillBeSent", (e) => {
    if (!origin && e.type === "Document") origin = e.timestamp;
    requests.set(e.requestId, {
      url: e.request.url.replace(url, ""),
      start: e.timestamp,
      bytes: 0,
      cached: false,
    });
  });
  cdp.on("Network.requestServedFromCache", (e) => {
    const r = requests.get(e.requestId);
    if (r) r.cached = true;
  });
  cdp.on("Network.responseReceived", (e) => {
    const r = requests.get(e.requestId);
    if (r && e.response.fromDiskCache) r.cached = true;
  });
  cdp.on("Network.loadingFinished", (e) => {
    const r = requests.get(e.requestId);
    if (r) {
      r.end = e.timestamp;
      r.bytes = e.encodedDataLength;
    }
  });
  await page.goto(`${url}${path}`, { waitUntil: "commit" });
  const usable = await page.waitForFunction(usableAt, path, { polling: "raf", timeout: 60_000 })
    .catch(async (e) => {
      const shown = await page.locator("body").innerText().catch(() => "");
      throw new Error(
        `${url}${path} never usable (at ${page.url()}): ${e}\n${shown.slice(0, 600)}`,
      );
    });
  const ms = Number(await usable.jsonValue());
  const doneBy = origin + ms / 1000;
  const finished = [...requests.values()].filter((r) => r.end !== undefined);
  const bytes = finished.filter((r) => r.end! <= doneBy).reduce((s, r) => s + r.bytes, 0);
  const count = finished.filter((r) => r.end! <= doneBy).length;
  await page.waitForLoadState("networkidle");
  const bytesAfter = [...requests.values()].reduce((s, r) => s + r.bytes, 0);
  const log = [...requests.values()].map((r) => ({
    ...r,
    start: (r.start - origin) * 1000,
    end: r.end === undefined ? undefined : (r.end - origin) * 1000,
  }));
  await cdp.detach();
  return { ms, bytes, requests: count, bytesAfter, log } satisfies Visit;
}

function printWaterfall(label: string, v: Visit) {
  print(`  ${label}: usable at ${v.ms.toFixed(0)} ms`);
  for (const r of v.log.sort((a, b) => a.start - b.start)) {
    print(
      `    ${r.start.toFixed(0).padStart(6)} → ${(r.end?.toFixed(0) ?? "…").padStart(6)} ms ${
        String(r.bytes).padStart(7)
      } B ${r.cached ? "cache" : "net  "} ${r.url.slice(0, 90)}`,
    );
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** /login first: its visit signs the bench in. */
const PAGES = ["/login", ...(args.pages ?? "/tickets,/contacts,/kanban,/reports").split(",")];

const { dir, admin } = await seed();
/**
 * The builds compared: this checkout, and with --before=<folder> another checkout of the app
 * (built, its node_modules linked), on a copy of the same data, visited turn about in each round
 * so that both see the same moment of a shared machine.
 */
type Build = { label: string; url: string; stop: () => Promise<void>; dir: string };
const builds: Build[] = [];
try {
  if (BEFORE) {
    const copy = await Deno.makeTempDir({ prefix: "balcao-phone-before-" });
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.isFile) await Deno.copyFile(`${dir}/${entry.name}`, `${copy}/${entry.name}`);
    }
    const main = await startMain(
      { DATA_DIR: copy, LOG_LEVEL: "info", BCRYPT_COST: "4", LOGIN_MAX_ATTEMPTS: "100000" },
      "main.ts (before)",
      [],
      {
        program: Deno.execPath(),
        args: ["run", "-A", `--config=${BEFORE}/deno.json`, `${BEFORE}/main.ts`],
      },
    );
    builds.push({
      label: "before",
      url: main.url,
      dir: copy,
      stop: async () => {
        main.child.kill("SIGTERM");
        await main.child.status;
      },
    });
  }
  const server = await startServer(dir);
  builds.push({ label: BEFORE ? "after" : "", url: server.url, dir, stop: server.stop });
  const results = new Map<string, { cold: Visit[]; warm: Visit[] }>();
  for (const b of builds) {
    for (const p of PAGES) results.set(`${b.label} ${p}`.trim(), { cold: [], warm: [] });
  }
  for (let round = 0; round < ROUNDS; round++) {
    // A browser per round: Chromium runs --single-process here, where a browser's contexts share
    // localStorage (the signed-in token) and closing one may end the browser. Each build is its
    // own origin (port), so its storage and cache entries are its own.
    const browser = await launchBrowser();
    const context = await browser.browser.newContext({
      ...PHONE,
      locale: "pt-BR",
      serviceWorkers: "block",
    });
    context.setDefaultTimeout(60_000);
    try {
      for (const path of PAGES) {
        for (const build of builds) {
          const tab = await context.newPage();
          const cdp = await context.newCDPSession(tab);
          await cdp.send("Network.clearBrowserCache");
          await cdp.detach();
          const key = `${build.label} ${path}`.trim();
          // A visit not usable in 60 s (a machine at load 30+) counts as a failure, not a crash.
          const timed = (v: Promise<Visit>) =>
            v.catch((e) => {
              print(`${key}: ${String(e).slice(0, 300)}`);
              return { ms: Infinity, bytes: NaN, requests: NaN, bytesAfter: NaN, log: [] };
            });
          const cold = await timed(visit(context, tab, build.url, path));
          const warm = await timed(visit(context, tab, build.url, path));
          results.get(key)!.cold.push(cold);
          results.get(key)!.warm.push(warm);
          if (WATERFALL) {
            print(`\n${key}, round ${round + 1}`);
            printWaterfall("cold", cold);
            printWaterfall("warm", warm);
          }
          if (!Number.isFinite(cold.ms) || !Number.isFinite(warm.ms)) {
            await tab.close();
            continue;
          }
          if (path === "/login") {
            await tab.locator("form input[name=email]").fill(admin.email);
            await tab.locator("form input[name=password]").fill(admin.password);
            await tab.locator("form button[type=submit]:not([disabled])").click();
            await tab.waitForURL((u) => u.pathname !== "/login");
          } else {
            await answersInput(tab, path);
          }
          await tab.close();
        }
      }
    } finally {
      await browser.kill();
    }
  }
  print(
    `\nUsable on a phone over 4G (9/1.5 Mbps, 60 ms RTT, CPU ×${CPU_SLOWDOWN}, 390×844): ` +
      `${TICKETS} tickets, ${CONTACTS} contacts; median of ${ROUNDS} rounds; ` +
      `load average ${loadAverage()}`,
  );
  print(
    "page".padEnd(17) + "cold ms".padStart(9) + "warm ms".padStart(9) +
      "cold bytes".padStart(12) + "reqs".padStart(6) + "cold all".padStart(11) +
      "warm bytes".padStart(12) + "reqs".padStart(6) + "  target (≤ 2.0 s / ≤ 1.0 s)",
  );
  for (const [path, { cold, warm }] of results) {
    const coldMs = median(cold.map((v) => v.ms));
    const warmMs = median(warm.map((v) => v.ms));
    print(
      path.padEnd(17) + coldMs.toFixed(0).padStart(9) + warmMs.toFixed(0).padStart(9) +
        kb(median(cold.map((v) => v.bytes))).padStart(12) +
        String(median(cold.map((v) => v.requests))).padStart(6) +
        kb(median(cold.map((v) => v.bytesAfter))).padStart(11) +
        kb(median(warm.map((v) => v.bytes))).padStart(12) +
        String(median(warm.map((v) => v.requests))).padStart(6) +
        `  ${coldMs <= TARGET_COLD_MS ? "met" : "over"} / ${
          warmMs <= TARGET_WARM_MS ? "met" : "over"
        }  (cold ${cold.map((v) => v.ms.toFixed(0)).join(", ")}; warm ${
          warm.map((v) => v.ms.toFixed(0)).join(", ")
        })`,
    );
  }
  print(`load average at the end ${loadAverage()}`);
} finally {
  for (const b of builds) await b.stop().catch(() => {});
  for (const d of new Set([dir, ...builds.map((b) => b.dir)])) {
    await Deno.remove(d, { recursive: true }).catch(() => {});
  }
}
