import { useTranslation } from "react-i18next";
import { ListPage, type ListSpec, RecordList, useRecordPage } from "./lib/list/RecordPage.tsx";
import { can } from "./lib/permissions.ts";
import { useUser } from "./lib/session.ts";
import { downloadFile } from "./lib/download.ts";
import { useLookup } from "./lib/use_lookup.ts";
import { Button } from "./lib/ui/Button.tsx";
import { ALL, FilterBar, namedOptions, useFilters } from "./lib/filters/FilterBar.tsx";
import { chosenParams, periodInstants } from "./lib/filters/filter_values.ts";
import { AUDIT_ACTIONS, type AuditLogView } from "../contract/audit.ts";
import { icon } from "./lib/ui/icon.tsx";
import { LabelledCell } from "./lib/list/ResourceList.tsx";
import { type AuditTranslate, changeLines } from "../contract/audit_words.ts";
import { useCompanyClock } from "./lib/clock.ts";

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

type Filters = { from: string; to: string; userId: string; action: string; companyId: string };

/** The filters as the route reads them: a day's start and the day after the last one. */
function paramsOf(f: Filters): Record<string, string> {
  return { ...periodInstants(f.from, f.to), ...chosenParams(f, ["userId", "action", "companyId"]) };
}

function AuditLog() {
  const { t } = useTranslation();
  const clock = useCompanyClock();
  const words: AuditTranslate = (key, options) => t(key, options ?? {});
  const platform = can(useUser(), "audit:read-platform");
  const state = useFilters<Filters>({
    from: "",
    to: "",
    userId: ALL,
    action: ALL,
    companyId: ALL,
  });
  const params = paramsOf(state.filters);
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
    wide: true,
  };
  const page = useRecordPage(spec);
  const users = useLookup<{ id: number; name: string }>("/users/list", "");
  const query = new URLSearchParams(params).toString();
  const toolbar = (
    <FilterBar
      testId="audit"
      state={state}
      period={[["from", t("audit.fromDate")], ["to", t("audit.toDate")]]}
      choices={[
        platform && {
          key: "companyId",
          label: t("audit.company"),
          all: t("audit.allCompanies"),
          options: namedOptions(companies.items),
        },
        {
          key: "userId",
          label: t("audit.who"),
          all: t("audit.allUsers"),
          options: namedOptions(users.items),
        },
        {
          key: "action",
          label: t("audit.action"),
          all: t("audit.allActions"),
          options: AUDIT_ACTIONS.map((a) => ({ value: a, label: t(`audit.actions.${a}`) })),
        },
      ]}
    >
      <Button
        onClick={() => void downloadFile(`/audit-logs/export?${query}`, "audit-log.csv")}
        data-testid="audit-export"
      >
        <Download size={16} aria-hidden="true" />
        {t("audit.export")}
      </Button>
    </FilterBar>
  );
  return (
    <RecordList page={page} toolbar={toolbar}>
      {page.list.items.map((r) => (
        <tr key={r.id} data-testid="audit-row">
          <LabelledCell label={t("audit.when")}>
            {clock.show(r.createdAt)}
          </LabelledCell>
          {platform && (
            <LabelledCell label={t("audit.company")} data-testid="audit-company">
              {companyName.get(r.companyId) ?? `#${r.companyId}`}
            </LabelledCell>
          )}
          <LabelledCell label={t("audit.who")}>{r.userName ?? "—"}</LabelledCell>
          <LabelledCell label={t("audit.action")}>{t(`audit.actions.${r.action}`)}</LabelledCell>
          <LabelledCell label={t("audit.entity")}>
            {t(`audit.entities.${r.entity}`, { defaultValue: r.entity })}
            {r.entityId ? ` #${r.entityId}` : ""}
          </LabelledCell>
          <LabelledCell label={t("audit.from")}>{r.ip ?? "—"}</LabelledCell>
          <LabelledCell
            label={t("audit.changes")}
            className="audit-changes"
            data-testid="audit-changes"
          >
            <div>
              {changeLines(r.before, r.after, words).map((line, i) => <div key={i}>{line}</div>)}
            </div>
          </LabelledCell>
        </tr>
      ))}
    </RecordList>
  );
}
