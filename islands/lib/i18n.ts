import i18next, { type i18n as I18n } from "i18next";
import { LANGUAGE_COOKIE } from "./storage.ts";

/**
 * Translations: one source, `locales/<lng>.json`, used by the server (SSR) and by the islands
 * (seeds/000 section 1: Portuguese default and fallback, English, Spanish). Keys are grouped by
 * area ("shell", "login", "errors", ...): `t("shell.menu.tickets")`.
 */
export const LANGUAGES = ["pt", "en", "es"] as const;
export type Language = typeof LANGUAGES[number];
export const DEFAULT_LANGUAGE: Language = "pt";

/** A locale file's content: nested objects of strings. */
export type Messages = { [key: string]: string | Messages };

/** What a page embeds so that the island hydrates with the same strings the server rendered. */
export type I18nPayload = { lng: Language; resources: Partial<Record<Language, Messages>> };

export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/** BCP 47 tags for dates and numbers. */
export const LOCALE_TAGS: Record<Language, string> = { pt: "pt-BR", en: "en-US", es: "es-ES" };

/** A ready (synchronously initialised) i18next instance. */
export function createI18n(payload: I18nPayload): I18n {
  const instance = i18next.createInstance();
  const resources: Record<string, { translation: Messages }> = {};
  for (const [lng, messages] of Object.entries(payload.resources)) {
    if (messages) resources[lng] = { translation: messages };
  }
  instance.init({
    lng: payload.lng,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: [...LANGUAGES],
    resources,
    initAsync: false,
    interpolation: { escapeValue: false },
    react: { useSuspense: false },
  });
  return instance;
}

/**
 * Switches the language in the browser: loads the locale (served at /locales/<lng>.json), makes
 * the server render later pages in it (cookie), and re-renders the island.
 */
export async function switchLanguage(i18n: I18n, lng: Language) {
  if (!i18n.hasResourceBundle(lng, "translation")) {
    const res = await fetch(`/locales/${lng}.json`);
    if (!res.ok) throw new Error(`cannot load locale ${lng}`);
    i18n.addResourceBundle(lng, "translation", await res.json());
  }
  document.cookie = `${LANGUAGE_COOKIE}=${lng}; path=/; max-age=31536000; samesite=lax`;
  document.documentElement.lang = LOCALE_TAGS[lng];
  await i18n.changeLanguage(lng);
}

/** The language of the current page (for dates and numbers). */
export function languageOf(i18n: I18n): Language {
  return isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
}
