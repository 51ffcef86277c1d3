import { timingSafeEqual } from "node:crypto";
import { Hono } from "hono";
import type { AppDeps, AppEnv } from "../server/context.ts";
import { AppError } from "../server/errors.ts";
import { METRICS_CONTENT_TYPE, scrape } from "../server/metrics/collect.ts";

/**
 * /metrics in the Prometheus text format, for the operator's scraper: `Authorization: Bearer
 * $METRICS_TOKEN`. Without METRICS_TOKEN the route does not exist (404), so a deployment that did
 * not choose a token never exposes its figures.
 */
export function metricsRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.get("/", async (c) => {
    const expected = deps.config.metricsToken;
    if (!expected) throw new AppError(404, "ERR_NOT_FOUND", "Route not found");
    const given = /^Bearer (.+)$/.exec(c.req.header("authorization") ?? "")?.[1] ?? "";
    if (!(await sameSecret(given, expected))) {
      c.header("WWW-Authenticate", 'Bearer realm="metrics"');
      throw new AppError(401, "ERR_UNAUTHORIZED", "Metrics token missing or wrong");
    }
    return c.body(await scrape(deps), 200, { "content-type": METRICS_CONTENT_TYPE });
  });
  return app;
}

/** Compares digests in constant time, so neither the token's bytes nor its length leak. */
async function sameSecret(given: string, expected: string): Promise<boolean> {
  const digest = async (text: string) =>
    new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return timingSafeEqual(await digest(given), await digest(expected));
}
