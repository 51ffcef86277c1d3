import type { Insertable } from "kysely";
import type { Database } from "../../db/client.ts";
import type { AuditLogsTable } from "../../db/schema.ts";
import { crossCompany } from "../../db/tenancy.ts";
import type { PageWindow } from "../paging.ts";

/** Appends a row; given the change's transaction, the row commits (or not) with the change. */
export async function insertAuditLog(db: Database, row: Insertable<AuditLogsTable>) {
  await db.insertInto("audit_logs").values(row).execute();
}

export type AuditFilters = {
  /** null: every company (super users). */
  companyId: number | null;
  from?: string;
  to?: string;
  userId?: number;
  action?: string;
  entity?: string;
};

function filtered(db: Database, filters: AuditFilters) {
  // A super user's platform view reads every company's rows; any other reader names its company.
  let query = filters.companyId === null
    ? crossCompany(db).selectFrom("audit_logs")
    : db.selectFrom("audit_logs").where("companyId", "=", filters.companyId);
  if (filters.from) query = query.where("createdAt", ">=", filters.from);
  if (filters.to) query = query.where("createdAt", "<", filters.to);
  if (filters.userId !== undefined) query = query.where("userId", "=", filters.userId);
  if (filters.action) query = query.where("action", "=", filters.action);
  if (filters.entity) query = query.where("entity", "=", filters.entity);
  return query;
}

/** A page of rows, newest first, and the count of all that match. */
export async function listAuditLogs(db: Database, filters: AuditFilters, window: PageWindow) {
  const [rows, total] = await Promise.all([
    filtered(db, filters).selectAll().orderBy("createdAt", "desc").orderBy("id", "desc")
      .limit(window.limit).offset(window.offset).execute(),
    filtered(db, filters).select((eb) => eb.fn.countAll<number>().as("count"))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, count: Number(total.count) };
}

/**
 * The platform's auditRetentionDays setting: the one kept with the super users' company (the
 * lowest id, should super users sit in several), or undefined when unset.
 */
export async function platformRetentionSetting(db: Database): Promise<string | undefined> {
  const row = await crossCompany(db).selectFrom("settings")
    .innerJoin("users", "users.companyId", "settings.companyId")
    .select("settings.value").where("users.super", "=", 1)
    .where("settings.key", "=", "auditRetentionDays")
    .orderBy("settings.companyId").limit(1).executeTakeFirst();
  return row?.value;
}

/** Removes rows older than `before` (the retention job; the only delete there is). */
export async function deleteAuditLogsBefore(db: Database, before: string): Promise<number> {
  const result = await crossCompany(db).deleteFrom("audit_logs").where("createdAt", "<", before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
