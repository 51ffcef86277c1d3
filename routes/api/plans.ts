import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { limitedText } from "../../server/http/fields.ts";
import { idParam, pageNumber } from "../../server/http/params.ts";
import { validate } from "../../server/http/validate.ts";
import {
  changePlan,
  createPlan,
  getPlan,
  listPlanViews,
  pagePlans,
  removePlan,
} from "../../server/plans/service.ts";
import { LIMITS } from "../../contract/validation.ts";

const listQuery = z.object({ searchParam: z.string().max(100).optional(), pageNumber });

/** A plan limit: a whole number, 0 meaning "no limit" (server/plans/features.ts). */
const limit = z.coerce.number({ error: "Informe um número" }).int("Informe um número inteiro")
  .min(0, "O limite não pode ser negativo").max(100_000);
const money = z.coerce.number({ error: "Informe um valor" }).min(0, "O valor não pode ser negativo")
  .max(10_000_000).refine(Number.isFinite, "Informe um valor");
const flag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) =>
  v === true || v === 1
);

const fields = {
  name: limitedText(LIMITS.name),
  value: money,
  users: limit,
  connections: limit,
  queues: limit,
  useCampaigns: flag,
  useSchedules: flag,
  useInternalChat: flag,
  useExternalApi: flag,
  useKanban: flag,
  useOpenAi: flag,
  useIntegrations: flag,
  useAssist: flag,
};

/** seeds/001 section 9: a new plan has every switch on and its numbers at 0. */
const createBody = z.object({
  name: fields.name,
  value: fields.value.default(0),
  users: fields.users.default(0),
  connections: fields.connections.default(0),
  queues: fields.queues.default(0),
  useCampaigns: fields.useCampaigns.default(true),
  useSchedules: fields.useSchedules.default(true),
  useInternalChat: fields.useInternalChat.default(true),
  useExternalApi: fields.useExternalApi.default(true),
  useKanban: fields.useKanban.default(true),
  useOpenAi: fields.useOpenAi.default(true),
  useIntegrations: fields.useIntegrations.default(true),
  useAssist: fields.useAssist.default(true),
});
const updateBody = z.object(fields).partial();

/**
 * /api/plans (seeds/001 section 7 'Plans'). `/list` is public: the signup page offers the plans.
 * Everything else is for super users.
 */
export function planRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  // Registered before the auth middleware: answered without a token.
  app.get("/list", async (c) => c.json(await listPlanViews(deps)));

  app.use("*", requireAuth(deps), allow("plan:manage"));
  app.get("/all", async (c) => c.json(await listPlanViews(deps)));
  app.get("/", validate("query", listQuery), async (c) => {
    const { searchParam, pageNumber } = c.req.valid("query");
    return c.json(await pagePlans(deps, searchParam, pageNumber));
  });
  app.get("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    return c.json(await getPlan(deps, c.req.valid("param").id));
  });
  app.post("/", validate("json", createBody), async (c) => {
    return c.json(await createPlan(deps, authOf(c), c.req.valid("json")), 201);
  });
  app.put("/:id{[0-9]+}", validate("param", idParam), validate("json", updateBody), async (c) => {
    return c.json(await changePlan(deps, authOf(c), c.req.valid("param").id, c.req.valid("json")));
  });
  app.delete("/:id{[0-9]+}", validate("param", idParam), async (c) => {
    await removePlan(deps, authOf(c), c.req.valid("param").id);
    return c.body(null, 204);
  });
  return app;
}
