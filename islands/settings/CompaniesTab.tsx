import { useTranslation } from "react-i18next";
import type { CompanyView } from "../../contract/platform_types.ts";
import { dueDateTone } from "../../contract/platform_types.ts";
import { type ListSpec, useRecordPage } from "../lib/list/RecordPage.tsx";
import { RowActions } from "../lib/list/ResourceList.tsx";
import { byName } from "../lib/list/list_controller.ts";
import { whenOpen } from "../lib/ui/deferred.tsx";
import { brDate, localToday } from "./platform_form.ts";
import { PlatformTab, YesNo } from "./PlatformTab.tsx";

const CompanyDialog = whenOpen(() => import("./CompanyDialog.tsx").then((m) => m.CompanyDialog));

const HIDE_SM = "col-hide-sm";

const COMPANIES: ListSpec<CompanyView> = {
  path: "/companies",
  records: "companies",
  sort: byName,
  testId: "companies",
  search: "platform.companies.search",
  empty: "platform.companies.empty",
  head: [
    "platform.companies.name",
    ["platform.companies.email", HIDE_SM],
    ["platform.companies.phone", HIDE_SM],
    "platform.companies.plan",
    "platform.companies.status",
    ["platform.companies.campaigns", HIDE_SM],
    "platform.companies.dueDate",
    ["platform.companies.recurrence", HIDE_SM],
  ],
  remove: { title: "platform.companies.deleteTitle", done: "platform.done" },
};

/**
 * The Empresas tab (super users, seeds/001 section 2 'Companies admin'): the companies with plan,
 * status, campaigns, due date and recurrence, rows coloured by due date (section 9).
 */
export function CompaniesTab() {
  const { t } = useTranslation();
  const page = useRecordPage(COMPANIES);
  const today = localToday();
  return (
    <PlatformTab page={page} add="platform.companies.add" dialog={<CompanyDialog {...page.form} />}>
      {page.list.items.map((c) => {
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
            <td className={HIDE_SM}>{c.email}</td>
            <td className={HIDE_SM}>{c.phone}</td>
            <td>{c.plan?.name ?? ""}</td>
            <td>
              <YesNo
                value={c.status}
                yes={t("platform.companies.active")}
                no={t("platform.companies.inactive")}
              />
            </td>
            <td className={HIDE_SM}>
              <YesNo value={c.campaignsEnabled} yes={t("common.yes")} no={t("common.no")} />
            </td>
            <td>{c.dueDate ? brDate(c.dueDate) : t("platform.companies.noDueDate")}</td>
            <td className={HIDE_SM}>
              {c.recurrence
                ? t(`platform.recurrences.${c.recurrence}`, { defaultValue: c.recurrence })
                : ""}
            </td>
            <RowActions {...page.actions(c)} />
          </tr>
        );
      })}
    </PlatformTab>
  );
}
