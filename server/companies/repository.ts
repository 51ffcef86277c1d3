import { sql, type Updateable } from "kysely";
import type { Database } from "../../db/client.ts";
import { isPostgres } from "../../db/engine.ts";
import { crossCompany } from "../../db/tenancy.ts";
import type { CompaniesTable, Company, Plan } from "../../db/schema.ts";
import { likePattern, pageWindow } from "../paging.ts";

export async function findCompany(db: Database, id: number): Promise<Company | undefined> {
  return await db.selectFrom("companies").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function findPlan(db: Database, id: number): Promise<Plan | undefined> {
  return await db.selectFrom("plans").selectAll().where("id", "=", id).executeTakeFirst();
}

/** A new company row; the billing address stays empty until the checkout fills it. */
export async function insertCompany(
  db: Database,
  fields: Pick<
    Company,
    "name" | "email" | "phone" | "planId" | "status" | "dueDate" | "recurrence"
  >,
  now: string,
): Promise<number> {
  const row = await db.insertInto("companies").values({
    ...fields,
    billingName: null,
    addressZipCode: null,
    addressStreet: null,
    addressState: null,
    addressCity: null,
    addressDistrict: null,
    createdAt: now,
    updatedAt: now,
  }).returning("id").executeTakeFirstOrThrow();
  return row.id;
}

export async function updateCompanyRow(
  db: Database,
  id: number,
  values: Updateable<CompaniesTable>,
) {
  await db.updateTable("companies").set(values).where("id", "=", id).execute();
}

/** A company's first admin (signup, or a company created with a password by a super user). */
export async function insertFirstAdmin(
  db: Database,
  companyId: number,
  admin: { name: string; email: string; passwordHash: string },
  now: string,
) {
  await db.insertInto("users").values({
    companyId,
    name: admin.name,
    email: admin.email,
    passwordHash: admin.passwordHash,
    profile: "admin",
    super: 0,
    whatsappId: null,
    lastSeenAt: null,
    createdAt: now,
    updatedAt: now,
  }).execute();
}

export async function setCompanySchedules(
  db: Database,
  id: number,
  schedules: string,
  now: string,
): Promise<Company | undefined> {
  return await db.updateTable("companies").set({ schedules, updatedAt: now }).where("id", "=", id)
    .returningAll().executeTakeFirst();
}

/** A company row with what its admin view shows next to it: the plan's name, campaignsEnabled. */
export type CompanyRow = Company & { planName: string | null; campaignsEnabled: string | null };

function withExtras(db: Database) {
  return db.selectFrom("companies")
    .leftJoin("plans", "plans.id", "companies.planId")
    .leftJoin(
      "settings",
      (join) =>
        join.onRef("settings.companyId", "=", "companies.id").on(
          "settings.key",
          "=",
          "campaignsEnabled",
        ),
    )
    .selectAll("companies")
    .select(["plans.name as planName", "settings.value as campaignsEnabled"]);
}

export async function findCompanyRow(db: Database, id: number): Promise<CompanyRow | undefined> {
  return await withExtras(db).where("companies.id", "=", id).executeTakeFirst();
}

export async function listCompanyRows(db: Database): Promise<CompanyRow[]> {
  return await withExtras(db).orderBy("companies.name").orderBy("companies.id").execute();
}

export async function pageCompanyRows(
  db: Database,
  searchParam: string | undefined,
  pageNumber: number,
): Promise<{ rows: CompanyRow[]; count: number; window: ReturnType<typeof pageWindow> }> {
  const window = pageWindow(pageNumber);
  const search = searchParam?.trim() ? likePattern(searchParam.trim()) : undefined;
  let rows = withExtras(db);
  let counted = db.selectFrom("companies").select((eb) => eb.fn.countAll<number>().as("n"));
  if (search) {
    const like = sql<string>`${search} ESCAPE '\\'`;
    rows = rows.where((eb) =>
      eb.or([eb("companies.name", "like", like), eb("companies.email", "like", like)])
    );
    counted = counted.where((eb) =>
      eb.or([eb("companies.name", "like", like), eb("companies.email", "like", like)])
    );
  }
  const [list, total] = await Promise.all([
    rows.orderBy("companies.name").orderBy("companies.id").limit(window.limit)
      .offset(window.offset).execute(),
    counted.executeTakeFirstOrThrow(),
  ]);
  return { rows: list, count: Number(total.n), window };
}

/** Names and emails compare case-insensitively. */
export async function companyTaken(
  db: Database,
  field: "name" | "email",
  value: string,
  exceptId?: number,
): Promise<boolean> {
  let q = db.selectFrom("companies").select("id").where(
    (eb) => eb(eb.fn("lower", [field]), "=", value.toLowerCase()),
  );
  if (exceptId !== undefined) q = q.where("id", "!=", exceptId);
  return (await q.executeTakeFirst()) !== undefined;
}

/** The platform's own company: the one a super user belongs to. It cannot be deleted. */
export async function hasSuperUser(db: Database, companyId: number): Promise<boolean> {
  const row = await db.selectFrom("users").select("id").where("companyId", "=", companyId)
    .where("super", "=", 1).limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function setCampaignsEnabled(
  db: Database,
  companyId: number,
  enabled: boolean,
  now: string,
) {
  await db.insertInto("settings").values({
    companyId,
    key: "campaignsEnabled",
    value: enabled ? "true" : "false",
    createdAt: now,
    updatedAt: now,
  }).onConflict((oc) =>
    oc.columns(["companyId", "key"]).doUpdateSet({
      value: enabled ? "true" : "false",
      updatedAt: now,
    })
  ).execute();
}

/**
 * Every table holding a companyId column (tenant data, ours and any later feature's), virtual
 * tables excluded (the FTS indexes follow their content tables through triggers), ordered
 * children first: a table comes before every table it references, so deleting in this order
 * never makes SQLite cascade from a parent row to its children one row at a time (2.5 times
 * faster on a 200,000-message company; tests/bench/company_delete_bench.ts).
 */
export async function tenantTables(db: Database): Promise<string[]> {
  // PostgreSQL's catalogue says the same (issue 46): its tables with the column, and what each
  // references (pg_constraint: a foreign key's table and the table it points to).
  const rows = await sql<{ name: string; parent: string | null }>`${
    isPostgres(db)
      ? sql`SELECT c.table_name AS name, f.confrelid::regclass::text AS parent
    FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_schema = c.table_schema
      AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
    LEFT JOIN pg_constraint f ON f.contype = 'f'
      AND f.conrelid = (quote_ident(c.table_name))::regclass AND f.confrelid <> f.conrelid
    WHERE c.table_schema = current_schema() AND c.column_name = 'companyId'
      AND c.table_name <> 'companies'
    ORDER BY c.table_name`
      : sql`SELECT m.name AS name, f."table" AS parent
    FROM sqlite_master m JOIN pragma_table_info(m.name) p ON p.name = 'companyId'
    LEFT JOIN pragma_foreign_key_list(m.name) f ON f."table" <> m.name
    WHERE m.type = 'table' AND m.name <> 'companies' AND m.sql NOT LIKE 'CREATE VIRTUAL TABLE%'
    ORDER BY m.name`
  }`.execute(db);
  const parents = new Map<string, Set<string>>();
  for (const { name, parent } of rows.rows) {
    const set = parents.get(name) ?? new Set<string>();
    if (parent) set.add(parent);
    parents.set(name, set);
  }
  // A table is next once no remaining table references it.
  const order: string[] = [];
  const left = new Set(parents.keys());
  while (left.size > 0) {
    const referenced = new Set([...left].flatMap((t) => [...parents.get(t)!]));
    const ready = [...left].filter((t) => !referenced.has(t));
    // A cycle between tables (none today) is still deleted: foreign keys are checked at commit.
    for (const t of ready.length ? ready : [...left]) {
      order.push(t);
      left.delete(t);
    }
  }
  return order;
}

/**
 * Deletes a company and every row of it, in the caller's transaction. Foreign keys are checked
 * at commit (defer_foreign_keys), so a table without ON DELETE CASCADE cannot stop it half-way:
 * the transaction commits with nothing left, or not at all.
 */
export async function deleteCompanyData(trx: Database, companyId: number) {
  await sql`PRAGMA defer_foreign_keys = ON`.execute(trx);
  for (const table of await tenantTables(trx)) {
    await sql`DELETE FROM ${sql.table(table)} WHERE companyId = ${companyId}`.execute(trx);
  }
  await trx.deleteFrom("companies").where("id", "=", companyId).execute();
}

/** The billing data a checkout keeps on the company (the next checkout is prefilled with it). */
export async function setBillingDetails(
  db: Database,
  id: number,
  billing: { name: string; zipcode: string; address: string; state: string; city: string },
  now: string,
): Promise<Company> {
  return await db.updateTable("companies").set({
    billingName: billing.name,
    addressZipCode: billing.zipcode,
    addressStreet: billing.address,
    addressState: billing.state,
    addressCity: billing.city,
    updatedAt: now,
  }).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
}

/** Active companies with a plan whose due date is on or before `day` (the invoice job's pass). */
export async function companiesDueBy(db: Database, day: string) {
  return await db.selectFrom("companies").select(["id", "dueDate", "planId", "recurrence"])
    .where("status", "=", 1).where("planId", "is not", null)
    .where("dueDate", "is not", null).where("dueDate", "<=", `${day}\uffff`)
    .orderBy("id").execute();
}

/** The fields a paid invoice moves on (server/companies/due_dates.ts). */
export async function dueDateOf(db: Database, id: number) {
  return await db.selectFrom("companies").select(["dueDate", "recurrence", "blockedAt"])
    .where("id", "=", id).executeTakeFirst();
}

/** Companies past their due date get overdueSince = today, once (`overdueSince IS NULL`). */
export async function markOverdue(db: Database, today: string, now: string): Promise<number[]> {
  const marked = await db.updateTable("companies").set({ overdueSince: today, updatedAt: now })
    .where("dueDate", "is not", null).where("dueDate", "<", today)
    .where("overdueSince", "is", null).returning("id").execute();
  return marked.map((r) => r.id);
}

/**
 * Companies overdue since before `lastAllowed` are switched off with blockedAt, once (`blockedAt
 * IS NULL`; one switched off by hand is left alone), bar the platform's own company: the one a
 * super user belongs to, found across companies on purpose.
 */
export async function blockOverdue(
  db: Database,
  lastAllowed: string,
  now: string,
): Promise<number[]> {
  const platform = crossCompany(db).selectFrom("users").select("companyId").where("super", "=", 1);
  const blocked = await db.updateTable("companies").set({
    status: 0,
    blockedAt: now,
    updatedAt: now,
  }).where("overdueSince", "is not", null).where("blockedAt", "is", null)
    .where("status", "=", 1).where("dueDate", "<", lastAllowed)
    .where("id", "not in", platform).returning("id").execute();
  return blocked.map((r) => r.id);
}

/** Every connection of the company DISCONNECTED (switched off or about to be deleted). */
export async function markConnectionsStopped(db: Database, companyId: number, now: string) {
  return await db.updateTable("whatsapps").set({
    status: "DISCONNECTED",
    qrcode: "",
    updatedAt: now,
  }).where("companyId", "=", companyId).returningAll().execute();
}
