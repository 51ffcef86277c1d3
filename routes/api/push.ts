import { Hono } from "hono";
import { z } from "zod";
import { PUSH_KINDS } from "../../contract/push_types.ts";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { idParam } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import {
  getPreferences,
  listDevices,
  pushKey,
  removeDevice,
  setPreferences,
  subscribe,
} from "../../server/push/service.ts";

const base64url = (length: number) =>
  z.string().regex(new RegExp(`^[A-Za-z0-9_-]{${length}}=*$`), "Invalid key");

/** The browser's PushSubscription JSON (`subscription.toJSON()`), and the page's language. */
const subscriptionBody = z.object({
  endpoint: z.url({ protocol: /^https?$/ }).max(2000),
  expirationTime: z.number().nullable().optional(),
  keys: z.object({ p256dh: base64url(87), auth: base64url(22) }),
  language: z.string().max(10).optional(),
});

const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "HH:MM").nullable();
const preferencesBody = z.object({
  kinds: z.array(z.enum(PUSH_KINDS)).max(PUSH_KINDS.length),
  showText: z.boolean(),
  quietStart: hhmm,
  quietEnd: hhmm,
}).refine((p) => (p.quietStart === null) === (p.quietEnd === null), {
  path: ["quietEnd"],
  message: "Required",
});

/** Issue 42: Web Push: the VAPID key, the caller's devices and choices. */
export function pushRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps));

  app.get("/key", allow("app:use"), async (c) => c.json(await pushKey(deps)));

  app.get("/subscriptions", allow("app:use"), async (c) => {
    return c.json(await listDevices(deps, authOf(c)));
  });

  app.post("/subscriptions", allow("app:use"), validate("json", subscriptionBody), async (c) => {
    const body = c.req.valid("json");
    return c.json(
      await subscribe(deps, authOf(c), body, c.req.header("user-agent") ?? null),
      201,
    );
  });

  app.delete("/subscriptions/:id", allow("app:use"), validate("param", idParam), async (c) => {
    await removeDevice(deps, authOf(c), c.req.valid("param").id);
    return c.body(null, 204);
  });

  app.get("/preferences", allow("app:use"), async (c) => {
    return c.json(await getPreferences(deps, authOf(c)));
  });

  app.put("/preferences", allow("app:use"), validate("json", preferencesBody), async (c) => {
    return c.json(await setPreferences(deps, authOf(c), c.req.valid("json")));
  });

  return app;
}
