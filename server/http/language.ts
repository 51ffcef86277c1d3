import type { Context } from "hono";

export type AnswerLanguage = "pt" | "en" | "es";
const LANGUAGES: readonly AnswerLanguage[] = ["pt", "en", "es"];

/**
 * The language of an API answer: the first of pt, en, es in the request's Accept-Language, in
 * its order (quality values are not weighed: clients list their choice first); Portuguese when
 * none is named (seeds/000: the product speaks pt-BR first).
 */
export function answerLanguage(c: Context): AnswerLanguage {
  const accepted = (c.req.header("accept-language") ?? "").toLowerCase().match(/[a-z]{2}/g) ?? [];
  return (accepted.find((l) => (LANGUAGES as readonly string[]).includes(l)) as
    | AnswerLanguage
    | undefined) ?? "pt";
}
