/**
 * The server's field messages and the i18n keys the browser shows for them. Apart from
 * validation.ts (re-exported there): every page's error handling (islands/lib/errors.ts) needs
 * these, not the LIMITS table and rules, which the forms load with them (issue 33).
 */
/** The server's texts for these rules (seeds/000 section 5, seeds/001 section 5). */
export const RULE_TEXTS = {
  required: "Required",
  tooShort: "Too Short!",
  tooLong: "Too Long!",
  invalidEmail: "Invalid email",
  obrigatorio: "Obrigatório",
  shortMessage: "Mensagem muito curta",
} as const;

/**
 * The browser's words for the server's field messages (issue 24 item 2): the API keeps the
 * specification's texts (RULE_TEXTS, 'nome muito curto' of the file lists), the user reads the
 * translation of the i18n key each one stands for, in the language of the page.
 */
const RULE_KEYS: Record<string, string> = {
  [RULE_TEXTS.required]: "people.validation.required",
  [RULE_TEXTS.obrigatorio]: "people.validation.required",
  [RULE_TEXTS.tooShort]: "people.validation.tooShort",
  [RULE_TEXTS.tooLong]: "people.validation.tooLong",
  [RULE_TEXTS.invalidEmail]: "people.validation.invalidEmail",
  [RULE_TEXTS.shortMessage]: "people.validation.shortMessage",
  "nome muito curto": "people.validation.shortName",
};

/** zod's own English messages ("Invalid input: expected string", "Too small: ..."). */
const ZOD_DEFAULT = /^(Invalid|Too (small|big)|Expected|Unrecognized)\b/;

/**
 * The i18n key of a server's field message: a rule's text, or 'invalid value' for zod's own
 * English messages; null for a message the server wrote for people (said as it is).
 */
export function ruleKey(message: string): string | null {
  return RULE_KEYS[message] ?? (ZOD_DEFAULT.test(message) ? "people.validation.invalid" : null);
}
