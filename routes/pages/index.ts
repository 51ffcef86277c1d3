import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../../server/context.ts";

/** Server-rendered pages and static assets. */
export function pageRoutes(_deps: AppDeps) {
  const pages = new Hono<AppEnv>();
  pages.get("/healthz", (c) => c.json({ ok: true }));
  return pages;
}
