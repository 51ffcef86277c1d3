import process from "node:process";
import { CompiledQuery } from "kysely";
import { createApp } from "../../server/app.ts";
import { systemClock } from "../../server/clock.ts";
import { loadConfig } from "../../server/config.ts";
import { buildDeps, closeDeps } from "../../server/deps.ts";
import { DatabaseThread } from "../../db/dialect.ts";
import { type Bench, benchTickets } from "./tickets_bench.ts";
import { PASSWORD } from "./tickets_data.ts";
import { benchV8Flags, cpuMsOf, loadAverage, login, print, startServer } from "./http_load.ts";
import { startMain } from "../helpers/main_process.ts";

/**
 * Opening a conversation (issue 49): GET /api/messages/:ticketId on the tickets bench's data
 * (100,000 tickets, 1,000,000 messages; each contact has two tickets, so a page of 20 spans the
 * contact's history; every fifth message quotes one, every eighth is a medium).
 *
 * 1. In process (app.request): p50/p95, the database round trips per request (every request
 *    posted to the database thread, db/worker.ts: statements, BEGIN and COMMIT) and the answer's
 *    bytes. BENCH_PLANS=1 prints each statement of one request with its plan.
 * 2. Over HTTP, one client, main.ts as a child process: p50/p95/p99, answer bytes and the
 *    server's CPU per request. BENCH_BEFORE_DIR=<a checkout of another commit, deno installed
 *    there> runs that checkout's main.ts on the same data in alternate rounds (A B, B A, ...),
 *    so the ratio comes from one run on a shared machine.
 *
 * `deno run -A tests/bench/conversation_bench.ts`; BENCH_DIR as tickets_bench.ts.
 */

const N = Number(Deno.env.get("BENCH_REQUESTS") ?? 1000);
/** At a load of 20 and more a run outlasts the default 15 minutes of an access token. */
const LONG_TOKENS = { ACCESS_TOKEN_TTL_SECONDS: "86400" };

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/** A fixed walk over the ticket ids (i times a large prime), so runs and servers compare. */
function walk({ ticketRange }: Bench) {
  const span = ticketRange.hi - ticketRange.lo;
  return (i: number) => `/api/messages/${ticketRange.lo + (i * 7919) % span}`;
}

type Posted = { op: string; sql?: string; args?: readonly unknown[] };

async function inProcess(bench: Bench) {
  const config = loadConfig({
    DATA_DIR: bench.dir,
    ADMIN_EMAIL: "root@bench.test",
    ADMIN_PASSWORD: "root-password",
    BCRYPT_COST: "4",
    LOGIN_MAX_ATTEMPTS: "100000",
    ...LONG_TOKENS,
  });
  const { deps } = await buildDeps(config, systemClock);
  // Every request to the database thread is one round trip: count them (instrumentation of the
  // bench only; the server runs the class as it is).
  const posted: Posted[] = [];
  const request = DatabaseThread.prototype.request;
  DatabaseThread.prototype.request = function (r) {
    posted.push(r as Posted);
    return request.call(this, r);
  };
  try {
    const app = createApp(deps);
    const res = await app.request("/api/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: bench.company.adminEmail, password: PASSWORD }),
    });
    const token = (await res.json()).token as string;
    const path = walk(bench);
    const get = async (i: number) => {
      const res = await app.request(path(i), { headers: { authorization: `Bearer ${token}` } });
      const body = await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path(i)}: ${res.status}`);
      return body.byteLength;
    };
    for (let i = 0; i < 50; i++) await get(i);
    const times: number[] = [];
    const trips: number[] = [];
    const bytes: number[] = [];
    let quotes = 0;
    let media = 0;
    const cpu = process.cpuUsage();
    for (let i = 0; i < N; i++) {
      posted.length = 0;
      const t0 = performance.now();
      bytes.push(await get(i));
      times.push(performance.now() - t0);
      trips.push(posted.length);
    }
    const used = process.cpuUsage(cpu);
    // What the pages held (one pass after the timed one, not timed).
    for (let i = 0; i < 200; i++) {
      const res = await app.request(path(i), { headers: { authorization: `Bearer ${token}` } });
      const page = await res.json();
      for (const m of page.messages) {
        if (m.quotedMsg) quotes++;
        if (m.mediaUrl) media++;
      }
    }
    times.sort((a, b) => a - b);
    trips.sort((a, b) => a - b);
    bytes.sort((a, b) => a - b);
    print(
      `\nIn process (app.request), admin, ${N} requests over a walk of the tickets; load average ${loadAverage()} on ${navigator.hardwareConcurrency} cores`,
    );
    print(
      `  p50 ${quantile(times, 0.5).toFixed(3)} ms, p95 ${
        quantile(times, 0.95).toFixed(3)
      } ms, CPU ${((used.user + used.system) / 1000 / N).toFixed(3)} ms/request`,
    );
    print(
      `  round trips to the database thread per request: min ${trips[0]}, p50 ${
        quantile(trips, 0.5)
      }, max ${trips.at(-1)}`,
    );
    print(
      `  answer bytes: p50 ${quantile(bytes, 0.5)}, max ${bytes.at(-1)}; per page ${
        (quotes / 200).toFixed(1)
      } quoted messages, ${(media / 200).toFixed(1)} media`,
    );
    // One request's statements, and with BENCH_PLANS their plans.
    posted.length = 0;
    await get(1);
    const one = [...posted];
    print(`  one request's round trips (${one.length}):`);
    for (const r of one) {
      print(`    ${r.op}${r.sql ? `: ${r.sql.replace(/\s+/g, " ").slice(0, 160)}` : ""}`);
      if (Deno.env.get("BENCH_PLANS") && r.sql && /^\s*select/i.test(r.sql)) {
        const plan = await deps.db.executeQuery<{ detail: string }>(
          CompiledQuery.raw(`EXPLAIN QUERY PLAN ${r.sql}`, [...(r.args ?? [])]),
        );
        for (const row of plan.rows) print(`      ${row.detail}`);
      }
    }
  } finally {
    DatabaseThread.prototype.request = request;
    await closeDeps(deps);
  }
}

type Round = { times: number[]; bytes: number; cpu: number; requests: number };

/** `seconds` of one client on the walk, starting at request `from`. */
async function round(
  url: string,
  pid: number,
  token: string,
  path: (i: number) => string,
  from: number,
  seconds: number,
): Promise<Round> {
  const headers = { authorization: `Bearer ${token}` };
  // Warm-up by time: a process just started compiles code, fills SQLite's cache and runs its
  // start-up jobs, more slowly the busier the machine.
  const warm = performance.now() + 3000;
  for (let i = 0; performance.now() < warm; i++) {
    await (await fetch(`${url}${path(i)}`, { headers })).arrayBuffer();
  }
  const times: number[] = [];
  let bytes = 0;
  const cpu0 = await cpuMsOf(pid);
  const until = performance.now() + seconds * 1000;
  for (let i = from; performance.now() < until; i++) {
    const t0 = performance.now();
    const res = await fetch(`${url}${path(i)}`, { headers });
    bytes += (await res.arrayBuffer()).byteLength;
    times.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`${path(i)}: ${res.status}`);
  }
  return { times, bytes, cpu: await cpuMsOf(pid) - cpu0, requests: times.length };
}

async function overHttp(bench: Bench) {
  const seconds = Number(Deno.env.get("BENCH_HTTP_SECONDS") ?? 5);
  const rounds = Number(Deno.env.get("BENCH_ROUNDS") ?? 2);
  const before = Deno.env.get("BENCH_BEFORE_DIR");
  const sides: [string, string | undefined][] = before
    ? [["before", before], ["this", undefined]]
    : [["this", undefined]];
  const flags = await benchV8Flags();
  const results = new Map<string, Round[]>();
  const path = walk(bench);
  print(
    `\nOver HTTP, 1 client, main.ts child (v8 flags: ${
      flags.join(",") || "none"
    }), ${rounds} rounds of ${seconds} s per side${
      before ? ` (before: ${before})` : ""
    }; load average ${loadAverage()}`,
  );
  for (let r = 0; r < rounds; r++) {
    // A B, then B A: neither side always comes first after the other's stop.
    for (const [name, dir] of r % 2 ? [...sides].reverse() : sides) {
      const server = dir
        ? await startBefore(dir, bench.dir, flags)
        : await startServer(bench.dir, { ...LONG_TOKENS });
      try {
        const token = await login(server.url, bench.company.adminEmail, PASSWORD);
        if (r === 0) {
          // Issue 49: the ticket list's page, as the list asks for it (first page, 40 tickets).
          const sizes = [];
          for (const status of ["open", "closed"]) {
            const res = await fetch(
              `${server.url}/api/tickets?status=${status}&showAll=true&pageNumber=1`,
              { headers: { authorization: `Bearer ${token}` } },
            );
            const body = new Uint8Array(await res.arrayBuffer());
            const count = JSON.parse(new TextDecoder().decode(body)).tickets.length;
            sizes.push(`${status} ${body.byteLength} B (${count} tickets)`);
          }
          print(`  ${name.padEnd(7)} GET /api/tickets first page: ${sizes.join(", ")}`);
        }
        const result = await round(server.url, server.pid, token, path, r * 100_000, seconds);
        results.set(name, [...(results.get(name) ?? []), result]);
        const sorted = [...result.times].sort((a, b) => a - b);
        print(
          `  round ${r + 1} ${name.padEnd(7)} p50 ${quantile(sorted, 0.5).toFixed(3)} p95 ${
            quantile(sorted, 0.95).toFixed(3)
          } p99 ${quantile(sorted, 0.99).toFixed(3)} ms, ${
            (result.bytes / result.requests).toFixed(0)
          } B/answer, server CPU ${
            (result.cpu / result.requests).toFixed(3)
          } ms/request; load ${loadAverage()}`,
        );
      } finally {
        await server.stop();
      }
    }
  }
  const summary = new Map<string, { p50: number; p95: number; bytes: number; cpu: number }>();
  for (const [name, list] of results) {
    const times = list.flatMap((r) => r.times).sort((a, b) => a - b);
    const requests = list.reduce((s, r) => s + r.requests, 0);
    const figure = {
      p50: quantile(times, 0.5),
      p95: quantile(times, 0.95),
      bytes: list.reduce((s, r) => s + r.bytes, 0) / requests,
      cpu: list.reduce((s, r) => s + r.cpu, 0) / requests,
    };
    summary.set(name, figure);
    print(
      `  ${name.padEnd(7)} all rounds: p50 ${figure.p50.toFixed(3)} p95 ${
        figure.p95.toFixed(3)
      } ms, ${figure.bytes.toFixed(0)} B/answer, server CPU ${figure.cpu.toFixed(3)} ms/request`,
    );
  }
  const a = summary.get("before");
  const b = summary.get("this")!;
  if (a) {
    print(
      `  before/this: p50 ${(a.p50 / b.p50).toFixed(2)}x, p95 ${
        (a.p95 / b.p95).toFixed(2)
      }x, bytes ${(a.bytes / b.bytes).toFixed(2)}x, server CPU ${(a.cpu / b.cpu).toFixed(2)}x`,
    );
  }
  print(`load average after: ${loadAverage()}`);
}

/** Another checkout's main.ts on the same data (its own deno.json and node_modules). */
async function startBefore(checkout: string, dataDir: string, flags: string[]) {
  const args = ["run", "-A", ...(flags.length ? [`--v8-flags=${flags.join(",")}`] : []), "main.ts"];
  const main = await startMain(
    {
      DATA_DIR: dataDir,
      // startMain waits for the "listening" line, an info line.
      LOG_LEVEL: "info",
      BCRYPT_COST: "4",
      LOGIN_MAX_ATTEMPTS: "100000",
      ...LONG_TOKENS,
    },
    `${checkout}/main.ts`,
    [],
    {
      program: "sh",
      args: ["-c", `cd '${checkout}' && exec '${Deno.execPath()}' ${args.join(" ")}`],
    },
  );
  return {
    url: main.url,
    pid: main.child.pid,
    stop: async () => {
      main.child.kill("SIGTERM");
      await main.child.status;
    },
  };
}

if (import.meta.main) {
  const bench = await benchTickets({ measure: false });
  if (!Deno.env.get("BENCH_HTTP_ONLY")) await inProcess(bench);
  if (!Deno.env.get("BENCH_IN_PROCESS_ONLY")) await overHttp(bench);
}
