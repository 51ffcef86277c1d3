import { ruleKey } from "../../contract/validation.ts";
import type { FieldErrors } from "../errors.ts";
import type { AnswerLanguage } from "./language.ts";
import pt from "../../locales/pt.json" with { type: "json" };
import en from "../../locales/en.json" with { type: "json" };
import es from "../../locales/es.json" with { type: "json" };

/** The words of each rule (`people.validation.*` of the locales: the pages say the same). */
const RULE_WORDS: Record<AnswerLanguage, Record<string, string>> = {
  pt: pt.people.validation,
  en: en.people.validation,
  es: es.people.validation,
};

/**
 * A field's rule for clients, stable whatever the language (issue 44): `required`, `tooShort`,
 * `tooLong`, `invalidEmail`, `shortMessage`, `shortName`, `invalid` (a wrong type or format), or
 * `custom` for a text the server wrote for people, which is said as it is.
 */
export function fieldRule(message: string): string {
  const rule = ruleKey(message)?.replace(/^people\.validation\./, "") ?? "custom";
  // Only zod's own messages ("Invalid input: expected ...") are 'invalid'; a text of ours that
  // begins alike ("Invalid time (HH:MM)") says more than 'invalid value' and is said as it is.
  return rule === "invalid" && !ZOD_OWN.test(message) ? "custom" : rule;
}

/** The shape of zod's own English messages: a few words, then a colon and the details. */
const ZOD_OWN = /^(Invalid|Too small|Too big|Unrecognized)[a-z ]*:/;

/**
 * A 400 ERR_VALIDATION's texts in the request's language: each field's messages translated by
 * their rule, `rules` (field -> the rule of its first message) for clients that show their own
 * words, and the summary message (`field: text`) with the first field's translated text.
 */
export function translatedValidation(
  message: string,
  fields: FieldErrors,
  lang: AnswerLanguage,
): { message: string; fields: FieldErrors; rules: Record<string, string> } {
  const words = RULE_WORDS[lang];
  const say = (text: string) => {
    const rule = fieldRule(text);
    return rule === "custom" ? text : words[rule] ?? text;
  };
  const translated: FieldErrors = {};
  const rules: Record<string, string> = {};
  for (const [field, messages] of Object.entries(fields)) {
    translated[field] = messages.map(say);
    rules[field] = fieldRule(messages[0] ?? "");
  }
  // The summary names the first field's first message (server/http/validate.ts).
  const first = Object.values(fields)[0]?.[0];
  const summary = first !== undefined && message.endsWith(first)
    ? message.slice(0, message.length - first.length) + say(first)
    : message;
  return { message: summary, fields: translated, rules };
}
