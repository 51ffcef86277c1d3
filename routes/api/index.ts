import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../server/context.ts";
import { authRoutes } from "./auth.ts";
import { messageRoutes } from "./messages.ts";
import { quickMessageRoutes } from "./quick_messages.ts";
import { scheduleRoutes } from "./schedules.ts";
import { tagRoutes } from "./tags.ts";
import { ticketNoteRoutes } from "./ticket_notes.ts";
import { ticketRoutes } from "./tickets.ts";

/** Every API sub-app, mounted under /api. One line per resource. */
export function apiRoutes(deps: AppDeps) {
  const api = new Hono<AppEnv>();
  api.route("/auth", authRoutes(deps));
  api.route("/tickets", ticketRoutes(deps));
  api.route("/messages", messageRoutes(deps));
  api.route("/ticket-notes", ticketNoteRoutes(deps));
  api.route("/tags", tagRoutes(deps));
  api.route("/quick-messages", quickMessageRoutes(deps));
  api.route("/schedules", scheduleRoutes(deps));
  return api;
}
