import type { TFunction } from "i18next";

/**
 * A plan's limit of users, connections or queues as people read it: 0 means no limit
 * (server/plans/features.ts), shown 'ilimitado' (issue 24), not "0". The one formatter of the
 * plans table, the signup plan picker and the checkout.
 */
export function planLimit(value: number | null | undefined, t: TFunction): string {
  if (value === null || value === undefined) return "-";
  return value === 0 ? t("common.unlimited") : String(value);
}
