/**
 * The variables of automatic texts (seeds/000 section 3; issue 24 item 1): ONE list, read by the
 * server that fills them (server/messages/variables.ts) and by the dialogs that show them
 * (islands/lib/ui/VariableList.tsx), so a variable cannot be filled in one place and raw in
 * another. Greetings, quick answers, completion, rating and out-of-hours texts, bot replies,
 * schedules and campaigns all go through `fillVariables`.
 */
export const MESSAGE_VARIABLES = [
  "firstName",
  "name",
  "user",
  "ms",
  "protocol",
  "date",
  "hour",
] as const;
export type MessageVariable = typeof MESSAGE_VARIABLES[number];
export type VariableValues = Partial<Record<MessageVariable, string>>;

/**
 * A campaign has no attendant: {{user}} has nothing to be filled with, so it is not offered there
 * (and a campaign using it is refused like any other unknown variable).
 */
export const CAMPAIGN_MESSAGE_VARIABLES: readonly MessageVariable[] = MESSAGE_VARIABLES.filter(
  (v) => v !== "user",
);

/** seeds/002 section 5: a campaign's own single-brace variables, filled from its recipient. */
export const RECIPIENT_VARIABLES = ["nome", "name", "numero", "number", "email"] as const;

/** `{{name}}`, spaces inside the braces allowed. */
const DOUBLE = /\{\{\s*(\w+)\s*\}\}/g;
/** `{cupom}`: a campaign's variable (recipient fields and the settings' shortcut keys). */
const SINGLE = /\{([\w.-]+)\}/g;

/** How a variable is written in a text. */
export function variableToken(key: string): string {
  return `{{${key}}}`;
}

/** Replaces the `{{variables}}` of `text`; unknown ones are left as written. */
export function fillVariables(text: string, values: VariableValues): string {
  if (!text.includes("{{")) return text;
  return text.replace(DOUBLE, (whole, key: string) => {
    const value = Object.hasOwn(values, key) ? values[key as MessageVariable] : undefined;
    return value ?? whole;
  });
}

/** Replaces a campaign's `{single}` variables; unknown ones are left as written. */
export function fillCampaignVariables(text: string, values: ReadonlyMap<string, string>): string {
  return text.replace(SINGLE, (whole, key: string) => values.get(key) ?? whole);
}

/**
 * The variables of a campaign text that nothing fills, as written (`{{user}}`, `{cupom}`), in
 * order of appearance, once each. `shortcuts` are the keys of /campaigns-config's variables.
 */
export function unknownCampaignVariables(text: string, shortcuts: readonly string[]): string[] {
  const unknown = new Set<string>();
  const core = new Set<string>(CAMPAIGN_MESSAGE_VARIABLES);
  const rest = text.replace(DOUBLE, (whole, key: string) => {
    if (!core.has(key)) unknown.add(whole.replace(/\s+/g, ""));
    return " ";
  });
  const single = new Set<string>([...RECIPIENT_VARIABLES, ...shortcuts]);
  for (const [whole, key] of rest.matchAll(SINGLE)) if (!single.has(key)) unknown.add(whole);
  return [...unknown];
}
