import { createContext, type ReactNode, useContext, useMemo, useSyncExternalStore } from "react";
import type { I18n, TFunction } from "./i18n.ts";

const I18nContext = createContext<I18n | null>(null);

/** Gives the islands below it their translations (server and browser alike). */
export function I18nProvider({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  return <I18nContext.Provider value={i18n}>{children}</I18nContext.Provider>;
}

/**
 * `t` and the translator, like react-i18next's hook: a component re-renders when the language
 * changes, with a new `t` (so effects that depend on it run again).
 */
export function useTranslation(): { t: TFunction; i18n: I18n } {
  const i18n = useContext(I18nContext);
  if (!i18n) throw new Error("useTranslation outside I18nProvider");
  const language = useSyncExternalStore(
    (listener) => i18n.subscribe(listener),
    () => i18n.language,
    () => i18n.language,
  );
  // `language` in the deps on purpose: a new t per language.
  const t = useMemo<TFunction>(() => (key, options) => i18n.t(key, options), [i18n, language]);
  return { t, i18n };
}
