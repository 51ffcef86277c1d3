import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../server/context.ts";
import { versionOf } from "../../server/ops/version.ts";

/** /api/version: public, the release and the schema level (no tenant data). */
export function versionRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.get("/", async (c) => c.json(await versionOf(deps.db)));
  return app;
}
