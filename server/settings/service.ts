import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError, notFound } from "../errors.ts";
import { assertAllowed, isAllowed } from "../auth/policy.ts";
import { actorOf, recordAudit } from "../audit/service.ts";
import { fieldErrors } from "../http/validate.ts";
import { DEFAULT_SETTINGS } from "./defaults.ts";
import * as repo from "./repository.ts";
import { isSealedSetting, isSecretSetting, SETTING_RULES } from "./rules.ts";
import { mask, seal, unsealOrEmpty } from "../crypto/sealed.ts";
import { TIME_ZONE_SETTING } from "../../contract/time_zone.ts";
import { followZone } from "../reports/local_days_repository.ts";

export type SettingView = { key: string; value: string };

/** What an answer shows of a sealed setting: a mask of the key, never the key. */
async function shownValue(deps: AppDeps, key: string, value: string): Promise<string> {
  if (!isSealedSetting(key) || value === "") return value;
  return mask(await unsealOrEmpty(deps.secrets.data, value)) || "••••••••";
}

/**
 * GET /api/settings: the company's key/value list, known keys completed with their defaults.
 * Integration secrets are left out for non-admins.
 */
export async function listSettings(deps: AppDeps, auth: AuthInfo): Promise<SettingView[]> {
  const rows = await repo.listSettings(deps.db, auth.companyId);
  const byKey = new Map(rows.map((r) => [r.key, r.value]));
  for (const [key, value] of Object.entries(DEFAULT_SETTINGS)) {
    if (!byKey.has(key)) byKey.set(key, value);
  }
  const shown = [...byKey].filter(([key]) =>
    isAllowed(auth, "setting:manage") || !isSecretSetting(key)
  ).sort(([a], [b]) => a.localeCompare(b));
  return await Promise.all(
    shown.map(async ([key, value]) => ({ key, value: await shownValue(deps, key, value) })),
  );
}

/** PUT /api/settings/:key (admins): validates the value for that key and announces it. */
export async function updateSetting(
  deps: AppDeps,
  auth: AuthInfo,
  key: string,
  value: unknown,
): Promise<SettingView> {
  const rule = Object.hasOwn(SETTING_RULES, key) ? SETTING_RULES[key] : undefined;
  if (!rule) throw notFound("ERR_NO_SETTING_FOUND", `Configuração "${key}" não existe`);
  if (rule.superOnly) {
    assertAllowed(auth, "setting:manage-platform", "Somente super usuários alteram esta opção");
  }
  const parsed = rule.schema.safeParse(value);
  if (!parsed.success) {
    const fields = fieldErrors(parsed.error.issues.map((i) => ({ ...i, path: ["value"] })));
    throw new AppError(400, "ERR_VALIDATION", `value: ${fields.value[0]}`, { fields });
  }
  const now = deps.clock.now().toISOString();
  // A sealed key is stored sealed; its mask sent back (the form's value) keeps the stored key.
  const stored = rule.sealed && parsed.data.startsWith("••••")
    ? undefined
    : rule.sealed
    ? await seal(deps.secrets.data, parsed.data)
    : parsed.data;
  const row = await deps.db.transaction().execute(async (trx) => {
    const before = await repo.getSettingValue(trx, auth.companyId, key) ?? DEFAULT_SETTINGS[key];
    const row = await repo.upsertSetting(trx, auth.companyId, key, stored ?? before ?? "", now);
    // Every local day of the company (reports) is on its zone's clock, past ones included.
    if (key === TIME_ZONE_SETTING && row.value !== before) {
      await followZone(trx, auth.companyId, row.value);
    }
    // A secret's value never reaches the log: only that it changed.
    const shown = (value: string | undefined) => rule.secret && value ? "***" : value ?? null;
    await recordAudit(trx, now, {
      companyId: auth.companyId,
      actor: actorOf(auth),
      action: "setting.updated",
      entity: "setting",
      entityId: key,
      before: { [key]: shown(before) },
      after: { [key]: shown(parsed.data) },
    });
    return row;
  });
  const setting = { key: row.key, value: await shownValue(deps, row.key, row.value) };
  deps.events.emit("setting.updated", {
    companyId: auth.companyId,
    setting,
    secret: rule.secret === true,
  });
  return setting;
}
