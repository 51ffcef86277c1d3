import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../server/context.ts";
import { authRoutes } from "./auth.ts";
import { mediaRoutes } from "./media.ts";
import { simulatorRoutes } from "./simulator.ts";
import { whatsappRoutes, whatsappSessionRoutes } from "./whatsapp.ts";

/** Every API sub-app, mounted under /api. One line per resource. */
export function apiRoutes(deps: AppDeps) {
  const api = new Hono<AppEnv>();
  api.route("/auth", authRoutes(deps));
  api.route("/whatsapp", whatsappRoutes(deps));
  api.route("/whatsappsession", whatsappSessionRoutes(deps));
  api.route("/simulator", simulatorRoutes(deps));
  api.route("/messages", mediaRoutes(deps));
  return api;
}
