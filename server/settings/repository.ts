import type { Database } from "../../db/client.ts";
import type { Setting } from "../../db/schema.ts";

export async function listSettings(db: Database, companyId: number) {
  return await db.selectFrom("settings").select(["key", "value"]).where("companyId", "=", companyId)
    .orderBy("key").execute();
}

/** One setting's value, or undefined when the company does not have it. */
export async function getSettingValue(
  db: Database,
  companyId: number,
  key: string,
): Promise<string | undefined> {
  const row = await db.selectFrom("settings").select("value").where("companyId", "=", companyId)
    .where("key", "=", key).executeTakeFirst();
  return row?.value;
}

/** Writes a setting, creating the row when the company never had that key. */
export async function upsertSetting(
  db: Database,
  companyId: number,
  key: string,
  value: string,
  now: string,
): Promise<Setting> {
  return await db.insertInto("settings")
    .values({ companyId, key, value, createdAt: now, updatedAt: now })
    .onConflict((oc) => oc.columns(["companyId", "key"]).doUpdateSet({ value, updatedAt: now }))
    .returningAll().executeTakeFirstOrThrow();
}

/** The rows of these keys (the company's own values only). */
export async function settingRows(db: Database, companyId: number, keys: readonly string[]) {
  return await db.selectFrom("settings").select(["key", "value"])
    .where("companyId", "=", companyId).where("key", "in", keys).execute();
}

/** Writes a company's default settings; keys it already has are kept. */
export async function insertMissingSettings(
  db: Database,
  companyId: number,
  values: Readonly<Record<string, string>>,
  now: string,
) {
  const rows = Object.entries(values).map(([key, value]) => ({
    companyId,
    key,
    value,
    createdAt: now,
    updatedAt: now,
  }));
  await db.insertInto("settings").values(rows).onConflict((oc) =>
    oc.columns(["companyId", "key"]).doNothing()
  ).execute();
}
