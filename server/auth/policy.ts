import {
  type Action,
  allows,
  BILLING_SESSION_ACTIONS,
  type Restriction,
  type Role,
} from "../../contract/policy.ts";
import type { Needs } from "../../contract/record_policy.ts";
import { AppError, forbidden } from "../errors.ts";

/**
 * Anyone the server knows the roles of: the token's caller (AuthInfo), a ticket Viewer. A late
 * company's admin's session is `restricted` to BILLING_SESSION_ACTIONS.
 */
export type RoleHolder = { roles: readonly Role[]; restricted?: Restriction };

export const SUBSCRIPTION_OVERDUE_TEXT =
  "Sua assinatura está vencida. Pague a fatura em aberto em Financeiro para voltar a usar o sistema.";

/** 403 ERR_SUBSCRIPTION_OVERDUE: what a billing-only session gets for everything else. */
export function subscriptionOverdue(): AppError {
  return new AppError(403, "ERR_SUBSCRIPTION_OVERDUE", SUBSCRIPTION_OVERDUE_TEXT);
}

function withinRestriction(who: RoleHolder, action: Action): boolean {
  return who.restricted !== "billing" || BILLING_SESSION_ACTIONS.includes(action);
}

/** May this caller do this action? (contract/policy.ts, the one table.) */
export function isAllowed(who: RoleHolder | undefined, action: Action): boolean {
  return who !== undefined && allows(who.roles, action) && withinRestriction(who, action);
}

/**
 * 403 ERR_NO_PERMISSION ('Acesso não permitido', or the service's own text) unless allowed; a
 * billing-only session asking for anything else: 403 ERR_SUBSCRIPTION_OVERDUE.
 */
export function assertAllowed(who: RoleHolder | undefined, action: Action, message?: string) {
  if (who && !withinRestriction(who, action)) throw subscriptionOverdue();
  if (!isAllowed(who, action)) throw forbidden(message);
}

/** Does the caller hold every line a record rule asks for (contract/record_policy.ts)? */
export function recordAllowed(who: RoleHolder | undefined, needs: Needs): boolean {
  return needs.every((action) => isAllowed(who, action));
}

/** A record rule's answer asserted line by line, as assertAllowed does for one. */
export function assertRecord(who: RoleHolder | undefined, needs: Needs, message?: string) {
  for (const action of needs) assertAllowed(who, action, message);
}
