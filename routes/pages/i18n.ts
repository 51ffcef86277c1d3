import type { i18n as I18n } from "i18next";
import {
  createI18n,
  DEFAULT_LANGUAGE,
  type I18nPayload,
  isLanguage,
  type Language,
  type Messages,
} from "../../islands/lib/i18n.ts";
import { LANGUAGE_COOKIE } from "../../islands/lib/storage.ts";
import pt from "../../locales/pt.json" with { type: "json" };
import en from "../../locales/en.json" with { type: "json" };
import es from "../../locales/es.json" with { type: "json" };

/** The locale files, the one source of every text (server and islands). */
export const LOCALES: Record<Language, Messages> = { pt, en, es };

const instances = new Map<Language, I18n>();

/** A shared i18next instance per language (SSR renders synchronously, never switching it). */
export function serverI18n(lng: Language): I18n {
  let instance = instances.get(lng);
  if (!instance) {
    instance = createI18n(payloadFor(lng));
    instances.set(lng, instance);
  }
  return instance;
}

/** What a page embeds: its language and the fallback (pt), nothing more. */
export function payloadFor(lng: Language): I18nPayload {
  return {
    lng,
    resources: lng === DEFAULT_LANGUAGE ? { pt } : { [lng]: LOCALES[lng], pt },
  };
}

/** The page language: the `lang` cookie the language switcher sets, else pt (seeds/000 section 9). */
export function requestLanguage(cookieHeader: string | undefined): Language {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, value] = part.trim().split("=");
    if (name === LANGUAGE_COOKIE && isLanguage(value)) return value;
  }
  return DEFAULT_LANGUAGE;
}
