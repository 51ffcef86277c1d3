/**
 * What browser sockets cost one process (docs/scaling.md): the server's resident memory with
 * 1,000 and then 4,000 sockets open, and the time to fan one event out to all of them (publish
 * to the last socket's receipt, clients in another process). BENCH_SOCKET_STEPS overrides.
 */
import { createCompany, createTestApp } from "../helpers/app.ts";
import { serve } from "../helpers/server.ts";

const STEPS = (Deno.env.get("BENCH_SOCKET_STEPS") ?? "1000,4000").split(",").map(Number);
const encoder = new TextEncoder();
const print = (line: string) => Deno.stdout.writeSync(encoder.encode(`${line}\n`));
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

const t = await createTestApp();
const server = serve(t);
const company = await createCompany(t, "Sockets");
const rss = () => Deno.memoryUsage().rss;
const base = rss();
print(`server rss with no socket: ${mb(base)} MB`);

for (const count of STEPS) {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("./sockets_clients.ts", import.meta.url).pathname,
      server.wsUrl,
      company.admin.token,
      String(count),
    ],
    stdout: "piped",
  }).spawn();
  const lines = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
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
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const held = rss();
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    t.deps.hub.publish(company.id, "tag", { action: "update", record: { id: i, name: "x" } });
    await next();
    times.push(performance.now() - t0);
  }
  times.sort((x, y) => x - y);
  print(
    `${count} sockets: hub ${t.deps.hub.size}, server rss ${mb(held)} MB ` +
      `(+${((held - base) / count / 1024).toFixed(1)} KB per socket), ` +
      `one event to all: median ${times[2].toFixed(0)} ms, max ${times[4].toFixed(0)} ms`,
  );
  child.kill("SIGTERM");
  await child.status;
  await lines.cancel().catch(() => {});
  while (t.deps.hub.size > 0) await new Promise((resolve) => setTimeout(resolve, 50));
}
await server.close();
await t.close();
