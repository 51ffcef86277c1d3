import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { dashboard, hourlyTickets, messagesCount } from "../../server/dashboard/service.ts";
import { validate } from "../../server/http/validate.ts";
import { ticketsDay, ticketsUsers } from "../../server/reports/service.ts";

/** Raw strings: which combination is valid is the service's rule ('Parametrize o filtro'). */
const rangeQuery = z.object({
  days: z.string().max(10).optional(),
  date_from: z.string().max(30).optional(),
  date_to: z.string().max(30).optional(),
});

const clientRange = z.object({
  initialDate: z.string().max(40).optional().transform((v) => v?.trim().slice(0, 10) || undefined),
  finalDate: z.string().max(40).optional().transform((v) => v?.trim().slice(0, 10) || undefined),
  companyId: z.string().max(20).optional(), // the client sends it; the token's company is used
});

export function dashboardRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps));
  // seeds/000 section 2: the dashboard is an admin screen.
  const admins = allow("dashboard:read");

  app.get("/", admins, validate("query", rangeQuery), async (c) => {
    return c.json(await dashboard(deps, authOf(c).companyId, c.req.valid("query")));
  });

  app.get("/hourly", admins, async (c) => c.json(await hourlyTickets(deps, authOf(c).companyId)));

  // The specification's client's charts (issue 27): `initialDate`/`finalDate` are local days.
  // They are reports: the reports' scope decides (admins, supervisors for their queues).
  const reports = allow("report:read");
  app.get("/ticketsUsers", reports, validate("query", clientRange), async (c) => {
    return c.json(await ticketsUsers(deps, authOf(c), c.req.valid("query")));
  });
  app.get("/ticketsDay", reports, validate("query", clientRange), async (c) => {
    return c.json(await ticketsDay(deps, authOf(c), c.req.valid("query")));
  });

  return app;
}

/** A day, or the day of an ISO date-time (the client may send either). */
const day = z.string().max(40).optional().transform((v) =>
  v === undefined || v.trim() === "" ? undefined : v.trim().slice(0, 10)
);

/** GET /api/messages-allMe (the specification's client's dashboard): see messagesCount. */
export function messagesAllMeRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), allow("dashboard:read"));
  app.get(
    "/",
    validate(
      "query",
      z.object({
        fromMe: z.enum(["true", "false", "1", "0"]).optional()
          .transform((v) => v === undefined ? undefined : v === "true" || v === "1"),
        dateStart: day,
        dateEnd: day,
      }),
    ),
    async (c) => c.json(await messagesCount(deps, authOf(c).companyId, c.req.valid("query"))),
  );
  return app;
}
