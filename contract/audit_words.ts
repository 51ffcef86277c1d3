import { deviceName } from "./device_name.ts";

/** i18next's `t` as the words of an audit row need it (the server has its own over the locales). */
export type AuditTranslate = (key: string, options?: { defaultValue?: string }) => string;

/**
 * An audit row's 'Alterações' in words, one line per field (issue 50 item 6): "Perfil: Usuário →
 * Administrador". The field's name, yes/no for a switch, a known value's name (audit.values), a
 * device for a user agent (secrets already masked by the server). An unknown field or value shows
 * as recorded. The /audit page and its CSV say the same.
 */
export function changeLines(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  t: AuditTranslate,
): string[] {
  const keys = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const shown = (k: string, v: unknown) => {
    if (v === undefined || v === null || v === "") return "—";
    if (typeof v === "boolean") return t(v ? "common.yes" : "common.no");
    if (k === "userAgent" && typeof v === "string") return deviceName(v, t);
    if (typeof v === "string") return t(`audit.values.${k}.${v}`, { defaultValue: v });
    return typeof v === "number" ? String(v) : JSON.stringify(v);
  };
  // An arrow only for a field on both sides (a change); a field on one side describes what was
  // created, deleted or ended ("Dispositivo: Chrome · Linux"), it did not become "—".
  return keys.map((k) => {
    const name = t(`audit.fields.${k}`, { defaultValue: k });
    if (before && after && k in before && k in after) {
      return `${name}: ${shown(k, before[k])} → ${shown(k, after[k])}`;
    }
    return `${name}: ${shown(k, after && k in after ? after[k] : before?.[k])}`;
  });
}
