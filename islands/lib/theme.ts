import { readStorage, STORAGE, writeStorage } from "./storage.ts";

/** sessionStorage key: the page this tab came from was denied (the shell then says so). */
export const PAGE_DENIED_FLASH = "pageDenied";

/**
 * Light and dark themes (seeds/002 section 2.11): the choice is stored as preferredTheme; with no
 * choice the system's preference applies, and follows it when it changes. The colours are CSS
 * variables in styles/theme.css, switched by `<html data-theme="dark|light">`.
 */
export type Theme = "light" | "dark";

export function systemTheme(): Theme {
  return globalThis.matchMedia?.("(prefers-color-scheme: dark)").matches ? "dark" : "light";
}

export function storedTheme(): Theme | null {
  const value = readStorage(STORAGE.preferredTheme);
  return value === "dark" || value === "light" ? value : null;
}

export function currentTheme(): Theme {
  const applied = document.documentElement.dataset.theme;
  return applied === "dark" || applied === "light" ? applied : storedTheme() ?? systemTheme();
}

export function applyTheme(theme: Theme) {
  const root = document.documentElement;
  root.dataset.theme = theme;
  root.style.colorScheme = theme;
}

/** Applies and remembers a choice. */
export function setTheme(theme: Theme) {
  writeStorage(STORAGE.preferredTheme, theme);
  applyTheme(theme);
}

/** While the user has made no choice, follow the system when it switches. Returns a stop function. */
export function followSystemTheme(onChange: (theme: Theme) => void): () => void {
  const query = globalThis.matchMedia?.("(prefers-color-scheme: dark)");
  if (!query) return () => {};
  const listener = () => {
    if (storedTheme()) return;
    applyTheme(systemTheme());
    onChange(systemTheme());
  };
  query.addEventListener("change", listener);
  return () => query.removeEventListener("change", listener);
}
