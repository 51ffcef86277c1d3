import type { MiddlewareHandler } from "hono";
import { requirePlan } from "../auth/middleware.ts";
import { type AppDeps, type AppEnv, authOf } from "../context.ts";
import { AppError } from "../errors.ts";
import { getSettingValue } from "../settings/repository.ts";

/**
 * Campaigns, contact lists, file lists and the campaign settings exist for a company only when its
 * plan has `useCampaigns` AND its `campaignsEnabled` setting (a super user's switch,
 * server/settings/rules.ts) is "true" (issue 13). Checked on the server for every route; the
 * browser's cshow flag only hides the menu.
 */
export function requireCampaigns(deps: AppDeps): MiddlewareHandler<AppEnv>[] {
  const enabled: MiddlewareHandler<AppEnv> = async (c, next) => {
    const companyId = authOf(c).companyId;
    if (await getSettingValue(deps.db, companyId, "campaignsEnabled") !== "true") {
      throw new AppError(
        403,
        "ERR_PLAN_FEATURE_DISABLED",
        "As campanhas não estão habilitadas para esta empresa",
      );
    }
    await next();
  };
  return [requirePlan("useCampaigns"), enabled];
}
