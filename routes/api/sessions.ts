import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { endSession, listSessions } from "../../server/auth/sessions.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { idParam } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";

const listQuery = z.object({ scope: z.enum(["own", "company"]).default("own") });

/** Issue 30: the sessions a user (or an admin, for the company) sees and ends. */
export function sessionRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps));

  // scope=company needs session:manage-any, checked by the service (one route, two audiences).
  app.get("/", allow("app:use"), validate("query", listQuery), async (c) => {
    return c.json(await listSessions(deps, authOf(c), c.req.valid("query").scope));
  });

  app.delete("/:id", allow("app:use"), validate("param", idParam), async (c) => {
    await endSession(deps, authOf(c), c.req.valid("param").id);
    return c.body(null, 204);
  });

  return app;
}
