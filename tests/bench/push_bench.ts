/**
 * Issue 42: pushing to 1,000 subscriptions does not delay inbound messages. One app (the real
 * wiring, a libSQL file), 50 attendants of one queue with 20 devices each, a fake push service
 * (tests/fakes/push_service.ts) on loopback. A new waiting ticket queues 1,000 pushes; while the
 * `push` job's tick encrypts and sends them, a contact writes BENCH_PUSH_MESSAGES (default 40)
 * messages one after another, each timed from the simulator's POST to its stored receipt. The
 * same messages are timed with no push in flight first. Prints the medians and p90s, and how
 * long the 1,000 pushes took. Encryption runs on the tick's own thread (server/push/encrypter.ts).
 *
 *   deno run -A tests/bench/push_bench.ts
 */
import { createCompany, createTestApp, createUser } from "../helpers/app.ts";
import { addQueue } from "../helpers/tickets.ts";
import { connectSimulator, phoneSends } from "../whatsapp/helpers.ts";
import { FakePushService, PushDevice } from "../fakes/push_service.ts";
import { pushCapture } from "../../server/push/capture.ts";
import { sendDuePushes } from "../../server/push/send.ts";

const MESSAGES = Number(Deno.env.get("BENCH_PUSH_MESSAGES") ?? 40);
const USERS = 50;
const DEVICES_PER_USER = 20;
const encoder = new TextEncoder();
const print = (line: string) => Deno.stdout.writeSync(encoder.encode(`${line}\n`));
const quantile = (values: number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

const service = new FakePushService();
const t = await createTestApp({ INTEGRATIONS_ALLOW_PRIVATE_URLS: "true", LOG_LEVEL: "warn" });
try {
  const c = await createCompany(t, "Bench");
  const queueId = await addQueue(t, c.id, "Vendas");
  const whatsappId = await connectSimulator(t, c, { queueIds: [queueId] });
  for (let u = 0; u < USERS; u++) {
    const user = await createUser(t, c.id, {
      name: `Atendente ${u}`,
      email: `a${u}@bench.test`,
      queueIds: [queueId],
    });
    for (let d = 0; d < DEVICES_PER_USER; d++) {
      const res = await t.request("POST", "/api/push/subscriptions", {
        token: user.token,
        body: new PushDevice(service).subscription(),
      });
      if (res.status !== 201) throw new Error(`subscribe: ${res.status} ${await res.text()}`);
    }
  }
  // The contact whose messages are timed: its ticket exists already (no new-ticket push).
  await phoneSends(t, c.admin.token, whatsappId, {
    from: "5511900000001",
    name: "Eva",
    body: "oi",
  });
  await pushCapture(t.deps.events)!.idle();
  await sendDuePushes(t.deps);
  service.received.length = 0;

  const timeMessages = async (label: string) => {
    const times: number[] = [];
    for (let i = 0; i < MESSAGES; i++) {
      const start = performance.now();
      const got = await phoneSends(t, c.admin.token, whatsappId, {
        from: "5511900000001",
        name: "Eva",
        body: `${label} ${i}`,
      });
      if (got.status !== 201) throw new Error(`inbound: ${JSON.stringify(got)}`);
      times.push(performance.now() - start);
    }
    return times;
  };

  const quiet = await timeMessages("sem push");
  // A new waiting ticket: 1,000 pushes queued, sent by the job's tick while messages come in.
  await phoneSends(t, c.admin.token, whatsappId, {
    from: "5511900000002",
    name: "Ivo",
    body: "oi",
  });
  await pushCapture(t.deps.events)!.idle();
  const pushStart = performance.now();
  let pushMs = 0;
  const pushing = sendDuePushes(t.deps).then((n) => {
    pushMs = performance.now() - pushStart;
    return n;
  });
  // Timed only once pushes arrive at the push service: not while the job is still starting.
  while (service.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  const before = service.received.length;
  const busy = await timeMessages("com push");
  const during = service.received.length - before;
  // The figures count only if the pushes were still going when the last message was stored.
  const overlapped = pushMs === 0;
  const sent = await pushing;

  print(`push bench: ${USERS * DEVICES_PER_USER} subscriptions, ${MESSAGES} inbound messages`);
  print(`  pushes sent: ${sent} in ${pushMs.toFixed(0)} ms (${service.received.length} received)`);
  print(
    `  pushes sent while the messages were timed: ${during}; still in flight after the last: ${
      overlapped ? "yes" : "no"
    }`,
  );
  for (const [label, times] of [["no push in flight", quiet], ["1,000 pushes in flight", busy]]) {
    print(
      `  inbound ${label}: median ${quantile(times as number[], 0.5).toFixed(1)} ms, p90 ${
        quantile(times as number[], 0.9).toFixed(1)
      } ms`,
    );
  }
} finally {
  await t.close();
  await service.close();
}
