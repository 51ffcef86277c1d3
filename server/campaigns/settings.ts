import { z } from "zod";
import type { Database } from "../../db/client.ts";
import {
  type CampaignSettings,
  DEFAULT_CAMPAIGN_SETTINGS,
  LONGER_INTERVALS,
  MESSAGE_INTERVALS,
} from "../../contract/campaign_rules.ts";
import { log } from "../log.ts";
import { campaignSettingRows, upsertCampaignSetting } from "./repository.ts";

/**
 * Campaign settings (seeds/002 sections 2.3, 3, 7, 9): key/value rows whose value is JSON, read
 * with the defaults for what a company never saved. The dispatcher reads them on every tick, so
 * a change applies to the next message.
 */
const oneOf = (values: readonly number[]) =>
  z.number().int().refine((v) => values.includes(v), `Use um de: ${values.join(", ")}`);

export const settingsSchema = z.object({
  messageInterval: oneOf(MESSAGE_INTERVALS),
  longerIntervalAfter: oneOf(LONGER_INTERVALS),
  greaterInterval: oneOf(LONGER_INTERVALS),
  variables: z.array(z.object({
    key: z.string().trim().min(1, "Obrigatório").max(40).regex(/^[\w.-]+$/, "Use letras e números"),
    value: z.string().max(2000),
  })).max(100).refine(
    (list) => new Set(list.map((v) => v.key)).size === list.length,
    "Cada variável só pode aparecer uma vez",
  ),
  optOutWords: z.array(z.string().trim().min(1).max(40).transform((w) => w.toUpperCase()))
    .max(50),
});

export type SettingRow = { key: string; value: unknown };

export async function readCampaignSettings(
  db: Database,
  companyId: number,
): Promise<CampaignSettings> {
  const rows = await campaignSettingRows(db, companyId);
  const settings: CampaignSettings = structuredClone(DEFAULT_CAMPAIGN_SETTINGS);
  for (const row of rows) {
    const field = settingsSchema.shape[row.key as keyof CampaignSettings];
    if (!field) continue;
    try {
      const parsed = field.safeParse(JSON.parse(row.value));
      // deno-lint-ignore no-explicit-any
      if (parsed.success) (settings as any)[row.key] = parsed.data;
    } catch (error) {
      log.warn("campaign setting unreadable, default used", { companyId, key: row.key, error });
    }
  }
  return settings;
}

/** GET /api/campaign-settings: a list of {key, value as JSON} (defaults included). */
export async function listCampaignSettings(db: Database, companyId: number) {
  const settings = await readCampaignSettings(db, companyId);
  return Object.entries(settings).map(([key, value]) => ({ key, value }));
}

/** POST /api/campaign-settings {settings}: writes the given keys. */
export async function saveCampaignSettings(
  db: Database,
  companyId: number,
  input: Partial<CampaignSettings>,
  now: string,
) {
  await db.transaction().execute(async (trx) => {
    for (const [key, value] of Object.entries(input)) {
      if (value === undefined) continue;
      await upsertCampaignSetting(trx, companyId, key, JSON.stringify(value), now);
    }
  });
  return await listCampaignSettings(db, companyId);
}
