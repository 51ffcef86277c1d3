import { Hono } from "hono";
import { z } from "zod";
import { requireAdmin, requireAuth } from "../../server/auth/middleware.ts";
import { companyPlan, getCompany, updateCompanySchedules } from "../../server/companies/service.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { idParam } from "../../server/http/fields.ts";
import { validate } from "../../server/http/validate.ts";
import { workingHours } from "../../server/queues/hours_schema.ts";

const companyIdParam = z.object({ companyId: z.coerce.number().int().positive() });
const schedulesBody = z.object({ schedules: workingHours });

export function companyRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps));

  app.get("/listPlan/:companyId", validate("param", companyIdParam), async (c) => {
    return c.json(await companyPlan(deps, authOf(c), c.req.valid("param").companyId));
  });

  app.get("/:id", validate("param", idParam), async (c) => {
    return c.json(await getCompany(deps, authOf(c), c.req.valid("param").id));
  });

  app.put(
    "/:id/schedules",
    requireAdmin,
    validate("param", idParam),
    validate("json", schedulesBody),
    async (c) => {
      const { id } = c.req.valid("param");
      const { schedules } = c.req.valid("json");
      return c.json(await updateCompanySchedules(deps, authOf(c), id, schedules));
    },
  );

  return app;
}
