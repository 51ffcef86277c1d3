import { benchDataDir, cpuMsOf, httpLoad, login, METRICS_TOKEN, startServer } from "./http_load.ts";
const V8 = (Deno.env.get("V8") ?? "").split(",").filter(Boolean);
const bench = (await benchDataDir())!;
const { PASSWORD } = await import("./tickets_data.ts");
const server = await startServer(bench.dir, { PROBE_WORKER_MEM: "1" }, V8);
const status = async () => {
  const s = await Deno.readTextFile(`/proc/${server.pid}/status`);
  const f = (n: string) => Math.round(Number(new RegExp(`${n}:\\s+(\\d+)`).exec(s)?.[1]) / 1024);
  return `rss ${f("VmRSS")} anon ${f("RssAnon")} file ${f("RssFile")} thr ${
    /Threads:\s+(\d+)/.exec(s)?.[1]
  }`;
};
const heap = async () => {
  const t = await (await fetch(`${server.url}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  })).text();
  const m = (n: string) =>
    Math.round(Number(new RegExp(`^${n} (\\S+)`, "m").exec(t)?.[1]) / 1048576);
  return `heap ${m("balcao_nodejs_heap_size_used_bytes")}/${
    m("balcao_nodejs_heap_size_total_bytes")
  } ext ${m("balcao_nodejs_external_memory_bytes")}`;
};
console.log("start", await status(), await heap());
await new Promise((r) => setTimeout(r, 5000));
console.log("idle", await status(), await heap());
const token = await login(server.url, bench.adminEmail, PASSWORD);
const threads = async () => {
  const out: Record<string, number> = {};
  for await (const e of Deno.readDir(`/proc/${server.pid}/task`)) {
    try {
      const st = await Deno.readTextFile(`/proc/${server.pid}/task/${e.name}/stat`);
      const name = st.slice(st.indexOf("(") + 1, st.lastIndexOf(")"));
      const f = st.slice(st.lastIndexOf(")") + 2).split(" ");
      out[name + ":" + e.name] = (Number(f[11]) + Number(f[12])) * 10;
    } catch { /**/ }
  }
  return out;
};
const th0 = await threads();
const t0 = Date.now();
const c0 = await cpuMsOf(server.pid);
let peak = 0;
const sampler = setInterval(async () => {
  const st = await status();
  peak = Math.max(peak, Number(/rss (\d+)/.exec(st)![1]));
  if (Deno.env.get("VERBOSE")) console.log(st);
}, 500);
const path = Deno.env.get("PATH_Q") ?? "/api/tickets?status=open&showAll=true&pageNumber=1";
const r = await httpLoad(server.url, token, () => path, {
  clients: 16,
  seconds: Number(Deno.env.get("SECS") ?? 20),
});
clearInterval(sampler);
const th1 = await threads();
const diffs = Object.entries(th1).map(([k, v]) => [k, v - (th0[k] ?? 0)] as const).filter(([, v]) =>
  v > 50
).sort((a, b) => b[1] - a[1]);
console.log(diffs.map(([k, v]) => `${k.split(":")[0]} ${(v / r.requests).toFixed(3)}`).join(" | "));
console.log(
  "end",
  await status(),
  await heap(),
  r.perSecond.toFixed(0),
  "req/s",
  "peak",
  peak,
  "cpu/req",
  ((await cpuMsOf(server.pid) - c0) / r.requests).toFixed(2),
);
await new Promise((r) => setTimeout(r, 10000));
console.log("after", await status(), await heap());
if (Deno.env.get("SMAPS")) console.log(await Deno.readTextFile(`/proc/${server.pid}/smaps_rollup`));
await server.stop();
