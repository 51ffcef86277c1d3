import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ListPage, type ListSpec, RecordList, useRecordPage } from "./lib/list/RecordPage.tsx";
import { can } from "./lib/permissions.ts";
import { useUser } from "./lib/session.ts";
import { downloadFile } from "./lib/download.ts";
import { useLookup } from "./lib/use_lookup.ts";
import { Button } from "./lib/ui/Button.tsx";
import { Select } from "./lib/ui/Select.tsx";
import { AUDIT_ACTIONS, type AuditLogView } from "../contract/audit.ts";
import { icon } from "./lib/ui/icon.tsx";

const Download = icon("download");

export type AuditPageProps = Record<string, never>;

/**
 * /audit (issue 30): who did what, when and from where, newest first; filtered by period, user
 * and action, exported as CSV. Admins read their company's log, super users the platform's (with
 * a company column and filter).
 */
export default function AuditPage(_props: AuditPageProps) {
  return (
    <ListPage
      title="audit.title"
      guard={{
        allow: (user) => can(user, "audit:read"),
        message: "errors.noPermissionPage",
        redirectTo: "/",
      }}
    >
      <AuditLog />
    </ListPage>
  );
}

const ALL = "all";

type Filters = { from: string; to: string; userId: string; action: string; companyId: string };

/** The filters as the route reads them: a day's start and the day after the last one. */
function paramsOf(f: Filters): Record<string, string> {
  const params: Record<string, string> = {};
  if (f.from) params.from = new Date(`${f.from}T00:00:00`).toISOString();
  if (f.to) {
    const end = new Date(`${f.to}T00:00:00`);
    end.setDate(end.getDate() + 1);
    params.to = end.toISOString();
  }
  if (f.userId !== ALL) params.userId = f.userId;
  if (f.action !== ALL) params.action = f.action;
  if (f.companyId !== ALL) params.companyId = f.companyId;
  return params;
}

function AuditLog() {
  const { t } = useTranslation();
  const platform = can(useUser(), "audit:read-platform");
  const [filters, setFilters] = useState<Filters>({
    from: "",
    to: "",
    userId: ALL,
    action: ALL,
    companyId: ALL,
  });
  const params = paramsOf(filters);
  const companies = useLookup<{ id: number; name: string }>(
    platform ? "/companies/list" : null,
    "",
  );
  const companyName = new Map(companies.items.map((c) => [c.id, c.name]));
  const spec: ListSpec<AuditLogView> = {
    path: "/audit-logs",
    records: "records",
    params,
    testId: "audit",
    empty: "audit.empty",
    head: [
      "audit.when",
      ...(platform ? ["audit.company"] : []),
      "audit.who",
      "audit.action",
      "audit.entity",
      "audit.from",
    ],
    actions: "audit.changes",
  };
  const page = useRecordPage(spec);
  const users = useLookup<{ id: number; name: string }>("/users/list", "");
  const set = (key: keyof Filters) => (value: string) =>
    setFilters((f) => ({ ...f, [key]: value }));
  const query = new URLSearchParams(params).toString();
  const toolbar = (
    <div className="audit-filters">
      <label>
        {t("audit.fromDate")}
        <input
          className="input"
          type="date"
          value={filters.from}
          onChange={(e) => set("from")(e.target.value)}
          data-testid="audit-from"
        />
      </label>
      <label>
        {t("audit.toDate")}
        <input
          className="input"
          type="date"
          value={filters.to}
          onChange={(e) => set("to")(e.target.value)}
          data-testid="audit-to"
        />
      </label>
      {platform && (
        <Select
          label={t("audit.company")}
          value={filters.companyId}
          onValueChange={set("companyId")}
          options={[
            { value: ALL, label: t("audit.allCompanies") },
            ...companies.items.map((c) => ({ value: String(c.id), label: c.name })),
          ]}
        />
      )}
      <Select
        label={t("audit.who")}
        value={filters.userId}
        onValueChange={set("userId")}
        options={[
          { value: ALL, label: t("audit.allUsers") },
          ...users.items.map((u) => ({ value: String(u.id), label: u.name })),
        ]}
      />
      <Select
        label={t("audit.action")}
        value={filters.action}
        onValueChange={set("action")}
        options={[
          { value: ALL, label: t("audit.allActions") },
          ...AUDIT_ACTIONS.map((a) => ({ value: a, label: t(`audit.actions.${a}`) })),
        ]}
      />
      <Button
        onClick={() => void downloadFile(`/audit-logs/export?${query}`, "audit-log.csv")}
        data-testid="audit-export"
      >
        <Download size={16} aria-hidden="true" />
        {t("audit.export")}
      </Button>
    </div>
  );
  return (
    <RecordList page={page} toolbar={toolbar}>
      {page.list.items.map((r) => (
        <tr key={r.id} data-testid="audit-row">
          <td>{new Date(r.createdAt).toLocaleString()}</td>
          {platform && (
            <td data-testid="audit-company">{companyName.get(r.companyId) ?? `#${r.companyId}`}</td>
          )}
          <td>{r.userName ?? "—"}</td>
          <td>{t(`audit.actions.${r.action}`)}</td>
          <td>
            {t(`audit.entities.${r.entity}`, { defaultValue: r.entity })}
            {r.entityId ? ` #${r.entityId}` : ""}
          </td>
          <td>{r.ip ?? "—"}</td>
          <td className="audit-changes" data-testid="audit-changes">
            {changes(r)}
          </td>
        </tr>
      ))}
    </RecordList>
  );
}

/** "profile: user → admin", one line per field (secrets already masked by the server). */
function changes(r: AuditLogView) {
  const keys = [...new Set([...Object.keys(r.before ?? {}), ...Object.keys(r.after ?? {})])];
  const shown = (v: unknown) =>
    v === undefined || v === null ? "—" : typeof v === "string" ? v : JSON.stringify(v);
  return keys.map((k) => (
    <div key={k}>
      {k}: {r.before && k in r.before ? `${shown(r.before[k])} → ` : ""}
      {shown(r.after?.[k])}
    </div>
  ));
}
