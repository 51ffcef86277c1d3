/**
 * Automatic distribution under a burst (issue 26): 1,000 new conversations arrive at once
 * through the simulator across 20 connections, each routing to its own queue (20 queues), with
 * 100 attendants online (5 per queue, capacity 15). Measured twice on fresh databases: with the
 * queues' distribution "off" (today: tickets wait in 'Aguardando') and "least_busy".
 *
 * Prints: the inbound rate (first messages per second until every message is stored) in both
 * runs and the loss; the rate until every ticket is also given to an attendant; the distribution
 * decision's p50/p95/max (from ticket.created to ticket.assigned: the time a ticket waits for its
 * attendant, including the queue of decisions before it in its company). Target: no more than
 * 10% of the inbound rate lost. Attendants are marked online in the database (users.online, what
 * a socket's presence writes) rather than through 100 sockets, to measure distribution alone.
 */
import { createCompany, createTestApp, type TestApp } from "../helpers/app.ts";
import type { SimulatorProvider } from "../../server/whatsapp/providers/simulator/provider.ts";
import { hashPassword } from "../../server/auth/passwords.ts";

const QUEUES = 20;
const ATTENDANTS_PER_QUEUE = 5;
const CONVERSATIONS = 1000;
const CAPACITY = 15;

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function scene(t: TestApp, distribution: "off" | "least_busy") {
  const company = await createCompany(t, "Bench");
  const stamp = t.clock.now().toISOString();
  const passwordHash = await hashPassword("password1", 4);
  const phones: SimulatorProvider[] = [];
  for (let q = 0; q < QUEUES; q++) {
    const queue = await t.deps.db.insertInto("queues").values({
      companyId: company.id,
      name: `Fila ${q}`,
      color: `#${(0x100000 + q * 4099).toString(16).slice(-6)}`,
      orderQueue: q,
      integrationId: null,
      promptId: null,
      mediaPath: null,
      mediaName: null,
      distribution,
      createdAt: stamp,
      updatedAt: stamp,
    }).returning("id").executeTakeFirstOrThrow();
    for (let a = 0; a < ATTENDANTS_PER_QUEUE; a++) {
      const user = await t.deps.db.insertInto("users").values({
        companyId: company.id,
        name: `Atendente ${q}-${a}`,
        email: `att-${q}-${a}@bench.test`,
        passwordHash,
        profile: "user",
        whatsappId: null,
        lastSeenAt: stamp,
        online: 1,
        maxOpenTickets: CAPACITY,
        createdAt: stamp,
        updatedAt: stamp,
      }).returning("id").executeTakeFirstOrThrow();
      await t.deps.db.insertInto("user_queues")
        .values({ companyId: company.id, userId: user.id, queueId: queue.id }).execute();
    }
    const created = await t.request("POST", "/api/whatsapp", {
      token: company.admin.token,
      body: { name: `Bench ${q}`, provider: "simulator", queueIds: [queue.id] },
    });
    const { id: whatsappId } = await created.json();
    await t.request("POST", `/api/simulator/${whatsappId}/scan`, { token: company.admin.token });
    phones.push(t.deps.simulator.phone(whatsappId) as SimulatorProvider);
  }
  return { company, phones };
}

async function run(distribution: "off" | "least_busy") {
  const t = await createTestApp({ LOG_LEVEL: "warn" });
  try {
    const { company, phones } = await scene(t, distribution);
    const createdAt = new Map<number, number>();
    const decisions: number[] = [];
    let assigned = 0;
    const allAssigned = Promise.withResolvers<void>();
    t.deps.events.on("ticket.created", (e) => {
      if (e.ticket.companyId === company.id) createdAt.set(e.ticket.id, performance.now());
    });
    t.deps.events.on("ticket.assigned", (e) => {
      const start = createdAt.get(e.ticket.id);
      if (start !== undefined) decisions.push(performance.now() - start);
      if (++assigned === CONVERSATIONS) allAssigned.resolve();
    });
    const started = performance.now();
    await Promise.all(Array.from({ length: CONVERSATIONS }, (_, i) => {
      const from = `55119${String(20000000 + i).padStart(8, "0")}`;
      return phones[i % QUEUES].receive({
        chatJid: `${from}@s.whatsapp.net`,
        phoneJid: `${from}@s.whatsapp.net`,
        pushName: `Cliente ${i}`,
        body: `Olá, preciso de ajuda ${i}`,
      });
    }));
    const storedSeconds = (performance.now() - started) / 1000;
    let assignedSeconds = NaN;
    if (distribution !== "off") {
      await allAssigned.promise;
      assignedSeconds = (performance.now() - started) / 1000;
    }
    await t.deps.afterAnswer.drain();
    const held = await t.deps.db.selectFrom("tickets").select(["userId"])
      .select((eb) => eb.fn.countAll<number>().as("n")).where("companyId", "=", company.id)
      .where("userId", "is not", null).groupBy("userId").execute();
    const most = Math.max(0, ...held.map((h) => Number(h.n)));
    return {
      inboundRate: CONVERSATIONS / storedSeconds,
      assignedRate: CONVERSATIONS / assignedSeconds,
      decisions: decisions.sort((a, b) => a - b),
      most,
    };
  } finally {
    await t.close();
  }
}

const today = await run("off");
const withDistribution = await run("least_busy");
const loss = 1 - withDistribution.inboundRate / today.inboundRate;
const d = withDistribution.decisions;
await Deno.stdout.write(new TextEncoder().encode(
  [
    `distribution bench: ${CONVERSATIONS} new conversations, ${QUEUES} queues, ` +
    `${QUEUES * ATTENDANTS_PER_QUEUE} attendants (capacity ${CAPACITY})`,
    `  inbound rate, distribution off (today): ${today.inboundRate.toFixed(0)} conversations/s`,
    `  inbound rate, least_busy:               ${
      withDistribution.inboundRate.toFixed(0)
    } conversations/s ` +
    `(${(loss * 100).toFixed(1)}% lost; target <= 10%)`,
    `  all ${CONVERSATIONS} given out at:            ${
      withDistribution.assignedRate.toFixed(0)
    } conversations/s`,
    `  decision (created -> assigned) ms:      p50 ${percentile(d, 50).toFixed(1)}, ` +
    `p95 ${percentile(d, 95).toFixed(1)}, max ${
      (d[d.length - 1] ?? NaN).toFixed(1)
    } (${d.length} samples)`,
    `  most tickets held by one attendant:     ${withDistribution.most} (capacity ${CAPACITY})`,
    `  load average: ${Deno.loadavg().map((x) => x.toFixed(2)).join(" ")}`,
  ].join("\n") + "\n",
));
if (withDistribution.most > CAPACITY) {
  await Deno.stderr.write(
    new TextEncoder().encode("an attendant holds more than their capacity\n"),
  );
  Deno.exit(1);
}
