import { Hono } from "hono";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import type { AppDeps, AppEnv } from "../../server/context.ts";
import { listBackups, takeBackup } from "../../server/ops/backup.ts";

/** /api/backups: super users list the backups and take one on demand (issue 17). */
export function backupRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), allow("backup:manage"));
  app.get("/", async (c) => c.json({ backups: await listBackups(deps.config) }));
  app.post(
    "/",
    async (c) => c.json(await takeBackup(deps.config, deps.clock, { thread: "worker" }), 201),
  );
  return app;
}
