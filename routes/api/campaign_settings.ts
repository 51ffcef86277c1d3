import { Hono } from "hono";
import { z } from "zod";
import { allow, requireAuth } from "../../server/auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../../server/context.ts";
import { requireCampaigns } from "../../server/campaigns/gate.ts";
import {
  listCampaignSettings,
  saveCampaignSettings,
  settingsSchema,
} from "../../server/campaigns/settings.ts";
import { validate } from "../../server/http/validate.ts";

/** /api/campaign-settings (seeds/002 section 7 'Campaign settings'). */
export function campaignSettingRoutes(deps: AppDeps) {
  const app = new Hono<AppEnv>();
  app.use("*", requireAuth(deps), ...requireCampaigns(deps), allow("campaign:manage"));

  app.get("/", async (c) => c.json(await listCampaignSettings(deps.db, authOf(c).companyId)));

  app.post(
    "/",
    validate("json", z.object({ settings: settingsSchema.partial() })),
    async (c) => {
      const now = deps.clock.now().toISOString();
      const { settings } = c.req.valid("json");
      return c.json(await saveCampaignSettings(deps.db, authOf(c).companyId, settings, now));
    },
  );

  return app;
}
