import { Hono } from "hono";
import { z } from "zod";
import { REPORT_TABLES } from "../../contract/report_types.ts";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { validate } from "../../server/http/validate.ts";
import { idParam } from "../../server/http/params.ts";
import { exportReport } from "../../server/reports/export.ts";
import { callerLanguage } from "../../server/http/language.ts";
import { reportHeatmap, reportSummary, reportTable } from "../../server/reports/service.ts";
import { ticketTranscript } from "../../server/reports/transcript.ts";

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Expected a date YYYY-MM-DD").optional();
const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional();

/** The period (the service checks the dates are real and at most 12 months) and the filters. */
export const reportQuery = z.object({
  dateFrom: date,
  dateTo: date,
  queueId: id,
  userId: id,
  whatsappId: id,
  tagId: id,
});

/** /api/reports (issue 27): admins (server/reports/scope.ts decides what a caller covers). */
export function reportRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), allow("report:read"));

  for (const table of REPORT_TABLES) {
    app.get(`/${table}`, validate("query", reportQuery), async (c) => {
      return c.json(await reportTable(deps, authOf(c), table, c.req.valid("query")));
    });
    for (const format of ["xlsx", "csv"] as const) {
      app.get(`/${table}.${format}`, validate("query", reportQuery), async (c) => {
        const file = await exportReport(
          deps,
          authOf(c),
          table,
          format,
          c.req.valid("query"),
          callerLanguage(c),
        );
        return c.body(file.body, 200, {
          "content-type": file.contentType,
          "content-disposition": `attachment; filename="${file.fileName}"`,
        });
      });
    }
  }

  app.get("/summary", validate("query", reportQuery), async (c) => {
    return c.json(await reportSummary(deps, authOf(c), c.req.valid("query")));
  });

  app.get("/heatmap", validate("query", reportQuery), async (c) => {
    return c.json(await reportHeatmap(deps, authOf(c), c.req.valid("query")));
  });

  app.get("/tickets/:id{[0-9]+}/transcript", validate("param", idParam), async (c) => {
    const body = await ticketTranscript(
      deps,
      authOf(c),
      c.req.valid("param").id,
      callerLanguage(c),
    );
    return c.body(body, 200, {
      "content-type": "text/html; charset=utf-8",
      "content-disposition": `attachment; filename="ticket-${c.req.valid("param").id}.html"`,
    });
  });

  return app;
}
