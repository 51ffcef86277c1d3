import { type Action, allows, type Role } from "../../contract/policy.ts";
import { forbidden } from "../errors.ts";

/** Anyone the server knows the roles of: the token's caller (AuthInfo), a ticket Viewer. */
export type RoleHolder = { roles: readonly Role[] };

/** May this caller do this action? (contract/policy.ts, the one table.) */
export function isAllowed(who: RoleHolder | undefined, action: Action): boolean {
  return who !== undefined && allows(who.roles, action);
}

/** 403 ERR_NO_PERMISSION ('Acesso não permitido', or the service's own text) unless allowed. */
export function assertAllowed(who: RoleHolder | undefined, action: Action, message?: string) {
  if (!isAllowed(who, action)) throw forbidden(message);
}
