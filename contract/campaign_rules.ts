import { unknownCampaignVariables } from "./message_variables.ts";

/**
 * The campaign rules the server and the pages share (seeds/002 sections 3, 4 and 9). Pure code:
 * the server's validation and the forms read the same lists, so they cannot disagree.
 */
export const CAMPAIGN_STATUSES = [
  "INATIVA",
  "PROGRAMADA",
  "EM_ANDAMENTO",
  "CANCELADA",
  "FINALIZADA",
] as const;
export type CampaignStatus = typeof CAMPAIGN_STATUSES[number];

/** seeds/002 section 9: messageInterval options in seconds (0 means none). */
export const MESSAGE_INTERVALS = [0, 5, 10, 15, 20] as const;
/** seeds/002 section 9: longerIntervalAfter (messages; 0 not defined) and greaterInterval (s). */
export const LONGER_INTERVALS = [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120] as const;

export type CampaignVariable = { key: string; value: string };

export type CampaignSettings = {
  messageInterval: number;
  longerIntervalAfter: number;
  greaterInterval: number;
  variables: CampaignVariable[];
  /** Answers that stop every later campaign to the number (issue 13), compared upper-cased. */
  optOutWords: string[];
};

/** seeds/002 section 3: defaults 20, 20, 60; the default variables are not shown (none). */
export const DEFAULT_CAMPAIGN_SETTINGS: CampaignSettings = {
  messageInterval: 20,
  longerIntervalAfter: 20,
  greaterInterval: 60,
  variables: [],
  optOutWords: ["SAIR", "PARAR", "STOP"],
};

/** seeds/002 section 5: a variable is added only if its key is not already in the list. */
export function addVariable(list: CampaignVariable[], item: CampaignVariable): CampaignVariable[] {
  const key = item.key.trim();
  if (!key || list.some((v) => v.key === key)) return list;
  return [...list, { key, value: item.value }];
}

/** A campaign may be changed 1 hour before its schedule at the latest (seeds/002 section 4). */
export const EDIT_LEAD_MS = 60 * 60 * 1000;

/**
 * seeds/002 section 4: editable when INATIVA, or PROGRAMADA with the schedule more than 1 hour
 * ahead. A CANCELADA campaign allows editing its messages only ("messages").
 */
export function editableParts(
  campaign: { status: CampaignStatus; scheduledAt: string | null },
  now: Date,
): "all" | "messages" | "none" {
  if (campaign.status === "INATIVA") return "all";
  if (campaign.status === "PROGRAMADA") {
    const at = campaign.scheduledAt ? Date.parse(campaign.scheduledAt) : NaN;
    return at - now.getTime() > EDIT_LEAD_MS ? "all" : "none";
  }
  if (campaign.status === "CANCELADA") return "messages";
  return "none";
}

export const MESSAGE_FIELDS = ["message1", "message2", "message3", "message4", "message5"] as const;
export const CONFIRMATION_FIELDS = [
  "confirmationMessage1",
  "confirmationMessage2",
  "confirmationMessage3",
  "confirmationMessage4",
  "confirmationMessage5",
] as const;

/**
 * The variables of a campaign's texts that nothing fills (issue 24): the message variables
 * (contract/message_variables.ts), the recipient's ({nome}, {numero}, {email}) and the keys of
 * /campaigns-config are known; anything else would reach the contact raw, so a campaign that
 * uses one is not scheduled. Confirmation texts count only when confirmation is on.
 */
export function unknownVariablesOf(
  campaign:
    & Partial<Record<typeof MESSAGE_FIELDS[number] | typeof CONFIRMATION_FIELDS[number], unknown>>
    & { confirmation?: number | boolean | null },
  variables: readonly CampaignVariable[],
): { field: string; variable: string }[] {
  const keys = variables.map((v) => v.key);
  const fields = campaign.confirmation
    ? [...MESSAGE_FIELDS, ...CONFIRMATION_FIELDS]
    : [...MESSAGE_FIELDS];
  return fields.flatMap((field) => {
    const text = campaign[field];
    if (typeof text !== "string") return [];
    return unknownCampaignVariables(text, keys).map((variable) => ({ field, variable }));
  });
}
