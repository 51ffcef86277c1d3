/**
 * Issue 47: `balcao import whaticket` on a generated whaticket-community database of 100,000
 * tickets and 1,000,000 messages (WHATICKET_BENCH_TICKETS / WHATICKET_BENCH_MESSAGES to change),
 * on a real PostgreSQL; prints the time, the rate and the importer's peak RSS (VmHWM). Targets:
 * at most 2 minutes and 300 MB on the 2-core machine.
 */
import { startPostgres } from "../helpers/postgres_server.ts";
import { createSourceSchema, fillCommunity } from "../helpers/whaticket_source.ts";

// deno-lint-ignore no-console
const say = (line: string) => console.log(line);
const ROOT = new URL("../../", import.meta.url).pathname;
const tickets = Number(Deno.env.get("WHATICKET_BENCH_TICKETS") ?? 100_000);
const messages = Number(Deno.env.get("WHATICKET_BENCH_MESSAGES") ?? 1_000_000);

const pg = await startPostgres();
const dataDir = await Deno.makeTempDir({ prefix: "balcao-import-bench-" });
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
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/import_whaticket.ts", "--from", url],
    cwd: ROOT,
    env: { DATA_DIR: dataDir, LOG_LEVEL: "warn", ADMIN_PASSWORD: "bench-password-1" },
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  let peakKb = 0;
  const watch = setInterval(() => {
    try {
      const status = Deno.readTextFileSync(`/proc/${child.pid}/status`);
      peakKb = Math.max(peakKb, Number(status.match(/VmHWM:\s+(\d+)/)?.[1] ?? 0));
    } catch {
      // gone
    }
  }, 200);
  const out = await child.output();
  clearInterval(watch);
  const seconds = (performance.now() - started) / 1000;
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) throw new Error(`import failed:\n${text}`);
  say(text.split("\n").filter((l) => /tickets:|messages:/.test(l)).join("\n"));
  say(
    `import: ${seconds.toFixed(1)} s, ${
      Math.round((tickets + messages) / seconds)
    } rows/s (tickets + messages), peak RSS ${(peakKb / 1024).toFixed(0)} MB` +
      ` (targets: 120 s, 300 MB at 100k / 1M)`,
  );
} finally {
  await pg.stop();
  await Deno.remove(dataDir, { recursive: true }).catch(() => {});
}
