import { Hono } from "hono";
import { z } from "zod";
import { AUDIT_ACTIONS } from "../../contract/audit.ts";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { listAudit } from "../../server/audit/service.ts";
import { exportAudit } from "../../server/audit/export.ts";
import { callerLanguage } from "../../server/http/language.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";

const isoInstant = z.iso.datetime({ offset: true }).transform((v) => new Date(v).toISOString());

const filters = z.object({
  from: isoInstant.optional(),
  to: isoInstant.optional(),
  userId: z.coerce.number().int().positive().optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  entity: z.string().max(40).optional(),
  /** Super users: one company of the platform's log. */
  companyId: z.coerce.number().int().positive().optional(),
});

/**
 * Issue 30: the audit log, read only (no route updates or deletes it). Admins read their
 * company's; super users the platform's (server/audit/service.ts scopeOf).
 */
export function auditLogRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), allow("audit:read"));

  app.get("/", validate("query", filters.extend({ pageNumber })), async (c) => {
    return c.json(await listAudit(deps, authOf(c), c.req.valid("query")));
  });

  app.get("/export", validate("query", filters), async (c) => {
    const csv = await exportAudit(
      deps,
      authOf(c),
      { ...c.req.valid("query"), pageNumber: 1 },
      callerLanguage(c),
    );
    c.header("Content-Type", "text/csv; charset=utf-8");
    c.header("Content-Disposition", 'attachment; filename="audit-log.csv"');
    return c.body(csv);
  });

  return app;
}
