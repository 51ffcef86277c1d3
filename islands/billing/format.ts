import { type Language, LOCALE_TAGS } from "../lib/i18n.ts";

/** seeds/001 section 2: values in BRL, in the page's language (R$ 99,00). */
export function formatBRL(value: number, lng: Language): string {
  return new Intl.NumberFormat(LOCALE_TAGS[lng], { style: "currency", currency: "BRL" })
    .format(value);
}
