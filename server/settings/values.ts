import type { Database } from "../../db/client.ts";
import { DEFAULT_SETTINGS } from "./defaults.ts";
import { TIME_ZONE_SETTING, zoneOf } from "../../contract/time_zone.ts";
import { getSettingValue, settingRows } from "./repository.ts";

/** A company's setting value; the default when the company has no row for the key. */
export async function settingValue(
  db: Database,
  companyId: number,
  key: string,
): Promise<string | undefined> {
  return (await getSettingValue(db, companyId, key)) ?? DEFAULT_SETTINGS[key];
}

/** Several settings in one query, defaults filled in. */
export async function settingValues<K extends string>(
  db: Database,
  companyId: number,
  keys: readonly K[],
): Promise<Record<K, string | undefined>> {
  const rows = await settingRows(db, companyId, keys);
  const out = {} as Record<K, string | undefined>;
  for (const key of keys) out[key] = DEFAULT_SETTINGS[key];
  for (const row of rows) out[row.key as K] = row.value;
  return out;
}

/** Toggle settings hold "enabled"/"disabled" (seeds/001 section 3). */
export function isEnabled(value: string | undefined): boolean {
  return value === "enabled";
}

/** The zone of the company's clock (its setting; the default when unset or unknown). */
export async function companyTimeZone(db: Database, companyId: number): Promise<string> {
  const value = await settingValue(db, companyId, TIME_ZONE_SETTING);
  return zoneOf([{ key: TIME_ZONE_SETTING, value: value ?? "" }]);
}
