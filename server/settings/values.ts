import type { Database } from "../../db/client.ts";
import { DEFAULT_SETTINGS } from "./defaults.ts";

/** A company's setting value; the default when the company has no row for the key. */
export async function settingValue(
  db: Database,
  companyId: number,
  key: string,
): Promise<string | undefined> {
  const row = await db.selectFrom("settings").select("value").where("companyId", "=", companyId)
    .where("key", "=", key).executeTakeFirst();
  return row?.value ?? DEFAULT_SETTINGS[key];
}

/** Several settings in one query, defaults filled in. */
export async function settingValues<K extends string>(
  db: Database,
  companyId: number,
  keys: readonly K[],
): Promise<Record<K, string | undefined>> {
  const rows = await db.selectFrom("settings").select(["key", "value"])
    .where("companyId", "=", companyId).where("key", "in", keys).execute();
  const out = {} as Record<K, string | undefined>;
  for (const key of keys) out[key] = DEFAULT_SETTINGS[key];
  for (const row of rows) out[row.key as K] = row.value;
  return out;
}

/** Toggle settings hold "enabled"/"disabled" (seeds/001 section 3). */
export function isEnabled(value: string | undefined): boolean {
  return value === "enabled";
}
