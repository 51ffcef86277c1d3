import type { MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { httpDuration, httpRequests } from "./registry.ts";

/**
 * Counts and times every request by its route pattern (`/api/tags/:id`, not `/api/tags/7`), so
 * the number of series stays bounded whatever paths clients send.
 */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export const countRequests: MiddlewareHandler = async (c, next) => {
  const started = performance.now();
  try {
    await next();
  } finally {
    // After next(), routePath is the pattern of the handler that answered; a parameter's
    // regular expression (`:id{[0-9]+}`) is left out of the label.
    const route = routePath(c).replace(/\{[^/]*\}(?=\/|$)/g, "");
    const method = METHODS.has(c.req.method) ? c.req.method : "OTHER";
    httpRequests.inc({ method, route, status: String(c.res.status) });
    httpDuration.observe({ method, route }, (performance.now() - started) / 1000);
  }
};
