import type { AppDeps, AuthInfo } from "../context.ts";
import { AppError, forbidden, notFound } from "../errors.ts";
import { fieldErrors } from "../http/validate.ts";
import { DEFAULT_SETTINGS } from "./defaults.ts";
import * as repo from "./repository.ts";
import { isSecretSetting, SETTING_RULES } from "./rules.ts";

export type SettingView = { key: string; value: string };

function canSeeSecrets(auth: AuthInfo): boolean {
  return auth.profile === "admin" || auth.isSuper;
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
  return [...byKey].filter(([key]) => canSeeSecrets(auth) || !isSecretSetting(key))
    .sort(([a], [b]) => a.localeCompare(b)).map(([key, value]) => ({ key, value }));
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
  if (rule.superOnly && !auth.isSuper) throw forbidden("Somente super usuários alteram esta opção");
  const parsed = rule.schema.safeParse(value);
  if (!parsed.success) {
    const fields = fieldErrors(parsed.error.issues.map((i) => ({ ...i, path: ["value"] })));
    throw new AppError(400, "ERR_VALIDATION", `value: ${fields.value[0]}`, { fields });
  }
  const now = deps.clock.now().toISOString();
  const row = await repo.upsertSetting(deps.db, auth.companyId, key, parsed.data, now);
  const setting = { key: row.key, value: row.value };
  deps.events.emit("setting.updated", {
    companyId: auth.companyId,
    setting,
    secret: rule.secret === true,
  });
  return setting;
}
