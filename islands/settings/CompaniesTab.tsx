import { useTranslation } from "react-i18next";
import type { CompanyView } from "../../contract/platform_types.ts";
import { dueDateTone } from "../../contract/platform_types.ts";
import { DeleteDialog } from "../lib/list/DeleteDialog.tsx";
import { useRecordDialogs, useResourceList } from "../lib/list/hooks.ts";
import { ResourceTable, RowActions } from "../lib/list/ResourceList.tsx";
import { byName } from "../lib/list/list_controller.ts";
import { whenOpen } from "../lib/ui/deferred.tsx";
import { brDate, localToday } from "./platform_form.ts";
import { PlatformTab, YesNo } from "./PlatformTab.tsx";

const CompanyDialog = whenOpen(() => import("./CompanyDialog.tsx").then((m) => m.CompanyDialog));

const COMPANIES = { path: "/companies", records: "companies", sort: byName };

/**
 * The Empresas tab (super users, seeds/001 section 2 'Companies admin'): the companies with plan,
 * status, campaigns, due date and recurrence, rows coloured by due date (section 9).
 */
export function CompaniesTab() {
  const { t } = useTranslation();
  const list = useResourceList<CompanyView>(COMPANIES);
  const dialogs = useRecordDialogs<CompanyView>();
  const today = localToday();
  return (
    <PlatformTab
      list={list}
      search={t("platform.companies.search")}
      addLabel={t("platform.companies.add")}
      onAdd={dialogs.add}
      testId="companies"
    >
      <ResourceTable
        list={list}
        testId="companies-list"
        empty={t("platform.companies.empty")}
        head={
          <>
            <th>{t("platform.companies.name")}</th>
            <th className="col-hide-sm">{t("platform.companies.email")}</th>
            <th className="col-hide-sm">{t("platform.companies.phone")}</th>
            <th>{t("platform.companies.plan")}</th>
            <th>{t("platform.companies.status")}</th>
            <th className="col-hide-sm">{t("platform.companies.campaigns")}</th>
            <th>{t("platform.companies.dueDate")}</th>
            <th className="col-hide-sm">{t("platform.companies.recurrence")}</th>
            <th className="col-actions" />
          </>
        }
      >
        {list.items.map((c) => {
          const tone = dueDateTone(c.dueDate, today);
          return (
            <tr
              key={c.id}
              className={tone ? `due-${tone}` : undefined}
              data-testid="company-row"
              data-company-id={c.id}
              data-tone={tone ?? ""}
            >
              <td className="people-name">{c.name}</td>
              <td className="col-hide-sm">{c.email}</td>
              <td className="col-hide-sm">{c.phone}</td>
              <td>{c.plan?.name ?? ""}</td>
              <td>
                <YesNo
                  value={c.status}
                  yes={t("platform.companies.active")}
                  no={t("platform.companies.inactive")}
                />
              </td>
              <td className="col-hide-sm">
                <YesNo value={c.campaignsEnabled} yes={t("common.yes")} no={t("common.no")} />
              </td>
              <td>{c.dueDate ? brDate(c.dueDate) : t("platform.companies.noDueDate")}</td>
              <td className="col-hide-sm">
                {c.recurrence
                  ? t(`platform.recurrences.${c.recurrence}`, { defaultValue: c.recurrence })
                  : ""}
              </td>
              <RowActions
                onEdit={() => dialogs.edit(c.id)}
                onDelete={() => dialogs.askDelete(c)}
              />
            </tr>
          );
        })}
      </ResourceTable>
      <CompanyDialog
        open={dialogs.editing !== null}
        onOpenChange={(open) => !open && dialogs.closeEdit()}
        companyId={dialogs.editing?.id ?? null}
        onSaved={list.upsert}
      />
      <DeleteDialog
        list={list}
        target={dialogs.deleting}
        onClose={dialogs.closeDelete}
        path="/companies"
        title={t("platform.companies.deleteTitle", { name: dialogs.deleting?.name ?? "" })}
        successKey="platform.done"
      />
    </PlatformTab>
  );
}
