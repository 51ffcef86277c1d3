/**
 * Inbound WhatsApp throughput (issue 3): messages delivered by the simulator go through the real
 * pipeline (dedupe, contact, ticket, store, events) while 50 WebSocket clients listen on a real
 * port. Prints messages per second and p50/p99 from the provider event to socket delivery.
 * Target on a 2-core machine: at least 1,000 messages/s with p99 at most 100 ms.
 *
 * Phases: every contact's first message (opens a ticket); saturation (64 messages in flight);
 * a steady offered rate of 1,000/s; a steady rate of half what saturation reached. "published"
 * is when the hub hands the event to the sockets (pipeline latency); "socket" is when the
 * listening clients (in a worker, on the other core) received it. The load average is printed:
 * figures from a machine shared with other work are not the machine's capacity.
 */
import { createCompany, createTestApp, createUser } from "../helpers/app.ts";
import { serve } from "../helpers/server.ts";
import { measureOutgoingNotes } from "./outgoing_cost.ts";
import type { SimulatorProvider } from "../../server/whatsapp/providers/simulator/provider.ts";

const SOCKETS = Number(Deno.env.get("BENCH_SOCKETS") ?? 50);
const CONTACTS = 200;
const SATURATION_MESSAGES = 6000;
const WINDOW = 64;
const OPEN_LOOP_RATE = 1000;
const OPEN_LOOP_SECONDS = 5;

function now() {
  return performance.timeOrigin + performance.now();
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** CPU ticks (1/100 s) used so far by each thread of this process, by thread id. */
async function threadTicks(): Promise<Map<string, { name: string; ticks: number }>> {
  const out = new Map<string, { name: string; ticks: number }>();
  try {
    for await (const task of Deno.readDir("/proc/self/task")) {
      const stat = await Deno.readTextFile(`/proc/self/task/${task.name}/stat`).catch(() => "");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      // utime and stime are fields 14 and 15 of stat, 12 and 13 after the name
      if (fields.length > 13) {
        out.set(task.name, { name, ticks: Number(fields[11]) + Number(fields[12]) });
      }
    }
  } catch {
    // not Linux: no per-thread figures
  }
  return out;
}

/** Milliseconds of CPU per message for the main thread and the busiest other threads. */
function cpuPerMessage(
  before: Map<string, { name: string; ticks: number }>,
  after: Map<string, { name: string; ticks: number }>,
  messages: number,
): string {
  const used: { label: string; ms: number }[] = [];
  for (const [tid, end] of after) {
    const ms = (end.ticks - (before.get(tid)?.ticks ?? 0)) * 10;
    if (ms <= 0) continue;
    used.push({ label: tid === String(Deno.pid) ? "main" : `${end.name}#${tid}`, ms });
  }
  used.sort((a, b) => b.ms - a.ms);
  return used.slice(0, 4).map((u) => `${u.label} ${(u.ms / messages).toFixed(3)}`).join(", ");
}

function phoneOf(i: number) {
  return `55119${String(10000000 + i).padStart(8, "0")}`;
}

const t = await createTestApp({ LOG_LEVEL: "warn" });
const server = serve(t);
const worker = new Worker(new URL("./whatsapp_sockets_worker.ts", import.meta.url).href, {
  type: "module",
});
const fromWorker = (type: string) =>
  new Promise<Record<string, unknown>>((resolve) => {
    const listener = (e: MessageEvent) => {
      if (e.data.type === type) {
        worker.removeEventListener("message", listener);
        resolve(e.data);
      }
    };
    worker.addEventListener("message", listener);
  });

try {
  const company = await createCompany(t, "Bench");
  const now0 = t.clock.now().toISOString();
  const queue = await t.deps.db.insertInto("queues").values({
    companyId: company.id,
    name: "Atendimento",
    color: "#123456",
    orderQueue: 1,
    integrationId: null,
    promptId: null,
    mediaPath: null,
    mediaName: null,
    createdAt: now0,
    updatedAt: now0,
  }).returning("id").executeTakeFirstOrThrow();
  const attendant = await createUser(t, company.id, {
    name: "Attendant",
    email: "attendant@bench.test",
    queueIds: [queue.id],
  });
  const created = await t.request("POST", "/api/whatsapp", {
    token: company.admin.token,
    body: { name: "Bench", provider: "simulator", queueIds: [queue.id] },
  });
  const { id: whatsappId } = await created.json();
  await t.request("POST", `/api/simulator/${whatsappId}/scan`, { token: company.admin.token });
  const phone = t.deps.simulator.phone(whatsappId) as SimulatorProvider;

  const tokens = Array.from(
    { length: SOCKETS },
    (_, i) => i % 2 === 0 ? company.admin.token : attendant.token,
  );
  const ready = fromWorker("ready");
  worker.postMessage({ type: "start", wsUrl: server.wsUrl, tokens });
  await ready;

  // An in-process listener too: the time the hub hands the event to the sockets ("published")
  // separates the pipeline's latency from the sockets' delivery.
  const publishedSamples: number[] = [];
  const probe = t.deps.hub.add({
    companyId: company.id,
    userId: company.admin.id,
    profile: "admin",
    queueIds: [],
  }, {
    send(text: string) {
      const at = text.indexOf("bench|");
      if (at < 0 || !text.includes('"action":"create"')) return;
      publishedSamples.push(now() - Number(text.slice(at + 6, text.indexOf("|", at + 6))));
    },
    close() {},
  });
  t.deps.hub.join(probe, { kind: "status", status: "pending" });

  let seq = 0;
  const send = (contact: number) => {
    const from = phoneOf(contact);
    return phone.receive({
      chatJid: `${from}@s.whatsapp.net`,
      phoneJid: `${from}@s.whatsapp.net`,
      pushName: `Contact ${contact}`,
      body: `bench|${now()}| message ${seq++}`,
    });
  };
  const collect = async () => {
    const reply = fromWorker("samples");
    worker.postMessage({ type: "collect" });
    const data = await reply;
    return {
      socket: (data.samples as number[]).sort((a, b) => a - b),
      published: publishedSamples.splice(0).sort((a, b) => a - b),
    };
  };
  const settle = () => new Promise((r) => setTimeout(r, 300));

  // Phase 0: every contact's first message (new contact + new ticket), closed loop.
  let started = performance.now();
  await Promise.all(Array.from({ length: CONTACTS }, (_, i) => send(i)));
  const firstRate = CONTACTS / ((performance.now() - started) / 1000);
  await settle();
  await collect();

  // Phase 1: saturation, a window of WINDOW messages in flight, existing tickets.
  const ticksBefore = await threadTicks();
  started = performance.now();
  let issued = 0;
  const lane = async () => {
    while (issued < SATURATION_MESSAGES) {
      const n = issued++;
      await send(n % CONTACTS);
    }
  };
  await Promise.all(Array.from({ length: WINDOW }, lane));
  const saturationSeconds = (performance.now() - started) / 1000;
  const saturationCpu = cpuPerMessage(ticksBefore, await threadTicks(), SATURATION_MESSAGES);
  await settle();
  const saturation = await collect();

  // Phase 2: open loop at a fixed offered rate: the latency a steady load sees. First the
  // target rate, then half of what saturation reached (a load this machine can sustain).
  const steady = async (rate: number) => {
    const count = Math.round(rate * OPEN_LOOP_SECONDS);
    const inflight: Promise<unknown>[] = [];
    const begin = performance.now();
    for (let i = 0; i < count; i++) {
      const due = begin + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      inflight.push(send(i % CONTACTS));
    }
    await Promise.all(inflight);
    const seconds = (performance.now() - begin) / 1000;
    await settle();
    return { count, rate: count / seconds, samples: await collect() };
  };
  const target = await steady(OPEN_LOOP_RATE);
  const halfRate = Math.max(10, Math.floor(SATURATION_MESSAGES / saturationSeconds / 2));
  const half = await steady(halfRate);

  const stored = await t.deps.db.selectFrom("messages").select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  const fmt = (n: number) => n.toFixed(1);
  const figures = (s: { socket: number[]; published: number[] }) => [
    fmt(percentile(s.published, 50)),
    fmt(percentile(s.published, 99)),
    String(s.socket.length),
    fmt(percentile(s.socket, 50)),
    fmt(percentile(s.socket, 99)),
  ];
  const rows = [
    [
      "phase",
      "messages",
      "msg/s",
      "published p50 ms",
      "p99 ms",
      "socket deliveries",
      "socket p50 ms",
      "p99 ms",
    ],
    ["new contacts (ticket opened)", String(CONTACTS), fmt(firstRate), "-", "-", "-", "-", "-"],
    [
      `saturation (${WINDOW} in flight)`,
      String(SATURATION_MESSAGES),
      fmt(SATURATION_MESSAGES / saturationSeconds),
      ...figures(saturation),
    ],
    [
      `steady ${OPEN_LOOP_RATE} msg/s offered`,
      String(target.count),
      fmt(target.rate),
      ...figures(target.samples),
    ],
    [
      `steady ${halfRate} msg/s offered (half)`,
      String(half.count),
      fmt(half.rate),
      ...figures(half.samples),
    ],
  ];
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const lines = rows.map((r) => r.map((cell, c) => cell.padEnd(widths[c])).join("  "));
  const out = [
    "",
    `WhatsApp inbound (simulator -> pipeline -> ${SOCKETS} sockets), ${CONTACTS} contacts, ${
      Number(stored.n)
    } messages stored`,
    ...lines,
    "",
  ].join("\n");
  await Deno.stdout.write(
    new TextEncoder().encode(
      out +
        `load average ${
          (await Deno.readTextFile("/proc/loadavg").catch(() => "?")).split(" ").slice(0, 3).join(
            " ",
          )
        } on ${navigator.hardwareConcurrency} cores\n` +
        `CPU ms per message at saturation (thread: ms): ${saturationCpu}\n` +
        // Each inbound message notes two events (issue 43 item 2(c)): what one note costs.
        `${await measureOutgoingNotes(t)}\n`,
    ),
  );
  t.deps.hub.remove(probe);
} finally {
  const stopped = fromWorker("stopped");
  worker.postMessage({ type: "stop" });
  await stopped;
  worker.terminate();
  t.deps.hub.closeAll();
  await server.close();
  await t.close();
}
