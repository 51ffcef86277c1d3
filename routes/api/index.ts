import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../server/context.ts";
import { authRoutes } from "./auth.ts";
import { messageRoutes } from "./messages.ts";
import { quickMessageRoutes } from "./quick_messages.ts";
import { scheduleRoutes } from "./schedules.ts";
import { tagRoutes } from "./tags.ts";
import { ticketNoteRoutes } from "./ticket_notes.ts";
import { ticketRoutes } from "./tickets.ts";
import { companyRoutes } from "./companies.ts";
import { contactRoutes } from "./contacts.ts";
import { dashboardRoutes } from "./dashboard.ts";
import { queueOptionRoutes } from "./queue_options.ts";
import { queueRoutes } from "./queues.ts";
import { settingRoutes } from "./settings.ts";
import { userRoutes } from "./users.ts";
import { mediaRoutes } from "./media.ts";
import { simulatorRoutes } from "./simulator.ts";
import { whatsappRoutes, whatsappSessionRoutes } from "./whatsapp.ts";
import { versionRoutes } from "./version.ts";
import { backupRoutes } from "./backups.ts";
import { passwordResetRoutes } from "./password_reset.ts";

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
  api.route("/contacts", contactRoutes(deps));
  api.route("/users", userRoutes(deps));
  api.route("/queue", queueRoutes(deps));
  api.route("/queue-options", queueOptionRoutes(deps));
  api.route("/settings", settingRoutes(deps));
  api.route("/companies", companyRoutes(deps));
  api.route("/dashboard", dashboardRoutes(deps));
  api.route("/whatsapp", whatsappRoutes(deps));
  api.route("/whatsappsession", whatsappSessionRoutes(deps));
  api.route("/simulator", simulatorRoutes(deps));
  api.route("/messages", mediaRoutes(deps));
  api.route("/version", versionRoutes(deps));
  api.route("/backups", backupRoutes(deps));
  api.route("/", passwordResetRoutes(deps));
  return api;
}
