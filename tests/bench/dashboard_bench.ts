/**
 * Dashboard latency on a 100,000-ticket company (issue 5: "must stay fast").
 *
 *   deno run -A tests/bench/dashboard_bench.ts [--tickets=100000] [--runs=40]
 *
 * Builds a temporary app, generates one big company (20 users, 30,000 contacts, N tickets over
 * 180 days, ratings) and a smaller neighbour company, then times GET /api/dashboard through the
 * whole HTTP stack for several ranges and prints p50/p95 in milliseconds.
 * Data is generated in SQL from the row number, so every run builds the same company.
 */
import { sql } from "kysely";
import { createCompany, createTestApp, type TestApp } from "../helpers/app.ts";

const args = Object.fromEntries(
  Deno.args.map((a) => a.replace(/^--/, "").split("=")).map(([k, v]) => [k, v ?? "true"]),
);
const TICKETS = Number(args.tickets ?? 100_000);
const RUNS = Number(args.runs ?? 40);
const DAYS = 180;

export async function generate(t: TestApp, companyId: number, tickets: number, contacts: number) {
  const db = t.deps.db;
  const now = Math.floor(t.clock.now().getTime() / 1000);
  const stamp = t.clock.now().toISOString();
  const users: number[] = [];
  for (let i = 0; i < 20; i++) {
    const row = await db.insertInto("users").values({
      companyId,
      name: `Atendente ${companyId}-${String(i).padStart(2, "0")}`,
      email: `agent${i}@c${companyId}.bench`,
      passwordHash: "x",
      whatsappId: null,
      lastSeenAt: null,
      online: i % 3 === 0 ? 1 : 0,
      createdAt: stamp,
      updatedAt: stamp,
    }).returning("id").executeTakeFirstOrThrow();
    users.push(row.id);
  }
  const iso = (expr: string) => `strftime('%Y-%m-%dT%H:%M:%fZ', ${expr}, 'unixepoch')`;
  await db.transaction().execute(async (trx) => {
    const firstContact = await sql<
      { id: number }
    >`SELECT coalesce(max(id), 0) + 1 AS id FROM contacts`
      .execute(trx);
    const c0 = firstContact.rows[0].id;
    await sql.raw(`
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${contacts - 1})
      INSERT INTO contacts (uuid, companyId, name, number, email, createdAt, updatedAt)
      SELECT 'c${companyId}-' || i, ${companyId}, 'Contato ' || i, '55${companyId}1' || printf('%09d', i),
        '', ${iso(`${now} - (i * 7919) % (${DAYS} * 86400)`)}, '${stamp}'
      FROM n
    `).execute(trx);
    // status: 2% pending, 3% open, 95% closed; 2% of closed ones never accepted
    await sql.raw(`
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${tickets - 1}),
      base AS (
        SELECT i, ${now} - (i * 104729) % (${DAYS} * 86400) AS created,
          CASE WHEN i % 100 < 2 THEN 'pending' WHEN i % 100 < 5 THEN 'open' ELSE 'closed' END AS status
        FROM n
      )
      INSERT INTO tickets (uuid, companyId, contactId, userId, status, createdAt, updatedAt,
        acceptedAt, closedAt)
      SELECT 't${companyId}-' || i, ${companyId}, ${c0} + i % ${contacts},
        CASE WHEN status = 'pending' THEN NULL ELSE ${users[0]} + i % 20 END,
        status, ${iso("created")}, ${iso("created")},
        CASE WHEN status = 'pending' OR i % 50 = 7 THEN NULL
             ELSE ${iso("created + (i * 31) % 3600")} END,
        CASE WHEN status = 'closed' THEN ${iso("created + 3600 + (i * 17) % 7200")} END
      FROM base
    `).execute(trx);
    await sql.raw(`
      INSERT INTO user_ratings (companyId, ticketId, userId, rate, createdAt)
      SELECT companyId, id, userId, 1 + id % 3, closedAt FROM tickets
      WHERE companyId = ${companyId} AND status = 'closed' AND userId IS NOT NULL AND id % 5 = 0
    `).execute(trx);
  });
  await sql`ANALYZE`.execute(db);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

async function time(t: TestApp, token: string, query: string) {
  const samples: number[] = [];
  let body: unknown;
  for (let i = 0; i < RUNS + 3; i++) {
    const start = performance.now();
    const res = await t.request("GET", `/api/dashboard${query}`, { token });
    body = await res.json();
    if (res.status !== 200) throw new Error(`${query}: ${res.status} ${JSON.stringify(body)}`);
    if (i >= 3) samples.push(performance.now() - start); // the first runs warm caches
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p95: percentile(samples, 95), body };
}

async function main() {
  const t = await createTestApp();
  try {
    const big = await createCompany(t, "Big");
    const neighbour = await createCompany(t, "Neighbour");
    const started = performance.now();
    await generate(t, big.id, TICKETS, 30_000);
    await generate(t, neighbour.id, Math.floor(TICKETS / 5), 6_000);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    const out = (s: string) => Deno.stdout.writeSync(new TextEncoder().encode(s + "\n"));
    out(
      `dashboard bench: ${TICKETS} tickets (+${
        TICKETS / 5
      } in a neighbour), generated in ${seconds}s`,
    );
    out(`GET /api/dashboard, ${RUNS} runs each, whole HTTP stack`);
    out("range                      p50 ms   p95 ms   finished");
    for (
      const [label, query] of [
        ["default (month to date)", ""],
        ["days=7", "?days=7"],
        ["days=90", "?days=90"],
        ["date range, 180 days", "?date_from=2026-05-26&date_to=2026-11-22"],
      ]
    ) {
      const r = await time(t, big.admin.token, query);
      const finished =
        (r.body as { counters: { supportFinished: number } }).counters.supportFinished;
      out(
        `${label.padEnd(26)} ${r.p50.toFixed(1).padStart(6)}   ${
          r.p95.toFixed(1).padStart(6)
        }   ${finished}`,
      );
    }
  } finally {
    await t.close();
  }
}

if (import.meta.main) await main();
