import type { TextLanguage } from "./language.ts";
import pt from "../../locales/pt.json" with { type: "json" };
import en from "../../locales/en.json" with { type: "json" };
import es from "../../locales/es.json" with { type: "json" };

const LOCALES: Record<TextLanguage, unknown> = { pt, en, es };

/** The text at a dotted key; a key's own dots (audit.actions' "auth.login") are tried whole too. */
function find(node: unknown, parts: string[]): string | undefined {
  if (parts.length === 0) return typeof node === "string" ? node : undefined;
  if (typeof node !== "object" || node === null) return undefined;
  const record = node as Record<string, unknown>;
  for (let i = parts.length; i >= 1; i--) {
    const key = parts.slice(0, i).join(".");
    if (!(key in record)) continue;
    const found = find(record[key], parts.slice(i));
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * The pages' words (locales/*.json) for a file the server writes for a person, e.g. the audit
 * CSV: `t(key, { defaultValue })` as i18next's, without interpolation. A missing key gives its
 * default, else the key itself (as i18next does).
 */
export function localeWords(
  language: TextLanguage,
): (key: string, options?: { defaultValue?: string }) => string {
  return (key, options) => find(LOCALES[language], key.split(".")) ?? options?.defaultValue ?? key;
}
