/**
 * What the benchmarks that run the real server share (issue 33): main.ts as a child process,
 * its memory (from /proc and from /metrics), a login, and HTTP load from N concurrent clients.
 * Not a benchmark itself (no _bench suffix): tests/bench/run.ts does not run it.
 */
import { startMain } from "../helpers/main_process.ts";
import { startV8Flags } from "../helpers/start_flags.ts";

const encoder = new TextEncoder();
/** The benchmarks print their figures (lint keeps console out of the app; this is a report). */
export function print(line: string) {
  Deno.stdout.writeSync(encoder.encode(`${line}\n`));
}

export const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
export const loadAverage = () => Deno.loadavg().map((l) => l.toFixed(1)).join(" ");

export const METRICS_TOKEN = "bench-metrics-token-0123456789";

export type Server = {
  url: string;
  pid: number;
  stop: () => Promise<void>;
};

/**
 * The V8 flags the benchmarks give the server: `deno task start`'s, or BENCH_V8_FLAGS
 * (comma-separated; "none" for V8's defaults) to compare runtime settings.
 */
export async function benchV8Flags(): Promise<string[]> {
  const asked = Deno.env.get("BENCH_V8_FLAGS");
  if (asked === undefined) return await startV8Flags();
  return asked.split(",").filter((f) => f && f !== "none");
}

/**
 * main.ts on `dataDir`, as `deno task start` runs it: with benchV8Flags() unless `v8Flags` says
 * otherwise. The caller stops it.
 */
export async function startServer(
  dataDir: string,
  env: Record<string, string> = {},
  v8Flags?: string[],
): Promise<Server> {
  const flags = v8Flags ?? await benchV8Flags();
  const main = await startMain(
    {
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      METRICS_TOKEN,
      BCRYPT_COST: "4",
      LOGIN_MAX_ATTEMPTS: "100000",
      ...env,
    },
    "main.ts",
    flags.length ? [`--v8-flags=${flags.join(",")}`] : [],
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

/** Resident memory of a process, from the kernel (what `top` shows). */
export async function rssOf(pid: number): Promise<number> {
  const status = await Deno.readTextFile(`/proc/${pid}/status`);
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? NaN);
  return kb * 1024;
}

/**
 * CPU time a process has used so far (user + system, all its threads: the database thread's
 * too), in ms, from the kernel. Per request it says what a setting costs even on a machine whose
 * load makes wall-clock rates meaningless.
 */
export async function cpuMsOf(pid: number): Promise<number> {
  const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticksPerSecond = 100; // USER_HZ on Linux
  return (Number(fields[11]) + Number(fields[12])) * 1000 / ticksPerSecond;
}

export type Memory = { rss: number; heapUsed: number; heapTotal: number };

/** RSS from /proc, V8 heap (used, total) from /metrics. */
export async function memoryOf(server: Server): Promise<Memory> {
  const res = await fetch(`${server.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const text = await res.text();
  const metric = (name: string) => {
    const match = new RegExp(`^${name} (\\S+)`, "m").exec(text);
    return match ? Number(match[1]) : NaN;
  };
  return {
    rss: await rssOf(server.pid),
    heapUsed: metric("balcao_nodejs_heap_size_used_bytes"),
    heapTotal: metric("balcao_nodejs_heap_size_total_bytes"),
  };
}

export async function login(url: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
  return (await res.json()).token as string;
}

export type LoadResult = {
  requests: number;
  seconds: number;
  perSecond: number;
  p50: number;
  p95: number;
  p99: number;
};

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/**
 * `clients` concurrent loops, each sending the next request when its last answer is read, until
 * `requests` answers (or, with `seconds`, until that time is up). `path(i)` names request i.
 * A non-200 answer stops the run: a benchmark of errors measures nothing.
 */
export async function httpLoad(
  url: string,
  token: string,
  path: (i: number) => string,
  opts: { clients: number; requests?: number; seconds?: number; onTick?: () => void },
): Promise<LoadResult> {
  const headers = { authorization: `Bearer ${token}` };
  const times: number[] = [];
  let issued = 0;
  const t0 = performance.now();
  const until = opts.seconds === undefined ? Infinity : t0 + opts.seconds * 1000;
  const limit = opts.requests ?? Infinity;
  const client = async () => {
    while (issued < limit && performance.now() < until) {
      const i = issued++;
      const start = performance.now();
      const res = await fetch(`${url}${path(i)}`, { headers });
      await res.arrayBuffer();
      times.push(performance.now() - start);
      if (res.status !== 200) throw new Error(`${path(i)}: status ${res.status}`);
      opts.onTick?.();
    }
  };
  await Promise.all(Array.from({ length: opts.clients }, client));
  const seconds = (performance.now() - t0) / 1000;
  times.sort((a, b) => a - b);
  return {
    requests: times.length,
    seconds,
    perSecond: times.length / seconds,
    p50: quantile(times, 0.5),
    p95: quantile(times, 0.95),
    p99: quantile(times, 0.99),
  };
}

/** The bench data of tickets_data.ts, generated by tickets_bench.ts (its folder and company). */
export async function benchDataDir(): Promise<
  { dir: string; adminEmail: string; userEmail: string; queueIds: number[] } | undefined
> {
  const { DATA_VERSION } = await import("./tickets_data.ts");
  const root = Deno.env.get("BENCH_DIR") ?? "/tmp/balcao-bench";
  const dir = `${root}/tickets-v${DATA_VERSION}`;
  try {
    const company = JSON.parse(await Deno.readTextFile(`${dir}/bench.json`));
    return { dir, ...company };
  } catch {
    return undefined;
  }
}
