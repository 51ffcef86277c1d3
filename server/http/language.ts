import type { Context } from "hono";

/** The languages of locales/*.json; Portuguese first (seeds/000 section 9). */
export type TextLanguage = "pt" | "en" | "es";
export type AnswerLanguage = TextLanguage;
const KNOWN: readonly TextLanguage[] = ["pt", "en", "es"];

/**
 * The language of an API answer: the first of pt, en, es in the request's Accept-Language, in
 * its order (quality values are not weighed: clients list their choice first); Portuguese when
 * none is named (seeds/000: the product speaks pt-BR first).
 */
export function answerLanguage(c: Context): AnswerLanguage {
  const accepted = (c.req.header("accept-language") ?? "").toLowerCase().match(/[a-z]{2}/g) ?? [];
  return (accepted.find((l) => (KNOWN as readonly string[]).includes(l)) as
    | AnswerLanguage
    | undefined) ?? "pt";
}

/**
 * The language a file made for the caller is written in: the `lang` cookie the page's language
 * switcher sets (islands/lib/storage.ts LANGUAGE_COOKIE; a download's fetch sends it), else the
 * request's language (answerLanguage).
 */
export function callerLanguage(c: Context): TextLanguage {
  for (const part of (c.req.header("cookie") ?? "").split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === "lang" && (KNOWN as readonly string[]).includes(value)) {
      return value as TextLanguage;
    }
  }
  return answerLanguage(c);
}
