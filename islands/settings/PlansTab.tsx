import { useTranslation } from "react-i18next";
import { PLAN_SWITCHES, type PlanView } from "../../contract/platform_types.ts";
import { DeleteDialog } from "../lib/list/DeleteDialog.tsx";
import { useRecordDialogs, useResourceList } from "../lib/list/hooks.ts";
import { ResourceTable, RowActions } from "../lib/list/ResourceList.tsx";
import { byName } from "../lib/list/list_controller.ts";
import { whenOpen } from "../lib/ui/deferred.tsx";
import { brl } from "./platform_form.ts";
import { PlatformTab, YesNo } from "./PlatformTab.tsx";

const PlanDialog = whenOpen(() => import("./PlanDialog.tsx").then((m) => m.PlanDialog));

const PLANS = { path: "/plans", records: "plans", sort: byName };

/**
 * The Planos tab (super users, seeds/001 section 2 'Plans admin'): name, monthly value, the three
 * limits (0 = no limit) and the feature switches. A plan in use cannot be deleted (the server
 * answers ERR_PLAN_IN_USE, shown as a toast).
 */
export function PlansTab() {
  const { t } = useTranslation();
  const list = useResourceList<PlanView>(PLANS);
  const dialogs = useRecordDialogs<PlanView>();
  const limit = (n: number) => (n === 0 ? t("platform.plans.unlimited") : String(n));
  return (
    <PlatformTab
      list={list}
      search={t("platform.plans.search")}
      addLabel={t("platform.plans.add")}
      onAdd={dialogs.add}
      testId="plans"
    >
      <ResourceTable
        list={list}
        testId="plans-list"
        empty={t("platform.plans.empty")}
        head={
          <>
            <th>{t("platform.plans.name")}</th>
            <th>{t("platform.plans.value")}</th>
            <th>{t("platform.plans.users")}</th>
            <th>{t("platform.plans.connections")}</th>
            <th>{t("platform.plans.queues")}</th>
            {PLAN_SWITCHES.map((s) => (
              <th key={s} className="col-hide-sm">{t(`platform.plans.switches.${s}`)}</th>
            ))}
            <th className="col-actions" />
          </>
        }
      >
        {list.items.map((p) => (
          <tr key={p.id} data-testid="plan-row" data-plan-id={p.id}>
            <td className="people-name">{p.name}</td>
            <td>{brl(p.value)}</td>
            <td>{limit(p.users)}</td>
            <td>{limit(p.connections)}</td>
            <td>{limit(p.queues)}</td>
            {PLAN_SWITCHES.map((s) => (
              <td key={s} className="col-hide-sm">
                <YesNo value={p[s]} yes={t("common.yes")} no={t("common.no")} />
              </td>
            ))}
            <RowActions
              onEdit={() => dialogs.edit(p.id)}
              onDelete={() => dialogs.askDelete(p)}
            />
          </tr>
        ))}
      </ResourceTable>
      <PlanDialog
        open={dialogs.editing !== null}
        onOpenChange={(open) => !open && dialogs.closeEdit()}
        planId={dialogs.editing?.id ?? null}
        onSaved={list.upsert}
      />
      <DeleteDialog
        list={list}
        target={dialogs.deleting}
        onClose={dialogs.closeDelete}
        path="/plans"
        title={t("platform.plans.deleteTitle", { name: dialogs.deleting?.name ?? "" })}
        successKey="platform.done"
      />
    </PlatformTab>
  );
}
