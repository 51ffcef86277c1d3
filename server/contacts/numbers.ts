import { type CountryCode, parsePhoneNumberFromString } from "libphonenumber-js/max";

/**
 * WhatsApp numbers as contacts store them: digits only, country code first, no "+"
 * (5513912344321), which is also the user part of a WhatsApp JID, so a contact typed by hand
 * and the same contact arriving by message meet on the (companyId, number) unique key.
 */
export type NormalizedNumber =
  | { ok: true; number: string; isGroup: boolean }
  | { ok: false; message: string };

export const DEFAULT_COUNTRY: CountryCode = "BR";

/** Group ids are not phone numbers: "<digits>-<digits>" (old), "120363…" (new) or "…@g.us". */
export function isGroupId(raw: string): boolean {
  const value = raw.trim();
  return /@g\.us$/i.test(value) || /^\d{5,}-\d{5,}$/.test(value) || /^120363\d{9,}$/.test(value);
}

const ALLOWED = /^[+\d\s().\-]+$/;

/**
 * Normalises what a person typed ("(13) 91234-4321", "+55 13 91234-4321", "5513912344321")
 * to digits with the country code, and refuses what is not a valid number. Numbers without
 * "+" are read first as numbers of `defaultCountry`, then as international numbers without the
 * plus. Group ids are returned as they are (seeds: groups keep their WhatsApp id).
 */
export function normalizeNumber(
  raw: string,
  defaultCountry: CountryCode = DEFAULT_COUNTRY,
): NormalizedNumber {
  const value = raw.trim().replace(/@(s\.whatsapp\.net|c\.us)$/i, "");
  if (isGroupId(value)) return { ok: true, number: value.replace(/@g\.us$/i, ""), isGroup: true };
  if (!ALLOWED.test(value)) {
    return { ok: false, message: `Número inválido: "${raw}" contém caracteres não numéricos` };
  }
  const digits = value.replace(/\D/g, "");
  if (digits.length < 8 || digits.length > 15) {
    return { ok: false, message: `Número inválido: "${raw}" deve ter de 8 a 15 dígitos` };
  }
  const candidates = value.startsWith("+")
    ? [parsePhoneNumberFromString(value)]
    : [parsePhoneNumberFromString(value, defaultCountry), parsePhoneNumberFromString(`+${digits}`)];
  for (const parsed of candidates) {
    if (parsed?.isValid()) return { ok: true, number: parsed.number.slice(1), isGroup: false };
  }
  const legacy = legacyBrazilianMobile(digits, value.startsWith("+") ? undefined : defaultCountry);
  if (legacy) return { ok: true, number: legacy, isGroup: false };
  return {
    ok: false,
    message:
      `Número inválido: "${raw}" não é um número de telefone válido (inclua o DDD ou o código do país)`,
  };
}

/**
 * Brazilian mobiles registered on WhatsApp before the ninth digit keep an 8-digit JID
 * (55 11 8765-4321). The numbering plan calls them invalid, yet WhatsApp still delivers to them,
 * so they are accepted as the JID spells them.
 */
function legacyBrazilianMobile(digits: string, country: CountryCode | undefined): string | null {
  const full = digits.length === 10 && country === "BR" ? `55${digits}` : digits;
  if (full.length !== 12 || !full.startsWith("55")) return null;
  const areaCode = Number(full.slice(2, 4));
  if (areaCode < 11 || areaCode > 99 || !/[6-9]/.test(full[4])) return null;
  return full;
}
