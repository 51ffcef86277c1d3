import type { AuditAction, AuditLogView } from "../../contract/audit.ts";
import type { Database } from "../../db/client.ts";
import type { AuditLogsTable } from "../../db/schema.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { isAllowed } from "../auth/policy.ts";
import { pageAnswer, pageWindow } from "../paging.ts";
import {
  type AuditFilters,
  deleteAuditLogsBefore,
  insertAuditLog,
  listAuditLogs,
  platformRetentionSetting,
} from "./repository.ts";

/** Who did it and from where (null: nobody signed in, e.g. a failed login). */
export type AuditActor = {
  userId: number | null;
  userName: string | null;
  ip: string | null;
  userAgent: string | null;
};

export type AuditEntry = {
  companyId: number;
  actor: AuditActor;
  action: AuditAction;
  entity: string;
  entityId?: string | number | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
};

/** The caller of a request as the log names them (requireAuth sets the address and device). */
export function actorOf(auth: AuthInfo): AuditActor {
  return {
    userId: auth.userId,
    userName: auth.user.name,
    ip: auth.client?.ip ?? null,
    userAgent: auth.client?.userAgent ?? null,
  };
}

// jsonContent: an integration's service account (a private key inside); key$: apiKey, voiceKey.
const SECRET_FIELD = /password|secret|token|api_key|hash|key$|jsoncontent/i;

/** Secrets never reach the log: their value is replaced, only the fact of a change stays. */
export function masked(fields: Record<string, unknown> | null | undefined): string | null {
  if (!fields) return null;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    out[key] = SECRET_FIELD.test(key) && value !== null && value !== "" ? "***" : value;
  }
  return JSON.stringify(out);
}

/**
 * Writes the record of a change. Call it with the change's transaction: the change and its
 * record commit together or not at all (issue 30: a change without its record cannot exist).
 */
export async function recordAudit(db: Database, now: string, entry: AuditEntry) {
  await insertAuditLog(db, {
    companyId: entry.companyId,
    userId: entry.actor.userId,
    userName: entry.actor.userName,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId === undefined || entry.entityId === null
      ? null
      : String(entry.entityId),
    before: masked(entry.before),
    after: masked(entry.after),
    ip: entry.actor.ip,
    userAgent: entry.actor.userAgent,
    createdAt: now,
  });
}

/**
 * A change by the request's caller, recorded in `db`: give it the change's transaction
 * (recordAudit). `change` holds the fields before and after (changedFields for an update).
 * `target.companyId`: the company changed when it is not the caller's (a super user acting on
 * another company, whose admins then read the row); by default the caller's.
 */
export async function auditBy(
  db: Database,
  auth: AuthInfo,
  now: string,
  action: AuditAction,
  target: { entity: string; id: number | string; companyId?: number },
  change: { before?: Record<string, unknown>; after?: Record<string, unknown> } = {},
) {
  await recordAudit(db, now, {
    companyId: target.companyId ?? auth.companyId,
    actor: actorOf(auth),
    action,
    entity: target.entity,
    entityId: target.id,
    ...change,
  });
}

/** Only the fields that differ between two snapshots, each side with its own value. */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const was: Record<string, unknown> = {};
  const now: Record<string, unknown> = {};
  for (const key of Object.keys(after)) {
    if (after[key] === undefined) continue;
    if (JSON.stringify(before[key]) === JSON.stringify(after[key])) continue;
    was[key] = before[key] ?? null;
    now[key] = after[key];
  }
  return { before: was, after: now };
}

export type AuditQuery = Omit<AuditFilters, "companyId"> & {
  pageNumber: number;
  companyId?: number;
};

function viewOf(row: AuditLogsTable & { id: number }): AuditLogView {
  return {
    id: row.id,
    companyId: row.companyId,
    action: row.action as AuditAction,
    userId: row.userId,
    userName: row.userName,
    entity: row.entity,
    entityId: row.entityId,
    before: row.before ? JSON.parse(row.before) : null,
    after: row.after ? JSON.parse(row.after) : null,
    ip: row.ip,
    userAgent: row.userAgent,
    createdAt: row.createdAt,
  };
}

/** Whose rows a reader sees: an admin their company's; a super user every company's, or one. */
export function scopeOf(auth: AuthInfo, query: AuditQuery): number | null {
  return isAllowed(auth, "audit:read-platform") ? query.companyId ?? null : auth.companyId;
}

/**
 * GET /api/audit-logs: an admin reads their company's rows; a super user the platform's (every
 * company, or the one asked for).
 */
export async function listAudit(deps: AppDeps, auth: AuthInfo, query: AuditQuery) {
  const companyId = scopeOf(auth, query);
  const window = pageWindow(query.pageNumber);
  const { rows, count } = await listAuditLogs(deps.db, { ...query, companyId }, window);
  return pageAnswer(
    "records",
    rows.map((r) => viewOf(r as AuditLogsTable & { id: number })),
    count,
    window,
  );
}

/**
 * The retention job (jobs/registry.ts): rows older than the super users' auditRetentionDays
 * setting (unset: AUDIT_RETENTION_DAYS) go, every company's (0 keeps them all). The only delete of
 * the log; a tick run twice finds nothing more to delete.
 */
export async function pruneAuditLogs(deps: AppDeps): Promise<number> {
  const setting = await platformRetentionSetting(deps.db);
  const days = setting === undefined || setting === ""
    ? deps.config.auditRetentionDays
    : Number(setting);
  if (days === 0) return 0;
  const before = new Date(deps.clock.now().getTime() - days * 86_400_000).toISOString();
  return await deleteAuditLogsBefore(deps.db, before);
}
