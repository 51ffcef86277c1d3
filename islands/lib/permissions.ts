import type { PageGuard } from "./shell/AppShell.tsx";
import type { PlanFlags, SessionUser } from "../../contract/types.ts";

/**
 * The named actions of seeds/000 section 6 and who may do them. Admins have every one; users
 * have none ("no static permissions"); any other action is not shown (false).
 *
 *   {can(user, "connections-page:addConnection") ? <Button>...</Button> : null}
 */
export type Action =
  | "tickets-manager:showall"
  | "ticket-options:deleteTicket"
  | "connections-page:addConnection"
  | "connections-page:actionButtons"
  | "connections-page:editOrDeleteConnection"
  | "user-modal:editProfile"
  | "user-modal:editQueues"
  | "contacts-page:deleteContact";

const ADMIN_ACTIONS: ReadonlySet<Action> = new Set<Action>([
  "tickets-manager:showall",
  "ticket-options:deleteTicket",
  "connections-page:addConnection",
  "connections-page:actionButtons",
  "connections-page:editOrDeleteConnection",
  "user-modal:editProfile",
  "user-modal:editQueues",
  "contacts-page:deleteContact",
]);

/** May this user do this action? (Profiles compare case-insensitively, section 6.) */
export function can(user: Pick<SessionUser, "profile"> | null, action: Action): boolean {
  if (!user) return false;
  return user.profile.toLowerCase() === "admin" && ADMIN_ACTIONS.has(action);
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
