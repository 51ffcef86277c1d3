import type { Database } from "../../db/client.ts";
import type { Campaign } from "../../db/schema.ts";
import {
  type CampaignVariable,
  CONFIRMATION_FIELDS,
  MESSAGE_FIELDS,
} from "../../contract/campaign_rules.ts";
import { renderVariables } from "../messages/variables.ts";
import { fillCampaignVariables } from "../../contract/message_variables.ts";
import { taggedContacts, validListItems } from "./repository.ts";

/**
 * Who a campaign messages and with what text (issue 13 deliverable 5). Each recipient gets one
 * of the filled messages in turn (row i gets message i mod n), its variables resolved when the
 * shipping rows are written, so a restart sends exactly the text that was planned.
 */
export type Recipient = { itemId: number | null; name: string; number: string; email: string };

/**
 * The valid list items, or the non-group contacts with a ticket tagged `tagListId`, minus the
 * numbers that opted out.
 */
export async function recipientsOf(
  db: Database,
  companyId: number,
  campaign: Pick<Campaign, "contactListId" | "tagListId">,
): Promise<Recipient[]> {
  if (campaign.contactListId !== null) {
    const rows = await validListItems(db, companyId, campaign.contactListId);
    return rows.map((r) => ({ itemId: r.id, name: r.name, number: r.number, email: r.email }));
  }
  if (campaign.tagListId !== null) {
    const rows = await taggedContacts(db, companyId, campaign.tagListId);
    return rows.map((r) => ({ itemId: null, name: r.name, number: r.number, email: r.email }));
  }
  return [];
}

/**
 * Resolves a campaign text: the variables of every automatic message ({{name}}, {{firstName}},
 * {{ms}}, ...: contract/message_variables.ts), then the campaign's single-brace ones: {nome},
 * {name}, {numero}, {number}, {email} and the settings' variables (seeds/002 section 2.3).
 */
export function renderCampaignText(
  text: string,
  recipient: Recipient,
  variables: CampaignVariable[],
  now: Date,
  timeZone: string,
): string {
  const withCore = renderVariables(text, { contact: { name: recipient.name }, now, timeZone });
  const values = new Map<string, string>([
    ["nome", recipient.name],
    ["name", recipient.name],
    ["numero", recipient.number],
    ["number", recipient.number],
    ["email", recipient.email],
  ]);
  for (const v of variables) if (!values.has(v.key)) values.set(v.key, v.value);
  return fillCampaignVariables(withCore, values);
}

/** The filled messages and confirmation messages of a campaign, in field order. */
export function filledTexts(campaign: Campaign) {
  const pick = (fields: readonly (keyof Campaign)[]) =>
    fields.map((f) => campaign[f]).filter((v): v is string =>
      typeof v === "string" && v.trim() !== ""
    );
  return { messages: pick(MESSAGE_FIELDS), confirmations: pick(CONFIRMATION_FIELDS) };
}
