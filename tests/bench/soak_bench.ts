/**
 * A message on screen under the load of a real day (issue 49 item 2): one server process
 * (main.ts, as `deno task start` runs it) on an empty data folder, real WebSockets, the simulator
 * provider, and at once:
 *
 * - inbound messages at SOAK_RATE per second (default 50) from SOAK_CONTACTS contacts (2,000),
 *   through the simulator's phone (POST /api/simulator/:id/messages), open loop;
 * - SOAK_ATTENDANTS attendants (10) accepting, replying to and resolving pending tickets through
 *   the API, a pause of SOAK_ATTENDANT_PAUSE_MS (500) between actions;
 * - SOAK_LISTERS list readers (16) on the pending/open/closed lists, SOAK_LIST_PAUSE_MS (200)
 *   between requests;
 * - a campaign of SOAK_CAMPAIGN (1,000) recipients, intervals 0, its list uploaded a fifth into
 *   the run (the number check and the dispatch follow as the jobs tick);
 * - a contact import of SOAK_IMPORT rows (5,000) half-way;
 * - SOAK_SOCKETS sockets (50; every one an attendant's tab, in a worker of this process);
 * - /healthz every 100 ms;
 *
 * for SOAK_SECONDS (300). Per SOAK_BUCKET_SECONDS (60) it prints p50/p95/p99 of inbound → the
 * first attendant socket's appMessage, of the lists, replies and /healthz, the server's RSS
 * (its process and children), errors, the event loop's lag, the database thread's queue and
 * the load average. The server's RSS is printed at rest before the load (after SOAK_REST_SECONDS,
 * 30) and 60 s after it (SOAK_AFTER_SECONDS). A quick run while developing:
 *
 *   SOAK_SECONDS=40 SOAK_BUCKET_SECONDS=10 SOAK_REST_SECONDS=5 SOAK_AFTER_SECONDS=10 \
 *     deno run -A tests/bench/soak_bench.ts
 *
 * Targets: inbound → socket p99 ≤ 25 ms every minute, lists p99 ≤ 20 ms, /healthz p99 ≤ 5 ms,
 * 0 errors; RSS 60 s after the load within 10% of its figure at rest.
 */
import { callMain } from "../helpers/main_process.ts";
import { workbook } from "../helpers/xlsx.ts";
import { loadAverage, login, mb, METRICS_TOKEN, print, startServer } from "./http_load.ts";
import { Series, threadCpu, treeRss } from "./soak_series.ts";

const env = (name: string, fallback: number) => Number(Deno.env.get(name) ?? fallback);
const SECONDS = env("SOAK_SECONDS", 300);
const BUCKET = env("SOAK_BUCKET_SECONDS", 60);
const RATE = env("SOAK_RATE", 50);
const CONTACTS = env("SOAK_CONTACTS", 2000);
const ATTENDANTS = env("SOAK_ATTENDANTS", 10);
const ATTENDANT_PAUSE = env("SOAK_ATTENDANT_PAUSE_MS", 500);
const LISTERS = env("SOAK_LISTERS", 16);
const LIST_PAUSE = env("SOAK_LIST_PAUSE_MS", 200);
const CAMPAIGN = env("SOAK_CAMPAIGN", 1000);
const IMPORT = env("SOAK_IMPORT", 5000);
const SOCKETS = env("SOAK_SOCKETS", 50);
const REST = env("SOAK_REST_SECONDS", 30);
const AFTER = env("SOAK_AFTER_SECONDS", 60);
const ADMIN = { email: "root@soak.bench", password: "root-password" };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const wallNow = () => performance.timeOrigin + performance.now();

const dir = await Deno.makeTempDir({ prefix: "balcao-soak-" });
const server = await startServer(dir, {
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  ...(Deno.env.get("SOAK_SERVER_ENV") ? JSON.parse(Deno.env.get("SOAK_SERVER_ENV")!) : {}),
});
const worker = new Worker(new URL("./soak_sockets_worker.ts", import.meta.url).href, {
  type: "module",
});
const fromWorker = (type: string) =>
  new Promise<Record<string, unknown>>((resolve) => {
    const listener = (e: MessageEvent) => {
      if (e.data.type !== type) return;
      worker.removeEventListener("message", listener);
      resolve(e.data);
    };
    worker.addEventListener("message", listener);
  });

const series = new Series(BUCKET);
/** A request through the API; a status outside 2xx is counted as an error of `kind`. */
async function api(
  kind: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown } | undefined> {
  const started = performance.now();
  try {
    const res = await callMain(server, method, path, token, body);
    series.add(kind, started, performance.now() - started);
    if (res.status >= 300) {
      series.error(started, `${kind} ${res.status} ${JSON.stringify(res.body)}`);
    }
    return res;
  } catch (error) {
    series.error(started, `${kind} ${(error as Error).message}`);
    return undefined;
  }
}

try {
  const admin = await login(server.url, ADMIN.email, ADMIN.password);
  const must = async (method: string, path: string, body?: unknown, token = admin) => {
    const res = await callMain(server, method, path, token, body);
    if (res.status >= 300) {
      throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    return res.body;
  };
  // The first company's plan allows 10 users: the bench's attendants need more.
  for (const plan of await must("GET", "/api/plans/all")) {
    await must("PUT", `/api/plans/${plan.id}`, { users: 1000, connections: 100, queues: 100 });
  }
  const queue = (await must("POST", "/api/queue", { name: "Atendimento", color: "#123456" })).id;
  const attendants: { id: number; token: string }[] = [];
  for (let i = 0; i < ATTENDANTS; i++) {
    const email = `attendant${i}@soak.bench`;
    const user = await must("POST", "/api/users", {
      name: `Attendant ${i}`,
      email,
      password: "secret1",
      profile: "user",
      queueIds: [queue],
    });
    attendants.push({ id: user.id, token: await login(server.url, email, "secret1") });
  }
  const whatsapp = (await must("POST", "/api/whatsapp", {
    name: "Soak",
    provider: "simulator",
    queueIds: [queue],
  })).id as number;
  for (let tries = 0;; tries++) {
    const res = await callMain(server, "POST", `/api/simulator/${whatsapp}/scan`, admin);
    if (res.status === 200) break;
    if (tries > 100) throw new Error(`scan: ${res.status} ${JSON.stringify(res.body)}`);
    await sleep(100);
  }
  await must("POST", "/api/campaign-settings", {
    settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0 },
  });

  const ready = fromWorker("ready");
  worker.postMessage({
    type: "start",
    wsUrl: server.url.replace("http", "ws"),
    sockets: Array.from({ length: SOCKETS }, (_, i) => ({
      token: attendants[i % ATTENDANTS].token,
      attendant: true,
    })),
  });
  await ready;

  print(`soak: server pid ${server.pid}, data ${dir}; at rest ${REST} s`);
  await sleep(REST * 1000);
  const rssAtRest = await treeRss(server.pid);
  print(`soak: RSS at rest ${mb(rssAtRest)} MB; load average ${loadAverage()}`);

  const cpuBefore = await threadCpu(server.pid);
  const t0 = performance.now();
  series.start(t0);
  const end = t0 + SECONDS * 1000;
  const running = () => performance.now() < end;

  // Inbound: open loop at RATE, each message stamped with its sequence and send time (a slow
  // server never slows the phones down: nothing here waits for an answer before the next send).
  const sentAt = new Map<number, number>();
  const inbound = (async () => {
    const inflight: Promise<unknown>[] = [];
    for (let seq = 0; running(); seq++) {
      const due = t0 + (seq * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 1) await sleep(wait);
      if (!running()) break;
      const contact = (seq * 7919) % CONTACTS;
      sentAt.set(seq, performance.now());
      inflight.push(api("inbound", admin, "POST", `/api/simulator/${whatsapp}/messages`, {
        from: `55119${20_000_000 + contact}`,
        name: `Cliente ${contact}`,
        body: `soak|${seq}|${wallNow()}| mensagem ${seq}`,
      }));
    }
    await Promise.all(inflight);
  })();

  // Attendants: each takes the pending tickets whose id falls to it (no two race for one).
  const attending = attendants.map(async (me, k) => {
    await sleep((k * ATTENDANT_PAUSE) / ATTENDANTS);
    while (running()) {
      const list = await api("list", me.token, "GET", "/api/tickets?status=pending&showAll=false");
      const tickets = ((list?.body as { tickets?: { id: number }[] })?.tickets ?? [])
        .filter((t) => t.id % ATTENDANTS === k);
      const ticket = tickets[0];
      await sleep(ATTENDANT_PAUSE);
      if (!ticket) continue;
      await api("accept", me.token, "PUT", `/api/tickets/${ticket.id}`, {
        status: "open",
        userId: me.id,
      });
      await sleep(ATTENDANT_PAUSE);
      if (!running()) break;
      await api("reply", me.token, "POST", `/api/messages/${ticket.id}`, {
        body: "Olá! Como posso ajudar?",
      });
      await sleep(ATTENDANT_PAUSE);
      if (!running()) break;
      await api("resolve", me.token, "PUT", `/api/tickets/${ticket.id}`, { status: "closed" });
      await sleep(ATTENDANT_PAUSE);
    }
  });

  const lists = [
    "status=pending&showAll=true",
    "status=open&showAll=true",
    "status=closed&showAll=true",
  ];
  const listing = Array.from({ length: LISTERS }, async (_, i) => {
    await sleep((i * LIST_PAUSE) / LISTERS);
    for (let n = i; running(); n++) {
      const token = i % 2 ? admin : attendants[i % ATTENDANTS].token;
      await api("list", token, "GET", `/api/tickets?${lists[n % lists.length]}`);
      await sleep(LIST_PAUSE);
    }
  });

  const health = (async () => {
    while (running()) {
      const started = performance.now();
      try {
        const res = await fetch(`${server.url}/healthz`);
        await res.arrayBuffer();
        series.add("healthz", started, performance.now() - started);
        if (!res.ok) series.error(started, `healthz ${res.status}`);
      } catch (error) {
        series.error(started, `healthz ${(error as Error).message}`);
      }
      await sleep(100);
    }
  })();

  const campaign = (async () => {
    if (!CAMPAIGN) return;
    await sleep(SECONDS * 200);
    const list = (await must("POST", "/api/contact-lists", { name: "Soak" })).id;
    const form = new FormData();
    const rows = function* () {
      yield `<row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c><c r="B1" t="inlineStr"><is><t>number</t></is></c></row>`;
      for (let r = 2; r < CAMPAIGN + 2; r++) {
        yield `<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>Destino ${r}</t></is></c><c r="B${r}"><v>55119${
          30_000_000 + r
        }</v></c></row>`;
      }
    };
    form.append("file", new File([await workbook(rows()) as BlobPart], "campanha.xlsx"));
    const started = performance.now();
    const res = await fetch(`${server.url}/api/contact-lists/${list}/upload`, {
      method: "POST",
      headers: { authorization: `Bearer ${admin}` },
      body: form,
    });
    await res.arrayBuffer();
    if (!res.ok) series.error(started, `campaign list upload ${res.status}`);
    series.mark(started, "campaign list");
    await must("POST", "/api/campaigns", {
      name: "Soak",
      message1: "Olá {nome}, temos novidades!",
      whatsappId: whatsapp,
      contactListId: list,
      scheduledAt: new Date().toISOString(),
    });
  })();

  const importing = (async () => {
    if (!IMPORT) return;
    await sleep(SECONDS * 500);
    const form = new FormData();
    const rows = function* () {
      yield `<row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c><c r="B1" t="inlineStr"><is><t>number</t></is></c></row>`;
      for (let r = 2; r < IMPORT + 2; r++) {
        yield `<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>Importado ${r}</t></is></c><c r="B${r}"><v>55119${
          40_000_000 + r
        }</v></c></row>`;
      }
    };
    form.append("file", new File([await workbook(rows()) as BlobPart], "contatos.xlsx"));
    const started = performance.now();
    series.mark(started, "import");
    const res = await fetch(`${server.url}/api/contacts/import`, {
      method: "POST",
      headers: { authorization: `Bearer ${admin}` },
      body: form,
    });
    const text = await res.text();
    if (!res.ok) series.error(started, `import ${res.status} ${text.slice(0, 200)}`);
    print(
      `soak: import of ${IMPORT} rows answered in ${
        ((performance.now() - started) / 1000).toFixed(1)
      } s`,
    );
  })();

  // Per second: the server's RSS, its /metrics (event loop lag, database queue), load average.
  const sampling = (async () => {
    while (running()) {
      const at = performance.now();
      series.add("rss", at, await treeRss(server.pid).catch(() => NaN));
      const metrics = await fetch(`${server.url}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      }).then((r) => r.text()).catch(() => "");
      const metric = (name: string) =>
        Number(new RegExp(`^${name} (\\S+)`, "m").exec(metrics)?.[1]);
      series.add("dbQueue", at, metric("balcao_db_thread_queue_depth"));
      series.add("lagMax", at, metric("balcao_nodejs_eventloop_lag_max_seconds") * 1000);
      series.add("load", at, Deno.loadavg()[0]);
      const statements = new Map<string, number>();
      for (
        const m of metrics.matchAll(
          /^balcao_db_statement_seconds_total\{statement="([^"]*)",part="(\w+)"\} (\S+)$/gm,
        )
      ) statements.set(`${m[1]}|${m[2]}`, Number(m[3]));
      series.snapshot(at, statements);
      const cpu = await threadCpu(server.pid).catch(() => new Map<string, number>());
      for (const [name, used] of cpu) {
        series.add(`cpu:${name}`, at, used - (cpuBefore.get(name) ?? 0));
      }
      await sleep(1000);
    }
  })();

  await Promise.all([inbound, ...attending, ...listing, health, campaign, importing, sampling]);
  await sleep(2000);
  const collected = fromWorker("samples");
  worker.postMessage({ type: "collect" });
  const { samples, closed } = await collected as { samples: [number, number][]; closed: number };
  for (const [seq, ms] of samples) {
    const at = sentAt.get(seq);
    if (at !== undefined) series.add("socket", at, ms);
    sentAt.delete(seq);
  }
  for (const at of sentAt.values()) {
    series.error(at, "inbound message heard by no attendant socket");
  }
  if (closed) series.error(performance.now(), `${closed} sockets closed by the server`);

  print("");
  print(
    `soak: ${SECONDS} s, ${RATE} msg/s from ${CONTACTS} contacts, ${ATTENDANTS} attendants, ` +
      `${LISTERS} list readers, campaign ${CAMPAIGN}, import ${IMPORT}, ${SOCKETS} sockets`,
  );
  series.report(print);
  print(`soak: RSS at rest ${mb(rssAtRest)} MB`);
  await sleep(AFTER * 1000);
  const rssAfter = await treeRss(server.pid);
  print(
    `soak: RSS ${AFTER} s after the load ${mb(rssAfter)} MB (${
      ((rssAfter / rssAtRest - 1) * 100).toFixed(1)
    }% of rest; target ≤ +10%); load average ${loadAverage()}`,
  );
} finally {
  const stopped = fromWorker("stopped");
  worker.postMessage({ type: "stop" });
  await Promise.race([stopped, sleep(2000)]);
  worker.terminate();
  await server.stop();
  await Deno.remove(dir, { recursive: true });
}
