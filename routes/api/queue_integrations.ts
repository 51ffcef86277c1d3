import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth, requirePlan } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { name2to50 } from "../../server/http/fields.ts";
import { idParam, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import {
  changeIntegration,
  createIntegration,
  listIntegrations,
  removeIntegration,
  showIntegration,
  testSession,
} from "../../server/integrations/service.ts";
import { INTEGRATION_LANGUAGES, INTEGRATION_TYPES } from "../../contract/integrations.ts";

const text = (max: number) => z.string().max(max, "Too Long!");

// seeds/002 sections 3 and 5 (Queue integration); the URL rules by type live in the service.
const body = z.object({
  type: z.enum(INTEGRATION_TYPES),
  name: name2to50,
  projectName: text(100).optional(),
  jsonContent: text(20_000).optional(),
  language: z.enum(INTEGRATION_LANGUAGES).optional(),
  urlN8N: text(2000).optional(),
  typebotSlug: text(200).optional(),
  typebotExpires: z.coerce.number().int().min(0).max(10_080).optional(),
  typebotDelayMessage: z.coerce.number().int().min(0).max(60_000).optional(),
  typebotKeywordFinish: text(100).optional(),
  typebotKeywordRestart: text(100).optional(),
  typebotRestartMessage: text(4096).optional(),
  typebotUnknownMessage: text(4096).optional(),
});

/** /api/queueIntegration (seeds/002 section 7): admins of plans with useIntegrations. */
export function queueIntegrationRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), requirePlan("useIntegrations"), allow("integration:manage"));

  app.get(
    "/",
    validate("query", z.object({ searchParam: z.string().max(100).optional(), pageNumber })),
    async (c) => {
      const { searchParam, pageNumber } = c.req.valid("query");
      return c.json(await listIntegrations(deps, authOf(c).companyId, searchParam, pageNumber));
    },
  );

  app.get("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    return c.json(await showIntegration(deps, authOf(c).companyId, c.req.valid("param").id));
  });

  app.post("/", validate("json", body), async (c) => {
    return c.json(await createIntegration(deps, authOf(c), c.req.valid("json")), 201);
  });

  app.put("/:id{[0-9]+}", validate("param", idParam), validate("json", body), async (c) => {
    const { id } = c.req.valid("param");
    return c.json(await changeIntegration(deps, authOf(c), id, c.req.valid("json")));
  });

  app.delete("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    await removeIntegration(deps, authOf(c), c.req.valid("param").id);
    return c.json({ message: "Integration deleted" });
  });

  app.post(
    "/testSession",
    validate(
      "json",
      z.object({
        projectName: text(100).optional(),
        jsonContent: text(20_000).optional(),
        language: z.enum(INTEGRATION_LANGUAGES).optional(),
        id: z.number().int().positive().optional(),
      }),
    ),
    async (c) => c.json(await testSession(deps, authOf(c).companyId, c.req.valid("json"))),
  );

  return app;
}
