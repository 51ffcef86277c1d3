import pt from "../../locales/pt.json" with { type: "json" };
import en from "../../locales/en.json" with { type: "json" };
import es from "../../locales/es.json" with { type: "json" };

/**
 * The pushes' texts in each device's language (the language the page had when it subscribed),
 * from the same locale files as the pages (shell.security.push.notify).
 */
type NotifyTexts = typeof pt.shell.security.push.notify;
export type NotifyKey = keyof NotifyTexts;

const TEXTS: Record<string, NotifyTexts> = {
  pt: pt.shell.security.push.notify,
  en: en.shell.security.push.notify,
  es: es.shell.security.push.notify,
};

/** A language the pushes speak (Portuguese for anything else). */
export function pushLanguage(requested: string | undefined): string {
  const short = (requested ?? "").toLowerCase().slice(0, 2);
  return short in TEXTS ? short : "pt";
}

export function notifyText(
  language: string,
  key: NotifyKey,
  values: Record<string, string> = {},
): string {
  const text = (TEXTS[language] ?? TEXTS.pt)[key];
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? "");
}
