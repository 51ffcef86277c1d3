/**
 * What an outgoing note costs per event (issue 43 item 2(c), server/events/outgoing.ts): the
 * INSERT into outgoing_events in the change's transaction and the UPDATE that closes it after
 * the event is queued. Measured through the real database thread on a libSQL file: the same
 * one-row change of a ticket in its own transaction, without and with the note, alternated in
 * rounds so that the machine's load falls on both alike. Prints microseconds per event.
 * Run alone (`deno run -A tests/bench/outgoing_cost.ts`) or at the end of whatsapp_inbound_bench.
 */
import type { TestApp } from "../helpers/app.ts";
import { createCompany, createTestApp } from "../helpers/app.ts";
import { markCaptured, noteOutgoing } from "../../server/events/outgoing_repository.ts";

const EVENTS = Number(Deno.env.get("BENCH_NOTE_EVENTS") ?? 2000);
const ROUNDS = 5;

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function measureOutgoingNotes(t: TestApp): Promise<string> {
  const db = t.deps.db;
  const company = await createCompany(t, `Notas ${crypto.randomUUID().slice(0, 6)}`);
  const stamp = new Date().toISOString();
  const contact = await db.insertInto("contacts").values({
    companyId: company.id,
    name: "Bench",
    number: `5511${String(Date.now()).slice(-9)}`,
    email: "",
    isGroup: 0,
    uuid: crypto.randomUUID(),
    createdAt: stamp,
    updatedAt: stamp,
  }).returning("id").executeTakeFirstOrThrow();
  const ticket = await db.insertInto("tickets").values({
    companyId: company.id,
    contactId: contact.id,
    status: "pending",
    uuid: crypto.randomUUID(),
    createdAt: stamp,
    updatedAt: stamp,
  }).returning("id").executeTakeFirstOrThrow();
  const change = (trx: typeof db, i: number) =>
    trx.updateTable("tickets").set({ lastMessage: `m${i}`, updatedAt: new Date().toISOString() })
      .where("companyId", "=", company.id).where("id", "=", ticket.id).execute();
  const plain: number[] = [];
  const noted: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    let start = performance.now();
    for (let i = 0; i < EVENTS; i++) {
      await db.transaction().execute((trx) => change(trx, i));
    }
    plain.push((performance.now() - start) * 1000 / EVENTS);
    start = performance.now();
    for (let i = 0; i < EVENTS; i++) {
      const now = new Date().toISOString();
      const key = await db.transaction().execute(async (trx) => {
        await change(trx, i);
        return await noteOutgoing(trx, company.id, "ticket.updated", { ticketId: ticket.id }, now);
      });
      await markCaptured(db, company.id, key, now);
    }
    noted.push((performance.now() - start) * 1000 / EVENTS);
  }
  const [a, b] = [median(plain), median(noted)];
  const load = (await Deno.readTextFile("/proc/loadavg").catch(() => "?")).split(" ")[0];
  return `outgoing note per event (${EVENTS} x ${ROUNDS} rounds, load ${load}): change alone ` +
    `${a.toFixed(0)} µs, with note + close ${b.toFixed(0)} µs, note costs ${(b - a).toFixed(0)} µs`;
}

if (import.meta.main) {
  const t = await createTestApp({ LOG_LEVEL: "warn" });
  try {
    // deno-lint-ignore no-console
    console.log(await measureOutgoingNotes(t));
  } finally {
    await t.close();
  }
}
