import type { Context } from "hono";

/** The languages of locales/*.json; Portuguese first (seeds/000 section 9). */
export type TextLanguage = "pt" | "en" | "es";
const KNOWN: readonly TextLanguage[] = ["pt", "en", "es"];

/**
 * The language a file made for the caller is written in: the `lang` cookie the page's language
 * switcher sets (islands/lib/storage.ts LANGUAGE_COOKIE; a download's fetch sends it), else the
 * first known language of Accept-Language, else Portuguese.
 */
export function callerLanguage(c: Context): TextLanguage {
  for (const part of (c.req.header("cookie") ?? "").split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === "lang" && (KNOWN as readonly string[]).includes(value)) {
      return value as TextLanguage;
    }
  }
  const accepted = (c.req.header("accept-language") ?? "").toLowerCase().match(/[a-z]{2}/g) ?? [];
  return (accepted.find((l) => (KNOWN as readonly string[]).includes(l)) as TextLanguage) ?? "pt";
}
