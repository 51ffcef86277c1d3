/**
 * Kanban lanes with 10,000 open tickets (issue 10: "lanes stay fast").
 *
 *   deno run -A tests/bench/kanban_bench.ts [--open=10000] [--closed=50000] [--runs=40]
 *
 * One company: 3 queues, 4 kanban tags and a plain one, `open` tickets not closed (a third of
 * them in the kanban lanes, some with the plain tag too) and `closed` closed ones. Times
 * GET /api/ticket/kanban through the whole HTTP stack, per lane, first and a deep page, for an
 * admin and for a user of one queue; prints p50/p95 in milliseconds.
 */
import { CompiledQuery, sql } from "kysely";
import { laneQuery } from "../../server/kanban/repository.ts";
import { createCompany, createTestApp, createUser } from "../helpers/app.ts";

const args = Object.fromEntries(
  Deno.args.map((a) => a.replace(/^--/, "").split("=")).map(([k, v]) => [k, v ?? "true"]),
);
const OPEN = Number(args.open ?? 10_000);
const CLOSED = Number(args.closed ?? 50_000);
const RUNS = Number(args.runs ?? 40);

const out = (s: string) => Deno.stdout.writeSync(new TextEncoder().encode(s + "\n"));

const t = await createTestApp();
try {
  const c = await createCompany(t, "Kanban Bench");
  const db = t.deps.db;
  const stamp = t.clock.now().toISOString();
  const queues: number[] = [];
  for (const name of ["Vendas", "Suporte", "Financeiro"]) {
    const q = await db.insertInto("queues").values({
      companyId: c.id,
      name,
      color: `#00000${queues.length}`,
      greetingMessage: "",
      createdAt: stamp,
      updatedAt: stamp,
    }).returning("id").executeTakeFirstOrThrow();
    queues.push(q.id);
  }
  const user = await createUser(t, c.id, {
    name: "Ana",
    email: "ana@bench.test",
    queueIds: [queues[0]],
  });
  const lanes: number[] = [];
  for (const name of ["Proposta", "Negociação", "Fechamento", "Pós-venda", "VIP"]) {
    const tag = await db.insertInto("tags").values({
      companyId: c.id,
      name,
      color: "#A4CCCC",
      kanban: name === "VIP" ? 0 : 1,
      createdAt: stamp,
      updatedAt: stamp,
    }).returning("id").executeTakeFirstOrThrow();
    lanes.push(tag.id);
  }
  const total = OPEN + CLOSED;
  const now = Math.floor(t.clock.now().getTime() / 1000);
  await db.transaction().execute(async (trx) => {
    await sql.raw(`
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${total - 1})
      INSERT INTO contacts (uuid, companyId, name, number, createdAt, updatedAt)
      SELECT 'k-' || i, ${c.id}, 'Contato ' || i, '5511' || printf('%09d', i), '${stamp}', '${stamp}'
      FROM n`).execute(trx);
    await sql.raw(`
      INSERT INTO tickets (uuid, companyId, contactId, queueId, userId, status, lastMessage,
        createdAt, updatedAt)
      SELECT 'kt-' || c.id, ${c.id}, c.id, ${queues[0]} + c.id % 3,
        CASE WHEN c.id % 4 = 0 THEN NULL ELSE ${user.id} END,
        CASE WHEN c.id % ${total} < ${CLOSED} THEN 'closed' WHEN c.id % 2 = 0 THEN 'open'
          ELSE 'pending' END,
        'Mensagem ' || c.id,
        strftime('%Y-%m-%dT%H:%M:%fZ', ${now} - (c.id * 7919) % 8640000, 'unixepoch'),
        strftime('%Y-%m-%dT%H:%M:%fZ', ${now} - (c.id * 7919) % 8640000, 'unixepoch')
      FROM contacts c WHERE c.companyId = ${c.id}`).execute(trx);
    // A third of the open tickets in the four kanban lanes; one in ten also VIP (not a lane).
    await sql.raw(`
      INSERT INTO ticket_tags (companyId, ticketId, tagId)
      SELECT ${c.id}, id, ${lanes[0]} + id % 4 FROM tickets
      WHERE companyId = ${c.id} AND status <> 'closed' AND id % 3 = 0`).execute(trx);
    await sql.raw(`
      INSERT INTO ticket_tags (companyId, ticketId, tagId)
      SELECT ${c.id}, id, ${lanes[4]} FROM tickets
      WHERE companyId = ${c.id} AND status <> 'closed' AND id % 10 = 1`).execute(trx);
  });
  await sql`ANALYZE`.execute(db);

  const time = async (token: string, query: string) => {
    const ms: number[] = [];
    let count = 0;
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      const res = await t.request("GET", `/api/ticket/kanban?${query}`, { token });
      const body = await res.json();
      ms.push(performance.now() - start);
      if (res.status !== 200) throw new Error(`${query}: ${res.status} ${JSON.stringify(body)}`);
      count = body.count;
    }
    ms.sort((a, b) => a - b);
    const p = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))].toFixed(1);
    out(
      `${query.padEnd(28)} count ${String(count).padStart(6)}  p50 ${p(0.5)} ms  p95 ${p(0.95)} ms`,
    );
  };
  // The plans SQLite picks for a lane's page and its count (no full scan of the company's tickets).
  const admin = {
    companyId: c.id,
    userId: c.admin.id,
    isAdmin: true,
    roles: ["admin" as const],
    queueIds: [],
    allTicket: false,
  };
  for (const lane of ["open" as const, lanes[0]]) {
    const base = laneQuery(db, admin, lane, undefined);
    for (
      const [label, query] of [
        [
          "page",
          base.select("t.id").orderBy(sql`+t.updatedAt desc`).orderBy("t.id", "desc").limit(20),
        ],
        ["count", base.select((eb) => eb.fn.countAll().as("n"))],
      ] as const
    ) {
      const compiled = query.compile();
      const plan = await db.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`EXPLAIN QUERY PLAN ${compiled.sql}`, [...compiled.parameters]),
      );
      out(`plan lane=${lane} ${label}: ${plan.rows.map((r) => r.detail).join(" | ")}`);
    }
  }
  out(`kanban: ${OPEN} open/pending tickets, ${CLOSED} closed, ${RUNS} runs each`);
  out("admin:");
  for (const lane of ["open", ...lanes.slice(0, 4)]) await time(c.admin.token, `lane=${lane}`);
  await time(c.admin.token, "lane=open&pageNumber=100");
  out("user of one queue:");
  await time(user.token, "lane=open");
  await time(user.token, `lane=${lanes[0]}`);
} finally {
  await t.close();
}
