import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../server/context.ts";
import { authRoutes } from "./auth.ts";

/** Every API sub-app, mounted under /api. One line per resource. */
export function apiRoutes(deps: AppDeps) {
  const api = new Hono<AppEnv>();
  api.route("/auth", authRoutes(deps));
  return api;
}
