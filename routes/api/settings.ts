import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { validate } from "../../server/http/validate.ts";
import { listSettings, updateSetting } from "../../server/settings/service.ts";

/** The value's shape depends on the key, so the service validates it against the key's rule. */
const body = z.object({ value: z.unknown() });
const keyParam = z.object({ key: z.string().min(1).max(64) });

export function settingRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), allow("setting:read"));

  app.get("/", async (c) => c.json(await listSettings(deps, authOf(c))));

  app.put(
    "/:key",
    allow("setting:manage"),
    validate("param", keyParam),
    validate("json", body),
    async (c) => {
      const { key } = c.req.valid("param");
      return c.json(await updateSetting(deps, authOf(c), key, c.req.valid("json").value));
    },
  );

  return app;
}
