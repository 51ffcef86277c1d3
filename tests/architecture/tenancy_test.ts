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
const CROSS_COMPANY: Record<string, string> = {
  "server/announcements/repository.ts":
    "announcements are the platform's: super users write them for every company, and every company reads them",
  "server/audit/repository.ts":
    "super users read the platform's audit log (every company's rows); the retention job deletes old rows of every company",
  "server/billing/repository.ts":
    "super users read every company's invoices; a payment (webhook, reconciliation job) names an invoice or a charge, not a company",
  "server/billing/reminders_repository.ts":
    "the reminders job scans every company's open invoices; each reminder is then claimed, and its admins read, with its company",
  "server/campaigns/shipping_repository.ts":
    "the campaign job scans every company (due campaigns, connections with work, answers, unchecked numbers); what it finds is then read and written with its company",
  "server/companies/repository.ts":
    "the due-date job blocks overdue companies bar the platform's own, found by its super user",
  "server/distribution/scan_repository.ts":
    "the distribution job scans every company's tickets (given to attendants now offline, waiting, past their targets); each change then names the company",
  "server/events/outgoing_repository.ts":
    "the outgoing job scans every company's open event notes (past the grace, old captured rows); each row is then claimed and written with its company",
  "server/external_api/repository.ts":
    "the send API's bearer token (by its unique hash) is the only credential: it names the connection, and so the company",
  "server/whatsapp/providers/cloud_api/repository.ts":
    "Meta's webhook URL carries only its random key: it names the connection, and so the company; the cloud_webhooks and cloud_templates jobs find every company's connections with work, then do it with each one's company",
  "server/assist/repository.ts":
    "the assist job claims due transcriptions and summaries of every company, then works each with its own company",
  "server/whatsapp/inbound/pending_media_repository.ts":
    "the media_retry job finds every company's messages whose media is pending (issue 34); each is then stored and updated with its company",
  "server/metrics/repository.ts":
    "the /metrics scrape describes the whole process: the outbox's depth, connections by status",
  "server/password_reset/repository.ts":
    "a super user sets the password of a user of any company (PUT /passwords/:id); a recovery code is looked up by its hash and the email",
  "server/push/repository.ts":
    "a browser's push endpoint is unique platform-wide: a sign-in there as someone else (any company) takes the device over",
  "server/push/delivery_repository.ts":
    "the push job scans every company's queue (stale claims, due rows, old rows); each row is then claimed and written with its company",
  "server/schedules/sending_repository.ts":
    "the schedules job scans every company's due schedules and the provider's later refusals; each schedule is then sent with its company",
  "server/tickets/inactive_repository.ts":
    "the inactive-tickets job scans every company's tickets against their connection's limits; each change then names the company",
  "server/users/presence_repository.ts":
    "a process holds sockets of every company's users: it refreshes its own presence rows and sweeps the rows of processes that died, each user's online then recomputed with its company",
  "server/users/repository.ts":
    "login, password reset and the duplicate check look a user up by email, unique platform-wide",
  "server/webhooks/repository.ts": "webhook secrets stored before sealing are sealed once at start",
  "server/webhooks/delivery_repository.ts":
    "the delivery job scans every company's queue (stale claims, due rows); each row is then claimed and written with its company",
  "server/whatsapp/repository.ts":
    "at boot, with no other process on the database, every company's stale QR codes are reset",
  "server/whatsapp/outbox/outbox_repository.ts":
    "at boot, with no other process on the database, every company's interrupted sends resume",
  "server/whatsapp/sessions/leases_repository.ts":
    "a process holds connections of every company: it renews and releases its own leases, " +
    "counts the connections that should run and takes over orphans, whatever their company",
};

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
