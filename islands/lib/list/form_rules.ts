import { ApiError, fieldErrors } from "../errors.ts";
import { check, type Rule } from "../../../contract/validation.ts";

/**
 * The pure rules of the form kit (FormDialog.tsx, record_form.ts), tested without a browser:
 * a stored record's values in the form's types, where a refusal of the server is said, and what
 * becomes of an attachment once its record is saved.
 */

/** A value is needed: `key` says so ('Required' unless a form has its own word). */
export function required(key = "people.validation.required"): Rule {
  return (value) => (value.trim() ? null : key);
}

/** The form's rules over its text values: field -> the first failing rule's i18n key. */
export function checkValues<V extends object>(
  values: V,
  rules: Partial<Record<keyof V & string, Rule>>,
): Record<string, string> {
  return check(values as Record<string, string>, rules as Record<string, Rule>);
}

/** Server codes said under a field: code -> field (text `errors.<code>`) or [field, i18n key]. */
export type CodeFields = Record<string, string | readonly [string, string]>;

/**
 * The form's values of a stored record: each key of `empty` takes the record's value of that
 * name (as a string where the form holds a string: numbers and flags of selects and inputs),
 * and keeps the empty value where the record has none (null: a select's "none").
 */
export function valuesOf<V extends object>(empty: V, record: object): V {
  const stored = record as Record<string, unknown>;
  const values = { ...empty } as Record<string, unknown>;
  for (const [key, blank] of Object.entries(empty)) {
    const value = stored[key];
    if (value === undefined || value === null) continue;
    values[key] = typeof blank === "string" ? String(value) : value;
  }
  return values as V;
}

/**
 * Where a refused save is said: the field messages (ERR_VALIDATION's fields, or the field a code
 * belongs to), and whether a toast says it too (any code but ERR_VALIDATION; anything without
 * fields). `t` translates an i18n key.
 */
export function refusal(
  error: unknown,
  codeFields: CodeFields,
  t: (key: string) => string,
): { fields: Record<string, string> | null; toast: boolean } {
  const code = error instanceof ApiError ? error.code : null;
  const owner = code ? codeFields[code] : undefined;
  if (owner !== undefined) {
    const [field, key] = typeof owner === "string" ? [owner, `errors.${code}`] : owner;
    return { fields: { [field]: t(key) }, toast: true };
  }
  const fields = fieldErrors(error, t);
  // A code with a translation says it best (a duplicate, an invalid number); else the fields.
  return { fields, toast: !fields || code !== "ERR_VALIDATION" };
}

/** A record's file as the form holds it: the stored one, one chosen now, or none. */
export type Attachment = { kind: "stored"; name: string } | { kind: "new"; file: File } | null;

/** What saving the record does to its file: send the chosen one, delete the stored one, or nothing. */
export function attachmentStep(
  attachment: Attachment,
  storedName: string | null,
): "upload" | "remove" | "keep" {
  if (attachment?.kind === "new") return "upload";
  if (attachment === null && storedName) return "remove";
  return "keep";
}

/**
 * The tab a form shows after a check or a refusal: the current one while it holds a message,
 * else the first tab holding one (`fields`: the names of a tab's fields).
 */
export function tabOfErrors(
  tabs: readonly { value: string; fields?: readonly string[] }[],
  current: string,
  errors: Record<string, string>,
): string {
  const wrong = (tab: { fields?: readonly string[] }) => tab.fields?.some((f) => errors[f]);
  if (tabs.some((tab) => tab.value === current && wrong(tab))) return current;
  return tabs.find(wrong)?.value ?? current;
}
