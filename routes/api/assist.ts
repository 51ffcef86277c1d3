import { Hono } from "hono";
import { allow, requireAuth, requirePlan } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { assistUsage } from "../../server/assist/meter.ts";

/** /api/assist (issue 48): the month's meter of the attendant's assistant, for admins. */
export function assistRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), requirePlan("useAssist"), allow("setting:manage"));
  app.get("/usage", async (c) => c.json(await assistUsage(deps, authOf(c))));
  return app;
}
