import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth, requirePlan } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { idParam, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import { limitedText, name2to50 } from "../../server/http/fields.ts";
import { LIMITS } from "../../contract/validation.ts";
import {
  createWebhook,
  deleteWebhook,
  listWebhooks,
  regenerateSecret,
  updateWebhook,
  webhookDeliveries,
} from "../../server/webhooks/service.ts";
import { WEBHOOK_EVENTS } from "../../contract/webhook_types.ts";

const url = limitedText(LIMITS.url);
const events = z.array(z.enum(WEBHOOK_EVENTS)).min(1, "Escolha ao menos um evento").max(
  WEBHOOK_EVENTS.length,
).transform((list) => [...new Set(list)]);
const createBody = z.object({ name: name2to50, url, events });
const updateBody = z.object({
  name: name2to50.optional(),
  url: url.optional(),
  events: events.optional(),
  active: z.boolean().optional(),
});

/**
 * /api/webhooks (issue 16): outgoing webhooks, for admins of a plan with useExternalApi.
 * GET answers {webhooks, count, hasMore}; POST {name, url, events} 201 (with the generated
 * secret); PUT /:id {name?, url?, events?, active?}; DELETE /:id; POST /:id/secret (a new one);
 * GET /:id/deliveries {deliveries}: the newest 20 with their status.
 */
export function webhookRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), allow("webhook:manage"), requirePlan("useExternalApi"));

  app.get("/", validate("query", z.object({ pageNumber })), async (c) => {
    const { pageNumber } = c.req.valid("query");
    return c.json(await listWebhooks(deps, authOf(c).companyId, pageNumber));
  });

  app.post("/", validate("json", createBody), async (c) => {
    return c.json(await createWebhook(deps, authOf(c), c.req.valid("json")), 201);
  });

  app.put("/:id{[0-9]+}", validate("param", idParam), validate("json", updateBody), async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await updateWebhook(deps, authOf(c), id, c.req.valid("json")));
  });

  app.delete("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    await deleteWebhook(deps, authOf(c), c.req.valid("param").id);
    return c.json({ message: "Webhook deleted" });
  });

  app.post("/:id{[0-9]+}/secret", validate("param", idParam), async (c) => {
    return c.json(await regenerateSecret(deps, authOf(c), c.req.valid("param").id));
  });

  app.get("/:id{[0-9]+}/deliveries", validate("param", idParam), async (c) => {
    return c.json(await webhookDeliveries(deps, authOf(c).companyId, c.req.valid("param").id));
  });

  return app;
}
