import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../server/context.ts";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { storageStatus } from "../../server/storage/service.ts";

/** GET /api/storage: the data folder's state and free space, for admins' banner (issue 34). */
export function storageRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.get("/", requireAuth(deps), allow("storage:read"), async (c) => {
    return c.json(await storageStatus(deps));
  });
  return app;
}
