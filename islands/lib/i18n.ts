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

/** Interpolation values and the options the islands use (count for plurals, a default text). */
export type TOptions = { count?: number; defaultValue?: string; [name: string]: unknown };
export type TFunction = (key: string, options?: TOptions) => string;

/**
 * Translations for one page (issue 33: replaces i18next, whose 48 KB were in every page's first
 * load, with the part the islands use). Keys are dotted paths into the locale files; a key missing
 * in the page's language falls back to pt, then to `defaultValue`, then to the key itself.
 * Plurals as in i18next's v4 JSON: `key_zero` for a count of 0 when present, else
 * `key_<Intl.PluralRules category>` (`_one`, `_other`...), else `key`. `{{name}}` is replaced by
 * the value (not escaped: React escapes), a missing value by nothing.
 */
export class I18n {
  #resources: Partial<Record<Language, Messages>>;
  #language: Language;
  #listeners = new Set<() => void>();
  #plurals = new Map<Language, Intl.PluralRules>();

  constructor(payload: I18nPayload) {
    this.#resources = { ...payload.resources };
    this.#language = payload.lng;
  }

  get language(): Language {
    return this.#language;
  }

  /** Bound, so that it can be passed around like i18next's `t`. */
  readonly t: TFunction = (key, options) => {
    const count = typeof options?.count === "number" ? options.count : undefined;
    const chain = this.#language === DEFAULT_LANGUAGE
      ? [DEFAULT_LANGUAGE]
      : [this.#language, DEFAULT_LANGUAGE];
    for (const lng of chain) {
      const candidates = count === undefined
        ? [key]
        : [...(count === 0 ? [`${key}_zero`] : []), `${key}_${this.#plural(lng, count)}`, key];
      for (const candidate of candidates) {
        const found = lookup(this.#resources[lng], candidate);
        if (found !== undefined) return interpolate(found, options);
      }
    }
    return options?.defaultValue !== undefined ? interpolate(options.defaultValue, options) : key;
  };

  hasResourceBundle(lng: Language): boolean {
    return this.#resources[lng] !== undefined;
  }

  addResourceBundle(lng: Language, messages: Messages) {
    this.#resources[lng] = messages;
  }

  changeLanguage(lng: Language) {
    this.#language = lng;
    for (const listener of this.#listeners) listener();
  }

  /** Called after every language change (useTranslation re-renders with it). */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #plural(lng: Language, count: number): string {
    let rules = this.#plurals.get(lng);
    if (!rules) {
      rules = new Intl.PluralRules(LOCALE_TAGS[lng]);
      this.#plurals.set(lng, rules);
    }
    return rules.select(count);
  }
}

function lookup(messages: Messages | undefined, key: string): string | undefined {
  let node: string | Messages | undefined = messages;
  for (const part of key.split(".")) {
    if (node === undefined || typeof node === "string") return undefined;
    node = node[part];
  }
  return typeof node === "string" ? node : undefined;
}

function interpolate(text: string, options: TOptions | undefined): string {
  if (!text.includes("{{")) return text;
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, name: string) => {
    const value = options?.[name];
    return value === undefined || value === null ? "" : String(value);
  });
}

/** A ready translator for a page's payload. */
export function createI18n(payload: I18nPayload): I18n {
  return new I18n(payload);
}

/**
 * Switches the language in the browser: loads the locale (served at /locales/<lng>.json), makes
 * the server render later pages in it (cookie), and re-renders the island.
 */
export async function switchLanguage(i18n: I18n, lng: Language) {
  if (!i18n.hasResourceBundle(lng)) {
    const res = await fetch(`/locales/${lng}.json`);
    if (!res.ok) throw new Error(`cannot load locale ${lng}`);
    i18n.addResourceBundle(lng, await res.json());
  }
  document.cookie = `${LANGUAGE_COOKIE}=${lng}; path=/; max-age=31536000; samesite=lax`;
  document.documentElement.lang = LOCALE_TAGS[lng];
  i18n.changeLanguage(lng);
}

/** The language of the current page (for dates and numbers). */
export function languageOf(i18n: I18n): Language {
  return i18n.language;
}
