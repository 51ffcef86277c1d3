/**
 * Issue 47: `balcao import whaticket` on a generated whaticket-community database of 100,000
 * tickets and 1,000,000 messages (WHATICKET_BENCH_TICKETS / WHATICKET_BENCH_MESSAGES to change),
 * on a real PostgreSQL, twice: the derived tables filled per batch (the importer's way), then by
 * the row triggers (WHATICKET_BENCH_WAYS=batch,rows); prints per way the time, the rate, the
 * importer's CPU seconds and peak RSS (VmHWM), and the load average around it. Targets:
 * at most 2 minutes and 300 MB on the 2-core machine.
 */
import { startPostgres } from "../helpers/postgres_server.ts";
import { createSourceSchema, fillCommunity } from "../helpers/whaticket_source.ts";

// deno-lint-ignore no-console
const say = (line: string) => console.log(line);
const ROOT = new URL("../../", import.meta.url).pathname;
const tickets = Number(Deno.env.get("WHATICKET_BENCH_TICKETS") ?? 100_000);
const messages = Number(Deno.env.get("WHATICKET_BENCH_MESSAGES") ?? 1_000_000);
const profile = Deno.env.get("WHATICKET_BENCH_PROFILE");

async function importOnce(url: string, dataDir: string, way: string) {
  const load = () => Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ");
  const loadBefore = load();
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      // As `deno task import:whaticket` runs it: V8 collects before its heap grows past this.
      "--v8-flags=--max-old-space-size=160,--max-semi-space-size=4",
      // WHATICKET_BENCH_PROFILE=<dir>: a V8 CPU profile of the importer's main thread there.
      ...(profile ? ["--cpu-prof", `--cpu-prof-dir=${profile}`] : []),
      "scripts/import_whaticket.ts",
      "--from",
      url,
    ],
    cwd: ROOT,
    env: {
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      ADMIN_PASSWORD: "bench-password-1",
      IMPORT_DERIVED_BY: way,
    },
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let peakKb = 0, cpuTicks = 0;
  const watch = setInterval(() => {
    try {
      const status = Deno.readTextFileSync(`/proc/${child.pid}/status`);
      peakKb = Math.max(peakKb, Number(status.match(/VmHWM:\s+(\d+)/)?.[1] ?? 0));
      // utime + stime of the importer (all its threads), in clock ticks (100 a second).
      const stat = Deno.readTextFileSync(`/proc/${child.pid}/stat`).split(") ")[1].split(" ");
      cpuTicks = Number(stat[11]) + Number(stat[12]);
    } catch {
      // gone
    }
  }, 200);
  const out = await child.output();
  clearInterval(watch);
  const seconds = (performance.now() - started) / 1000;
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) throw new Error(`import failed:\n${text}`);
  say(text.split("\n").filter((l) => /^ {2}(tickets|messages):/.test(l)).join("\n"));
  say(
    `derived tables by ${way === "rows" ? "row triggers" : "batch"}: ${seconds.toFixed(1)} s, ${
      Math.round(messages / seconds)
    } messages/s, importer CPU ${(cpuTicks / 100).toFixed(1)} s, peak RSS ${
      (peakKb / 1024).toFixed(0)
    } MB; load average ${loadBefore} before, ${load()} after` +
      ` (targets: 120 s, 300 MB at 100k / 1M)`,
  );
}

const pg = await startPostgres();
try {
  const url = await createSourceSchema(pg, "community");
  await fillCommunity(pg, url);
  const name = new URL(url).pathname.slice(1);
  const contacts = Math.max(1, Math.floor(tickets / 2));
  const made = performance.now();
  await pg.psql(
    name,
    `INSERT INTO "Contacts" ("id", "name", "number", "createdAt", "updatedAt")
       SELECT 100 + g, 'Contato ' || g, '5521' || lpad(g::text, 9, '0'), now(), now()
       FROM generate_series(1, ${contacts}) g;
     INSERT INTO "Tickets" ("id", "status", "lastMessage", "contactId", "userId", "queueId",
       "whatsappId", "unreadMessages", "createdAt", "updatedAt")
       SELECT 100 + g, 'closed', 'última', 100 + (g % ${contacts}) + 1, 1 + g % 2, 1 + g % 2, 1, 0,
         timestamp '2024-01-01' + g * interval '5 minutes',
         timestamp '2024-01-01' + g * interval '5 minutes' + interval '30 minutes'
       FROM generate_series(1, ${tickets}) g;
     INSERT INTO "Messages" ("id", "body", "ack", "read", "ticketId", "createdAt", "updatedAt",
       "fromMe", "contactId")
       SELECT 'B' || g, 'mensagem número ' || g || ' sobre o pedido', 3, true,
         100 + (g % ${tickets}) + 1, timestamp '2024-01-01' + g * interval '30 seconds',
         timestamp '2024-01-01' + g * interval '30 seconds', g % 2 = 0, NULL
       FROM generate_series(1, ${messages}) g;
     ANALYZE`,
  );
  say(
    `source: ${tickets} tickets, ${messages} messages made in ${
      ((performance.now() - made) / 1000).toFixed(1)
    } s`,
  );
  // Both ways of filling the derived tables (issue 47 item 4): per batch, set-based (the
  // importer's way), then by the row triggers; each into a fresh data folder.
  const ways = (Deno.env.get("WHATICKET_BENCH_WAYS") ?? "batch,rows").split(",");
  for (const way of ways) {
    const dataDir = await Deno.makeTempDir({ prefix: "balcao-import-bench-" });
    try {
      await importOnce(url, dataDir, way);
    } finally {
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  }
} finally {
  await pg.stop();
}
