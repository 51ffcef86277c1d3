import process from "node:process";
import { CompiledQuery, sql } from "kysely";
import { createApp } from "../../server/app.ts";
import { systemClock } from "../../server/clock.ts";
import { loadConfig } from "../../server/config.ts";
import { buildDeps, closeDeps } from "../../server/deps.ts";
import type { Viewer } from "../../server/tickets/access.ts";
import { listTicketsQuery, type TicketListFilters } from "../../server/tickets/list_repository.ts";
import { log } from "../../server/log.ts";
import { type BenchCompany, DATA_VERSION, generate, PASSWORD, SIZES } from "./tickets_data.ts";
import { benchV8Flags, cpuMsOf, httpLoad, loadAverage, login, startServer } from "./http_load.ts";

/**
 * GET /api/tickets, GET /api/messages/:ticketId and text search on a company with 100,000
 * tickets, 1,000,000 messages and 50,000 contacts, measured through app.request (routing,
 * auth, validation, SQL, JSON) in one process. Targets (issue 4): ticket list first page p95
 * <= 20 ms per status, messages p95 <= 10 ms, search p95 <= 50 ms.
 *
 * Then the same lists over HTTP against the real server (main.ts as a child process, issue 33):
 * 1 client (p50/p95/p99) and 16 clients (requests per second), BENCH_HTTP_SECONDS (default 10)
 * each. BENCH_HTTP_ONLY=1 skips the in-process table.
 *
 * The database is generated once and kept in $BENCH_DIR (default /tmp/balcao-bench) between
 * runs; delete that folder to start over.
 */
const encoder = new TextEncoder();
/** The bench prints its figures (lint keeps console out of the app; this is a report). */
function print(line: string) {
  Deno.stdout.writeSync(encoder.encode(`${line}\n`));
}

/**
 * Wall-clock quantiles, and the process CPU time per request: on a machine shared with other
 * work (load above the core count) wall-clock times grow with the wait for a core, CPU time
 * does not.
 */
type Figure = {
  name: string;
  n: number;
  p50: number;
  p95: number;
  max: number;
  cpu: number;
  target?: number;
};

function printFigure(f: Figure) {
  const verdict = f.target === undefined
    ? ""
    : f.p95 <= f.target
    ? `<= ${f.target} ok`
    : `> ${f.target} OFF`;
  print(
    f.name.padEnd(48) + String(f.n).padStart(5) + f.p50.toFixed(2).padStart(9) +
      f.p95.toFixed(2).padStart(9) + f.max.toFixed(2).padStart(9) + f.cpu.toFixed(2).padStart(9) +
      "  " + verdict,
  );
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

async function measure(
  name: string,
  n: number,
  call: (i: number) => Promise<Response>,
  target?: number,
): Promise<Figure> {
  for (let i = 0; i < 10; i++) await (await call(i)).arrayBuffer();
  const times: number[] = [];
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await call(i);
    await res.arrayBuffer();
    times.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`${name}: status ${res.status}`);
  }
  const cpuUsed = process.cpuUsage(cpuStart);
  times.sort((a, b) => a - b);
  const figure = {
    cpu: (cpuUsed.user + cpuUsed.system) / 1000 / n,
    name,
    n,
    p50: quantile(times, 0.5),
    p95: quantile(times, 0.95),
    max: times.at(-1)!,
    target,
  };
  printFigure(figure);
  return figure;
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}

type Bench = { dir: string; company: BenchCompany; ticketRange: { lo: number; hi: number } };

export async function benchTickets(): Promise<Bench> {
  const root = Deno.env.get("BENCH_DIR") ?? "/tmp/balcao-bench";
  const dir = `${root}/tickets-v${DATA_VERSION}`;
  const marker = `${dir}/bench.json`;
  const fresh = !await exists(marker);
  if (fresh) await Deno.remove(dir, { recursive: true }).catch(() => {});
  const config = loadConfig({
    DATA_DIR: dir,
    ADMIN_EMAIL: "root@bench.test",
    ADMIN_PASSWORD: "root-password",
    BCRYPT_COST: "4",
    LOGIN_MAX_ATTEMPTS: "1000",
  });
  const { deps } = await buildDeps(config, systemClock);
  try {
    let company: BenchCompany;
    if (fresh) {
      const t0 = performance.now();
      log.info("generating benchmark data", SIZES);
      company = await generate(deps.db, new Date());
      await Deno.writeTextFile(marker, JSON.stringify(company));
      log.info("benchmark data ready", { seconds: Math.round((performance.now() - t0) / 1000) });
      print(
        `generated ${JSON.stringify(SIZES)} in ${Math.round((performance.now() - t0) / 1000)} s`,
      );
    } else {
      company = JSON.parse(await Deno.readTextFile(marker));
    }
    const ticketRange = (await sql<{ lo: number; hi: number }>`SELECT min(id) AS lo, max(id) AS hi
      FROM tickets WHERE companyId = ${company.companyId}`.execute(deps.db)).rows[0];
    if (Deno.env.get("BENCH_HTTP_ONLY")) return { dir, company, ticketRange };
    const app = createApp(deps);
    const token = async (email: string) => {
      const res = await app.request("/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      return (await res.json()).token as string;
    };
    const adminToken = await token(company.adminEmail);
    const userToken = await token(company.userEmail);
    const get = (path: string, bearer: string) =>
      Promise.resolve(app.request(path, { headers: { authorization: `Bearer ${bearer}` } }));

    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const figures: Figure[] = [];
    const N = 200;
    print(
      `\nTickets benchmark (${SIZES.tickets} tickets, ${SIZES.messages} messages, ${SIZES.contacts} contacts); ms, through app.request; load average ${
        Deno.loadavg().map((l) => l.toFixed(1)).join(" ")
      } on ${navigator.hardwareConcurrency} cores`,
    );
    print(
      "name".padEnd(48) + "n".padStart(5) + "p50".padStart(9) + "p95".padStart(9) +
        "max".padStart(9) + "cpu/req".padStart(9) + "  target (p95)",
    );
    for (const status of ["open", "pending", "closed"]) {
      figures.push(
        await measure(
          `tickets ${status} p1 admin showAll`,
          N,
          () => get(`/api/tickets?status=${status}&showAll=true&pageNumber=1`, adminToken),
          20,
        ),
      );
      figures.push(
        await measure(`tickets ${status} p1 user (2 queues)`, N, () =>
          get(
            `/api/tickets?status=${status}&pageNumber=1&queueIds=${
              encodeURIComponent(JSON.stringify(company.queueIds.slice(1, 3)))
            }`,
            userToken,
          ), 20),
      );
    }
    figures.push(
      await measure(
        "tickets withUnreadMessages user",
        N,
        () => get(`/api/tickets?withUnreadMessages=true`, userToken),
        20,
      ),
    );
    figures.push(
      await measure("messages p1 random ticket", N, () => {
        const id = ticketRange.lo + Math.floor(random() * (ticketRange.hi - ticketRange.lo));
        return get(`/api/messages/${id}`, adminToken);
      }, 10),
    );
    const searches = [
      ["common word", "pedido"],
      ["two words", "boleto vencimento"],
      ["rare word", "chargeback"],
      ["number in text", "7919"],
      ["contact name", "Mariana Souza"],
    ];
    for (const [label, term] of searches) {
      figures.push(
        await measure(
          `search ${label} '${term}' admin`,
          60,
          () =>
            get(`/api/tickets?searchParam=${encodeURIComponent(term)}&showAll=true`, adminToken),
          50,
        ),
      );
    }
    figures.push(
      await measure(
        "search common word 'pedido' user",
        60,
        () => get(`/api/tickets?searchParam=pedido`, userToken),
        50,
      ),
    );

    if (Deno.env.get("BENCH_PLANS")) {
      const users = await deps.db.selectFrom("users").select(["id", "profile"])
        .where("email", "in", [company.adminEmail, company.userEmail]).execute();
      const userId = users.find((u) => u.profile === "user")!.id;
      const userQueues = (await deps.db.selectFrom("user_queues").select("queueId")
        .where("userId", "=", userId).execute()).map((r) => r.queueId);
      const viewer: Viewer = {
        companyId: company.companyId,
        userId,
        isAdmin: false,
        roles: ["user"],
        queueIds: userQueues,
        allTicket: false,
      };
      const cases: [string, boolean, Partial<TicketListFilters>][] = [];
      for (const status of ["open", "pending", "closed"] as const) {
        cases.push([`${status} admin showAll`, true, { status, showAll: true }]);
        cases.push([`${status} user`, false, { status }]);
      }
      cases.push(["notifications user", false, { withUnreadMessages: true }]);
      cases.push(["search 'pedido' admin", true, { searchParam: "pedido", showAll: true }]);
      cases.push(["search 'pedido' user", false, { searchParam: "pedido" }]);
      for (const [label, admin, extra] of cases) {
        const filters: TicketListFilters = {
          pageNumber: 1,
          showAll: false,
          withUnreadMessages: false,
          ...extra,
        };
        const q = listTicketsQuery(deps.db, {
          ...viewer,
          isAdmin: admin,
          roles: [admin ? "admin" : "user"],
        }, filters);
        const plan = await deps.db.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`EXPLAIN QUERY PLAN ${q.sql}`, [...q.parameters]),
        );
        print(`\nplan ${label}`);
        for (const row of plan.rows) print(`  ${row.detail}`);
      }
    }
    return { dir, company, ticketRange };
  } finally {
    await closeDeps(deps);
  }
}

/** The hot lists over HTTP, main.ts in its own process, clients in this one. */
async function benchHttp({ dir, company, ticketRange }: Bench) {
  const seconds = Number(Deno.env.get("BENCH_HTTP_SECONDS") ?? 10);
  const server = await startServer(dir);
  try {
    const admin = await login(server.url, company.adminEmail, PASSWORD);
    const user = await login(server.url, company.userEmail, PASSWORD);
    const queues = encodeURIComponent(JSON.stringify(company.queueIds.slice(1, 3)));
    const first = ticketRange.lo;
    const span = ticketRange.hi - first;
    const cases: [string, string, (i: number) => string][] = [
      ["open, admin showAll", admin, () => "/api/tickets?status=open&showAll=true&pageNumber=1"],
      ["open, user 2 queues", user, () => `/api/tickets?status=open&queueIds=${queues}`],
      ["pending, admin showAll", admin, () => "/api/tickets?status=pending&showAll=true"],
      ["pending, user 2 queues", user, () => `/api/tickets?status=pending&queueIds=${queues}`],
      ["notifications (unread), user", user, () => "/api/tickets?withUnreadMessages=true"],
      // A fixed walk over the ticket ids (i * a large prime), so runs compare.
      ["messages of a ticket, admin", admin, (i) => `/api/messages/${first + (i * 7919) % span}`],
    ];
    print(
      `\nOver HTTP (main.ts child process, v8 flags: ${
        (await benchV8Flags()).join(",") || "none"
      }), ${seconds} s per line; ms; load average ${loadAverage()} on ${navigator.hardwareConcurrency} cores`,
    );
    print(
      "request".padEnd(32) + "clients".padStart(8) + "p50".padStart(8) + "p95".padStart(8) +
        "p99".padStart(8) + "req/s".padStart(8) + "  server CPU ms/req",
    );
    for (const [label, token, path] of cases) {
      for (const clients of [1, 16]) {
        // A short warm-up: the first requests compile code and fill SQLite's page cache.
        await httpLoad(server.url, token, path, { clients, requests: 50 });
        const cpuBefore = await cpuMsOf(server.pid);
        const r = await httpLoad(server.url, token, path, { clients, seconds });
        // The server's CPU time per request (all its threads): what the load average cannot move.
        const cpu = (await cpuMsOf(server.pid) - cpuBefore) / r.requests;
        print(
          label.padEnd(32) + String(clients).padStart(8) + r.p50.toFixed(2).padStart(8) +
            r.p95.toFixed(2).padStart(8) + r.p99.toFixed(2).padStart(8) +
            r.perSecond.toFixed(0).padStart(8) + cpu.toFixed(2).padStart(8),
        );
      }
    }
    print(`load average after: ${loadAverage()}`);
  } finally {
    await server.stop();
  }
}

if (import.meta.main) {
  await benchHttp(await benchTickets());
}
