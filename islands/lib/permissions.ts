import type { SessionUser } from "./types.ts";

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
