import type { TFunction } from "i18next";
import { ruleKey } from "../../contract/rule_texts.ts";

/** An API answer that is not 2xx: `{ error: CODE, message, fields? }` (DESIGN 'HTTP surface'). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | null;
  readonly fields: Record<string, string[]>;
  readonly body: unknown;

  constructor(
    status: number,
    code: string | null,
    message: string,
    fields: Record<string, string[]> = {},
    body: unknown = null,
  ) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.code = code;
    this.fields = fields;
    this.body = body;
  }
}

/**
 * The text shown for an error (seeds/000 section 8): the translation of its code when one exists
 * (`errors.<CODE>` in locales), otherwise the raw message, a plain string as is, otherwise
 * 'An error occurred!'.
 */
export function errorText(error: unknown, t: TFunction): string {
  if (typeof error === "string" && error) return error;
  if (error instanceof ApiError) {
    if (error.code && t(`errors.${error.code}`, { defaultValue: "" })) {
      return t(`errors.${error.code}`, paramsOf(error.body));
    }
    if (error.message) return error.message;
  } else if (error instanceof Error && error.message && !(error instanceof TypeError)) {
    return error.message;
  }
  if (error instanceof TypeError) return t("errors.network");
  return t("errors.generic");
}

/** The values an error's text names (`params` of the answer, e.g. the unknown variable). */
function paramsOf(body: unknown): Record<string, string> {
  const params = (body as { params?: unknown } | null)?.params;
  if (!params || typeof params !== "object") return {};
  return Object.fromEntries(
    Object.entries(params).filter((e): e is [string, string] => typeof e[1] === "string"),
  );
}

/**
 * The first message of each field an `ERR_VALIDATION` answer names, in the page's language (the
 * one place the server's field messages are translated), or null for other errors. The answer's
 * `rules` (field -> rule, issue 44) say which rule each field broke, whatever language the server
 * answered in; without them, the rule is read from the message (`ruleKey`).
 */
export function fieldErrors(
  error: unknown,
  t: (key: string) => string,
): Record<string, string> | null {
  if (!(error instanceof ApiError) || !Object.keys(error.fields).length) return null;
  const rules = rulesOf(error.body);
  return Object.fromEntries(
    Object.entries(error.fields).map(([field, messages]) => {
      const message = messages[0] ?? "";
      const rule = rules[field];
      const key = rule && rule !== "custom" ? `people.validation.${rule}` : ruleKey(message);
      return [field, key ? t(key) : message];
    }),
  );
}

function rulesOf(body: unknown): Record<string, string> {
  const rules = (body as { rules?: unknown } | null)?.rules;
  return rules && typeof rules === "object" ? rules as Record<string, string> : {};
}
