import { can } from "./permissions.ts";
import { campaignsEnabled } from "./session_storage.ts";
import type { PageGuard } from "./shell/AppShell.tsx";
import { readStorage, STORAGE } from "./storage.ts";
import type { SessionUser } from "../../contract/types.ts";

/** The campaign API's rule (server/campaigns/gate.ts): an admin, the plan flag, the setting. */
export function mayUseCampaigns(user: SessionUser): boolean {
  return can(user, "campaign:manage") && user.company.plan?.useCampaigns === true &&
    campaignsEnabled(user);
}

/**
 * The campaign pages (seeds/002 sections 2.1 and 6): shown only with the stored flag cshow and
 * when the server would answer; otherwise the permission message and back to / after 1 s.
 */
export const CAMPAIGN_GUARD: PageGuard = {
  allow: (user) => mayUseCampaigns(user) && readStorage(STORAGE.cshow) !== null,
  message: "errors.noPermissionPage",
  redirectTo: "/",
};

/** /files is in the full route table (no cshow), behind the same server rule. */
export const FILES_GUARD: PageGuard = { ...CAMPAIGN_GUARD, allow: mayUseCampaigns };
