import type { PageGuard } from "./shell/AppShell.tsx";
import type { PlanFlags, SessionUser } from "../../contract/types.ts";
import {
  type Action,
  allows,
  BILLING_SESSION_ACTIONS,
  rolesOf,
  type SeedAction,
} from "../../contract/policy.ts";

export type { Action, SeedAction };

/**
 * May this user do this action? One table decides, the server's (contract/policy.ts): an action
 * of the table ("ticket:delete") or a named action of seeds/000 section 6
 * ("ticket-options:deleteTicket", the same line). Profiles compare case-insensitively; an action
 * the table does not list is not shown (false).
 *
 *   {can(user, "connections-page:addConnection") ? <Button>...</Button> : null}
 */
export function can(
  user:
    | Pick<SessionUser, "profile"> & Partial<Pick<SessionUser, "super" | "restricted">>
    | null,
  action: Action | SeedAction,
): boolean {
  if (!user) return false;
  // A late company's admin may only pay (contract/policy.ts BILLING_SESSION_ACTIONS).
  if (user.restricted === "billing" && !BILLING_SESSION_ACTIONS.includes(action as Action)) {
    return false;
  }
  return allows(rolesOf({ profile: user.profile, super: user.super === true }), action);
}

/**
 * May this user open /reports (issue 27)? The page's gate "report:read", then the record rule
 * the server asserts (contract/record_policy.ts reportScopeNeeds over the session's
 * supervisedQueueIds, issue 26): admins (every queue), and supervisors of some queue for theirs.
 * Restated here, not imported: the record rules' module would add ~440 bytes to every page's first
 * load (the 404 page is at its 100 KiB); tests/api/ticket_audience_property_test.ts proves the
 * two answer alike.
 */
export function canReadReports(
  user:
    | Pick<SessionUser, "profile">
      & Partial<
        Pick<SessionUser, "super" | "restricted" | "supervisedQueueIds">
      >
    | null,
): boolean {
  return can(user, "report:read") &&
    ((user?.supervisedQueueIds?.length ?? 0) > 0 || can(user, "report:read-all"));
}

/** The plan flags a page can depend on (seeds/001 section 6; server/plans/features.ts). */
export type PlanFeature = Exclude<
  keyof PlanFlags,
  "id" | "name" | "users" | "connections" | "queues"
>;

/** Does the company's current plan have this feature? */
export function hasFeature(user: Pick<SessionUser, "company"> | null, flag: PlanFeature): boolean {
  return user?.company.plan?.[flag] === true;
}

/**
 * The AppShell guard of a page behind a plan flag (/kanban: `guard={planGuard("useKanban")}`):
 * 'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.' and /
 * after 1 second (seeds/002 section 6). The shell re-reads the session when the company's plan
 * changes (company-<id>-plan), so a page left open is left as soon as the flag goes.
 */
export function planGuard(flag: PlanFeature): PageGuard {
  return {
    allow: (user) => hasFeature(user, flag),
    message: "errors.noPermissionPage",
    redirectTo: "/",
  };
}
