import assert from "node:assert/strict";
import { sql } from "kysely";
import { type Database, openDatabase } from "../../db/client.ts";
import { migrateToLatest, migrateUpTo } from "../../db/migrate.ts";
import { testPostgresDatabase } from "../helpers/engine.ts";
import { createCompany, createTestApp, login } from "../helpers/app.ts";
import { ADMIN_EMAIL, ADMIN_PASSWORD } from "../helpers/app.ts";

/**
 * Issue 46: money as integer cents on both engines (migration 0700). Prices stored as REAL before
 * it become exact cents (a sum with a binary fraction's error included), and the API still
 * answers `value` in reais.
 */

const NOW = "2026-11-10T12:00:00.000Z";

async function oldDatabase(db: Database) {
  await migrateUpTo(db, "0660_create_import_map");
  await sql`INSERT INTO plans (name, value, createdAt, updatedAt)
    VALUES ('Básico', 49.9, ${NOW}, ${NOW}), ('Triplo', ${29.99 * 3}, ${NOW}, ${NOW})`.execute(db);
  await sql`INSERT INTO companies (name, planId, createdAt, updatedAt)
    VALUES ('Acme', 1, ${NOW}, ${NOW})`.execute(db);
  await sql`INSERT INTO invoices (companyId, detail, value, dueDate, createdAt, updatedAt)
    VALUES (1, 'Básico - MENSAL', ${0.1 + 0.2}, '2026-12-01', ${NOW}, ${NOW})`.execute(db);
}

for (const engine of ["sqlite", "postgres"] as const) {
  Deno.test(`money: 0700 turns REAL prices and invoices into exact cents (${engine})`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "balcao-cents-" });
    const url = engine === "sqlite" ? `file:${dir}/balcao.db` : await testPostgresDatabase();
    const db = await openDatabase(url);
    try {
      await oldDatabase(db);
      await migrateToLatest(db);
      const plans = await db.selectFrom("plans").select(["name", "valueCents"]).orderBy("id")
        .execute();
      assert.deepEqual(plans, [{ name: "Básico", valueCents: 4990 }, {
        name: "Triplo",
        valueCents: 8997,
      }]);
      const invoice = await db.selectFrom("invoices").select("valueCents")
        .executeTakeFirstOrThrow();
      assert.equal(invoice.valueCents, 30);
      const type = engine === "sqlite"
        ? (await sql<{ t: string }>`SELECT typeof(valueCents) AS t FROM plans LIMIT 1`
          .execute(db)).rows[0].t
        : (await sql<{ t: string }>`SELECT data_type AS t FROM information_schema.columns
          WHERE table_name = 'plans' AND column_name = 'valueCents'`.execute(db)).rows[0].t;
      assert.equal(type, engine === "sqlite" ? "integer" : "bigint");
    } finally {
      await db.destroy();
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    }
  });

  Deno.test(`money: the API answers and takes reais; cents are stored (${engine})`, async () => {
    const env: Record<string, string> = engine === "postgres"
      ? { DATABASE_URL: await testPostgresDatabase() }
      : {};
    const t = await createTestApp(env);
    try {
      const root = await login(t, ADMIN_EMAIL, ADMIN_PASSWORD);
      const created = await t.request("POST", "/api/plans", {
        token: root.token,
        body: { name: "Centavos", users: 1, connections: 1, queues: 1, value: 19.99 },
      });
      assert.equal(created.status, 201, await created.clone().text());
      const plan = await created.json();
      assert.equal(plan.value, 19.99);
      const stored = await t.deps.db.selectFrom("plans").select("valueCents")
        .where("id", "=", plan.id).executeTakeFirstOrThrow();
      assert.equal(stored.valueCents, 1999);
      const company = await createCompany(t, "Reais", { plan: { value: 79.9 } });
      const invoice = await t.request("POST", "/api/invoices", {
        token: root.token,
        body: { companyId: company.id, detail: "Avulsa", value: 0.3, dueDate: "2026-12-10" },
      });
      assert.equal(invoice.status, 201, await invoice.clone().text());
      assert.equal((await invoice.json()).value, 0.3);
      const row = await t.deps.db.selectFrom("invoices").select("valueCents")
        .where("companyId", "=", company.id).executeTakeFirstOrThrow();
      assert.equal(row.valueCents, 30);
    } finally {
      await t.close();
    }
  });
}
