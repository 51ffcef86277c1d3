/**
 * The audit log (issue 30): what is recorded, as the server writes it and the /audit page
 * filters it. Append-only: rows are written in the transaction of the change they describe.
 */
export const AUDIT_ACTIONS = [
  "auth.login",
  "auth.loginFailed",
  "auth.logout",
  "twoFactor.enabled",
  "twoFactor.disabled",
  "twoFactor.reset",
  "twoFactor.recoveryCodeUsed",
  "session.ended",
  "user.created",
  "user.updated",
  "user.deleted",
  "setting.updated",
  "queue.created",
  "queue.updated",
  "queue.deleted",
  "connection.created",
  "connection.updated",
  "connection.deleted",
  "connection.tokenRegenerated",
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
  "webhook.secretRegenerated",
  "company.created",
  "company.updated",
  "company.deleted",
  "plan.created",
  "plan.updated",
  "plan.deleted",
  "subscription.planChanged",
  "invoice.created",
  "invoice.updated",
  "invoice.paid",
  "invoice.deleted",
  "integration.created",
  "integration.updated",
  "integration.deleted",
  "prompt.created",
  "prompt.updated",
  "prompt.deleted",
  "assist.called",
] as const;

export type AuditAction = typeof AUDIT_ACTIONS[number];

/** A row of GET /api/audit-logs (before and after: the changed fields, secrets masked). */
export type AuditLogView = {
  id: number;
  companyId: number;
  action: AuditAction;
  userId: number | null;
  userName: string | null;
  entity: string;
  entityId: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  ip: string | null;
  userAgent: string | null;
  createdAt: string;
};
