/**
 * Deleting a company (issue 11): every row in one transaction, so the database's one writer is
 * held for as long as it takes; this measures how long, and how long another company's write
 * waits meanwhile.
 *
 *   deno run -A tests/bench/company_delete_bench.ts [--tickets=20000]
 *
 * Builds a temporary app, a company with N tickets, N/2 contacts and 10 messages per ticket (the
 * full-text index kept by its triggers), deletes it through DELETE /api/companies/:id and, 100 ms
 * in, times one contact insert of a neighbour company through the API.
 */
import { sql } from "kysely";
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createCompany,
  createTestApp,
  login,
} from "../helpers/app.ts";

const args = Object.fromEntries(
  Deno.args.map((a) => a.replace(/^--/, "").split("=")).map(([k, v]) => [k, v ?? "true"]),
);
const TICKETS = Number(args.tickets ?? 20_000);

const t = await createTestApp({ LOG_LEVEL: "warn" });
try {
  const big = await createCompany(t, "Grande");
  const neighbour = await createCompany(t, "Vizinha");
  const db = t.deps.db;
  const stamp = t.clock.now().toISOString();
  const c = big.id;
  const t0 = performance.now();
  await db.transaction().execute(async (trx) => {
    await sql.raw(
      `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${TICKETS / 2 - 1})
      INSERT INTO contacts (uuid, companyId, name, number, email, profilePicUrl, isGroup,
        createdAt, updatedAt)
      SELECT lower(hex(randomblob(16))), ${c}, 'Contato ' || i, '55119' || printf('%08d', i),
        '', '', 0, '${stamp}', '${stamp}' FROM s`,
    ).execute(trx);
    await sql.raw(
      `WITH RECURSIVE s(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM s WHERE i < ${TICKETS - 1})
      INSERT INTO tickets (uuid, companyId, contactId, status, lastMessage, createdAt, updatedAt)
      SELECT lower(hex(randomblob(16))), ${c},
        (SELECT min(id) FROM contacts WHERE companyId = ${c}) + i % ${TICKETS / 2},
        'closed', 'mensagem ' || i, '${stamp}', '${stamp}' FROM s`,
    ).execute(trx);
    await sql.raw(
      `WITH RECURSIVE s(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM s WHERE j < ${TICKETS * 10 - 1})
      INSERT INTO messages (companyId, ticketId, body, fromMe, ack, read, createdAt, updatedAt)
      SELECT ${c}, (SELECT min(id) FROM tickets WHERE companyId = ${c}) + j % ${TICKETS},
        'olá bom dia pedido ' || j || ' entrega prazo pagamento', j % 2, 3, 1,
        '${stamp}', '${stamp}' FROM s`,
    ).execute(trx);
  });
  const generated = (performance.now() - t0) / 1000;
  const root = (await login(t, ADMIN_EMAIL, ADMIN_PASSWORD)).token;

  const started = performance.now();
  const deletion = t.request("DELETE", `/api/companies/${c}`, { token: root });
  await new Promise((r) => setTimeout(r, 100));
  const w0 = performance.now();
  const write = await t.request("POST", "/api/contacts", {
    token: neighbour.admin.token,
    body: { name: "Cliente novo", number: "5511912345678" },
  });
  const waited = performance.now() - w0;
  const res = await deletion;
  const took = performance.now() - started;
  if (res.status !== 204 || write.status !== 200 && write.status !== 201) {
    throw new Error(`delete ${res.status}, neighbour write ${write.status}`);
  }
  const left = await sql<{ n: number }>`SELECT count(*) AS n FROM messages WHERE companyId = ${c}`
    .execute(db);
  // deno-lint-ignore no-console
  console.log(
    `company delete: ${TICKETS} tickets, ${TICKETS / 2} contacts, ${TICKETS * 10} messages ` +
      `(generated in ${generated.toFixed(1)} s): deleted in ${(took / 1000).toFixed(2)} s; ` +
      `a neighbour's contact insert issued 100 ms in waited ${(waited / 1000).toFixed(2)} s; ` +
      `messages left: ${left.rows[0].n}`,
  );
} finally {
  await t.close();
}
