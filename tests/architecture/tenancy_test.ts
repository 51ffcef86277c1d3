import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { sql } from "kysely";
import { guardTenancy, openDatabase } from "../../db/client.ts";
import { migrateToLatest } from "../../db/migrate.ts";
import { COMPANY_TABLES, crossCompany, tenancyBreach, TenancyBreaches } from "../../db/tenancy.ts";

/**
 * Tenancy in one place (db/tenancy.ts): the guard knows every company table, refuses a query of
 * the app that does not name the company, and the queries that cross companies on purpose come
 * from the files listed here, each with its reason.
 */
const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Files that may call crossCompany(), and why. */
const CROSS_COMPANY: Record<string, string> = {};

async function* sources(dir: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(`${ROOT}${dir}`)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) yield* sources(path);
    else if (/\.tsx?$/.test(entry.name) && !/_test\.tsx?$/.test(entry.name)) yield path;
  }
}

async function withDb(
  fn: (db: Awaited<ReturnType<typeof openDatabase>>) => Promise<void> | void,
) {
  const dir = await Deno.makeTempDir({ prefix: "balcao-tenancy-" });
  const db = await openDatabase(`file:${dir}/t.db`);
  try {
    await migrateToLatest(db);
    await fn(db);
  } finally {
    await db.destroy();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("tenancy - COMPANY_TABLES is every table with a companyId column", () =>
  withDb(async (db) => {
    const tables = await sql<{ name: string }>`
      SELECT m.name FROM sqlite_master m
      WHERE m.type = 'table'
        AND EXISTS (SELECT 1 FROM pragma_table_info(m.name) c WHERE c.name = 'companyId')
      ORDER BY m.name`.execute(db);
    assert.deepEqual(tables.rows.map((r) => r.name), [...COMPANY_TABLES].sort());
  }));

Deno.test("tenancy - the tree check: scoped queries pass, unscoped ones and ORs do not", () =>
  withDb((db) => {
    const breach = (q: { toOperationNode(): unknown }) =>
      tenancyBreach(q.toOperationNode() as Parameters<typeof tenancyBreach>[0]);
    assert.equal(breach(db.selectFrom("tags").selectAll().where("companyId", "=", 1)), undefined);
    assert.equal(
      breach(
        db.selectFrom("tags as t").selectAll().where("t.id", "=", 1)
          .where("t.companyId", "in", [1, 2]),
      ),
      undefined,
    );
    assert.equal(breach(db.selectFrom("plans").selectAll()), undefined, "not a company table");
    assert.equal(
      breach(db.selectFrom("tags").selectAll().where("id", "=", 1)),
      "select from tags without a companyId predicate",
    );
    assert.equal(
      breach(
        db.selectFrom("tags").selectAll().where((eb) =>
          eb.or([eb("companyId", "=", 1), eb("id", "=", 2)])
        ),
      ),
      "select from tags without a companyId predicate",
      "an OR does not scope",
    );
    assert.equal(
      breach(db.updateTable("outbox").set({ attempts: 1 }).where("id", "=", 1)),
      "update of outbox without a companyId predicate",
    );
    assert.equal(
      breach(db.deleteFrom("sessions").where("id", "=", 1)),
      "delete from sessions without a companyId predicate",
    );
    assert.equal(
      breach(db.insertInto("tags").values({ name: "a" } as never)),
      "insert into tags without companyId",
    );
  }));

Deno.test("tenancy - the guard throws for the app's query and records it; crossCompany() passes", () =>
  withDb(async (raw) => {
    const breaches = new TenancyBreaches();
    const db = guardTenancy(raw, breaches);
    // A module that is not under tests/ stands for the app (the guard lets tests read anything).
    const app = await import(
      "data:application/javascript,export const all = (db) => db.selectFrom('tags').selectAll().execute();"
    );
    await assert.rejects(() => app.all(db), /tenancy: select from tags without a companyId/);
    assert.equal(breaches.seen.length, 1);
    assert.deepEqual(await app.all(crossCompany(db)), []);
    assert.equal(breaches.seen.length, 1);
  }));

Deno.test("tenancy - crossCompany() is called only from the listed files", async () => {
  const found: string[] = [];
  for (const dir of ["server", "jobs", "routes", "scripts"]) {
    for await (const file of sources(dir)) {
      const text = await Deno.readTextFile(`${ROOT}${file}`);
      if (/\bcrossCompany\(/.test(text)) found.push(file);
    }
  }
  assert.deepEqual(found.sort(), Object.keys(CROSS_COMPANY).sort());
});
