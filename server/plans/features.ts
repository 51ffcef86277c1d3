import type { Plan } from "../../db/schema.ts";
import { AppError } from "../errors.ts";
import type { Channel } from "../realtime/events.ts";

/**
 * The one place that says which plan flag gates what (seeds/000 section 3 'Plan', seeds/001
 * section 6). `requireAuth` refuses a route under a gated prefix with 403
 * ERR_PLAN_FEATURE_DISABLED for a company whose CURRENT plan lacks the flag (the plan is read on
 * every request, so a plan change applies at once); the hub drops a gated channel's events for
 * sockets of such a company (their flags are refreshed in place on a plan change); the menu hides
 * the entries (islands/lib/shell/menu.ts reads the same flag names from /auth/me).
 * tests/api/plan_gates_test.ts walks the route table against this list.
 */
export const FEATURE_FLAGS = [
  "useCampaigns",
  "useKanban",
  "useOpenAi",
  "useIntegrations",
  "useSchedules",
  "useInternalChat",
  "useExternalApi",
  "useAssist",
] as const;
export type FeatureFlag = typeof FEATURE_FLAGS[number];

/**
 * API path prefixes (under /api, matched on whole segments) and the flag each needs. A new gated
 * area adds one line here. A sub-app may also say requirePlan(flag) itself; the route walk
 * (tests/api/plan_gates_test.ts) fails when such a route is missing here or names another flag.
 * The send API authenticates with connection tokens and checks useExternalApi itself
 * (server/external_api/auth.ts).
 */
export const ROUTE_FLAGS: Readonly<Record<string, FeatureFlag>> = Object.freeze({
  "/api/schedules": "useSchedules",
  "/api/ticket/kanban": "useKanban",
  "/api/ticket-tags": "useKanban",
  "/api/tags/kanban": "useKanban",
  "/api/campaigns": "useCampaigns",
  "/api/campaign-settings": "useCampaigns",
  "/api/contact-lists": "useCampaigns",
  "/api/contact-list-items": "useCampaigns",
  "/api/files": "useCampaigns",
  "/api/chats": "useInternalChat",
  "/api/queueIntegration": "useIntegrations",
  "/api/prompt": "useOpenAi",
  "/api/webhooks": "useExternalApi",
  "/api/assist": "useAssist",
});

/** Realtime channels whose events only sockets of a plan with the flag hear (the hub drops them). */
export const CHANNEL_FLAGS: Readonly<Partial<Record<Channel, FeatureFlag>>> = Object.freeze({
  schedule: "useSchedules",
  chat: "useInternalChat",
  "chat-user": "useInternalChat",
  campaign: "useCampaigns",
  contactList: "useCampaigns",
  contactListItem: "useCampaigns",
  file: "useCampaigns",
  prompt: "useOpenAi",
  queueIntegration: "useIntegrations",
  webhook: "useExternalApi",
});

/** The flag a request path needs, if any (whole path segments: /api/chats never gates /api/chatsX). */
export function flagForPath(path: string): FeatureFlag | undefined {
  for (const [prefix, flag] of Object.entries(ROUTE_FLAGS)) {
    if (path === prefix || path.startsWith(`${prefix}/`)) return flag;
  }
  return undefined;
}

/** The flags a plan switches on (none without a plan). */
export function enabledFlags(plan: Plan | null | undefined): Set<FeatureFlag> {
  const on = new Set<FeatureFlag>();
  if (!plan) return on;
  for (const flag of FEATURE_FLAGS) if (plan[flag] === 1) on.add(flag);
  return on;
}

/**
 * A plan's flags as booleans (the database keeps 0 and 1), in `order`: the session's plan
 * (contract PlanFlags) and the plans' answer (PlanView) each keep the order their JSON has.
 */
export function flagSwitches(
  plan: Plan,
  order: readonly FeatureFlag[] = FEATURE_FLAGS,
): Record<FeatureFlag, boolean> {
  return Object.fromEntries(order.map((flag) => [flag, plan[flag] === 1])) as Record<
    FeatureFlag,
    boolean
  >;
}

/** Numeric limits of a plan. 0 means "no limit" (seeds/001 section 9: a new plan's numbers are 0). */
export type LimitKind = "users" | "connections" | "queues";

const LIMIT_NAMES: Record<LimitKind, string> = {
  users: "usuários",
  connections: "conexões",
  queues: "filas",
};

/** The refusal for a full limit, naming it, or null when `count` more fit (0 = unlimited). */
export function limitReached(
  plan: Pick<Plan, LimitKind> | null | undefined,
  kind: LimitKind,
  count: number,
): { limit: number; message: string } | null {
  const limit = plan?.[kind] ?? 0;
  if (limit <= 0 || count < limit) return null;
  return {
    limit,
    message: `Limite do plano atingido: o plano da empresa permite ${limit} ${LIMIT_NAMES[kind]}`,
  };
}

/** Throws 403 ERR_PLAN_LIMIT when the company already has `count` of `kind` and the plan is full. */
export function assertBelowLimit(
  plan: Pick<Plan, LimitKind> | null | undefined,
  kind: LimitKind,
  count: number,
) {
  const reached = limitReached(plan, kind, count);
  if (reached) throw new AppError(403, "ERR_PLAN_LIMIT", reached.message);
}
