import { changeLines } from "../../contract/audit_words.ts";
import { deviceName } from "../../contract/device_name.ts";
import { zoneOffsetMs } from "../../contract/time_zone.ts";
import type { AppDeps, AuthInfo } from "../context.ts";
import { csvLines } from "../contacts/csv_lines.ts";
import type { TextLanguage } from "../http/language.ts";
import { localeWords } from "../http/locale_words.ts";
import { pageWindow } from "../paging.ts";
import { companyTimeZone } from "../settings/values.ts";
import { listAuditLogs } from "./repository.ts";
import { type AuditQuery, scopeOf } from "./service.ts";

const CSV_PAGE = 500;

/**
 * GET /api/audit-logs/export: the rows the same filters select (every page, newest first) as a
 * CSV a person reads (issue 50 item 6), in the reader's language: the page's column titles, the
 * action and the record named, the device instead of its user agent, the changes in words (one
 * line per field, as the page shows them) instead of JSON; times on the company's clock. ';'
 * separates the cells in Portuguese (Excel in Brazil), ',' otherwise.
 */
export async function exportAudit(
  deps: AppDeps,
  auth: AuthInfo,
  query: AuditQuery,
  language: TextLanguage,
): Promise<string> {
  const companyId = scopeOf(auth, query);
  const platform = companyId === null || companyId !== auth.companyId;
  const t = localeWords(language);
  const zone = await companyTimeZone(deps.db, auth.companyId);
  const lines = [[
    t("audit.when"),
    ...(platform ? [t("audit.company")] : []),
    t("audit.who"),
    t("audit.action"),
    t("audit.entity"),
    t("audit.from"),
    t("audit.fields.userAgent"),
    t("audit.changes"),
  ]];
  for (let page = 1;; page++) {
    const window = pageWindow(page, CSV_PAGE);
    const { rows } = await listAuditLogs(deps.db, { ...query, companyId }, window);
    for (const r of rows) {
      const entity = t(`audit.entities.${r.entity}`, { defaultValue: r.entity });
      lines.push([
        zonedDateTime(r.createdAt, zone),
        ...(platform ? [String(r.companyId)] : []),
        r.userName ?? "—",
        t(`audit.actions.${r.action}`, { defaultValue: r.action }),
        r.entityId ? `${entity} #${r.entityId}` : entity,
        r.ip ?? "—",
        deviceName(r.userAgent, t),
        changeLines(
          r.before ? JSON.parse(r.before) : null,
          r.after ? JSON.parse(r.after) : null,
          t,
        ).join("\n"),
      ]);
    }
    if (rows.length < CSV_PAGE) break;
  }
  return csvLines(lines, language === "pt" ? ";" : ",");
}

/** "2026-11-22 09:00:00" on the zone's clock: every spreadsheet reads it as a date and sorts it. */
function zonedDateTime(at: string, zone: string): string {
  const shifted = new Date(Date.parse(at) + zoneOffsetMs(Date.parse(at), zone));
  return shifted.toISOString().slice(0, 19).replace("T", " ");
}
