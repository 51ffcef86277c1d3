/**
 * Events through Redis to 1,000 sockets over two processes (issue 31, docs/scaling.md), against
 * one process without Redis: real server processes (main.ts) and a real redis-server, the
 * browsers in a process of their own (sockets_clients.ts). Each event is a tag renamed over
 * HTTP (a `company-<id>-tag` event to the whole company).
 *
 * - latency: one event at a time, from the HTTP request to the last socket's receipt (median and
 *   p90 of BENCH_FANOUT_SAMPLES, default 30), for one process without Redis, one process whose
 *   events go through Redis (the hop alone), and two processes through Redis;
 * - throughput: BENCH_FANOUT_EVENTS (default 300) events sent 8 at a time, until every socket
 *   got all of them: events per second, and socket deliveries per second.
 *
 * BENCH_FANOUT_SOCKETS (default 1000) sockets in all, spread evenly over the processes.
 */
import { type MainProcess, startMain } from "../helpers/main_process.ts";
import { startRedis } from "../helpers/redis_server.ts";

const SOCKETS = Number(Deno.env.get("BENCH_FANOUT_SOCKETS") ?? 1000);
const SAMPLES = Number(Deno.env.get("BENCH_FANOUT_SAMPLES") ?? 30);
const EVENTS = Number(Deno.env.get("BENCH_FANOUT_EVENTS") ?? 300);
const ADMIN = { email: "root@fanout.bench", password: "root-password" };
const encoder = new TextEncoder();
const print = (line: string) => Deno.stdout.writeSync(encoder.encode(`${line}\n`));

type Run = { label: string; latencies: number[]; eventsPerSecond: number };

async function run(label: string, processes: number, redisUrl?: string): Promise<Run> {
  const dir = await Deno.makeTempDir({ prefix: "balcao-fanout-" });
  const servers: MainProcess[] = [];
  try {
    for (let i = 0; i < processes; i++) {
      servers.push(
        await startMain({
          DATA_DIR: dir,
          ADMIN_EMAIL: ADMIN.email,
          ADMIN_PASSWORD: ADMIN.password,
          BCRYPT_COST: "4",
          INSTANCE_ID: `P${i}`,
          ...(redisUrl ? { REDIS_URL: redisUrl, SESSION_LEASE_SECONDS: "10" } : {}),
        }, `P${i}`),
      );
    }
    const api = async (method: string, path: string, token?: string, body?: unknown) => {
      const res = await fetch(`${servers[0].url}${path}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          "content-type": "application/json",
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
      return await res.json();
    };
    const token = (await api("POST", "/api/auth/login", undefined, ADMIN)).token as string;
    const tag = (await api("POST", "/api/tags", token, { name: "bench-0" })).id as number;
    let renamed = 0;
    const rename = () => api("PUT", `/api/tags/${tag}`, token, { name: `bench-${++renamed}` });

    const clients = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        new URL("./sockets_clients.ts", import.meta.url).pathname,
        servers.map((s) => s.url.replace("http", "ws")).join(","),
        token,
        String(SOCKETS),
      ],
      stdout: "piped",
    }).spawn();
    const lines = clients.stdout.pipeThrough(new TextDecoderStream()).getReader();
    let buffered = "";
    const next = async () => {
      while (!buffered.includes("\n")) {
        const { value, done } = await lines.read();
        if (done) throw new Error("clients exited");
        buffered += value;
      }
      const line = buffered.slice(0, buffered.indexOf("\n"));
      buffered = buffered.slice(buffered.indexOf("\n") + 1);
      return line;
    };
    if (await next() !== "ready") throw new Error("clients not ready");
    // Each round ends when every socket got one more event ("got <n>").
    let rounds = 0;
    const untilRound = async (n: number) => {
      while (rounds < n) rounds = Number((await next()).split(" ")[1]);
    };

    const latencies: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      const t0 = performance.now();
      await rename();
      await untilRound(rounds + 1);
      latencies.push(performance.now() - t0);
    }
    const target = rounds + EVENTS;
    const t0 = performance.now();
    let sent = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (sent < EVENTS) {
        sent++;
        await rename();
      }
    }));
    await untilRound(target);
    const seconds = (performance.now() - t0) / 1000;
    clients.kill("SIGTERM");
    await clients.status;
    await lines.cancel().catch(() => {});
    return { label, latencies, eventsPerSecond: EVENTS / seconds };
  } finally {
    for (const server of servers) {
      server.child.kill("SIGTERM");
      await server.child.status;
    }
    await Deno.remove(dir, { recursive: true });
  }
}

const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
};

const one = await run("1 process, no Redis", 1);
const redis = await startRedis();
let oneRedis: Run;
let two: Run;
try {
  // One process through Redis isolates the hop; two split the sockets' sends between them.
  oneRedis = await run("1 process + Redis", 1, redis.url);
  two = await run("2 processes + Redis", 2, redis.url);
} finally {
  await redis.stop();
}
print(`fan-out to ${SOCKETS} sockets (load average ${Deno.loadavg().map((l) => l.toFixed(1))})`);
print("| setup | one event to all, p50 | p90 | events/s to all | socket deliveries/s |");
print("| --- | --- | --- | --- | --- |");
for (const r of [one, oneRedis, two]) {
  print(
    `| ${r.label} | ${pct(r.latencies, 0.5).toFixed(0)} ms | ${
      pct(r.latencies, 0.9).toFixed(0)
    } ms | ` +
      `${r.eventsPerSecond.toFixed(0)} | ${(r.eventsPerSecond * SOCKETS).toFixed(0)} |`,
  );
}
const added = (r: Run) => (pct(r.latencies, 0.5) - pct(one.latencies, 0.5)).toFixed(0);
print(
  `p50 added against one process: the Redis hop ${added(oneRedis)} ms, two processes ${
    added(two)
  } ms`,
);
