import { useTranslation } from "react-i18next";
import { PLAN_SWITCHES, type PlanView } from "../../contract/platform_types.ts";
import { planLimit } from "../lib/plan_limit.ts";
import { type ListSpec, useRecordPage } from "../lib/list/RecordPage.tsx";
import { RowActions } from "../lib/list/ResourceList.tsx";
import { byName } from "../lib/list/list_controller.ts";
import { whenOpen } from "../lib/ui/deferred.tsx";
import { brl } from "./platform_form.ts";
import { PlatformTab } from "./PlatformTab.tsx";

const PlanDialog = whenOpen(() => import("./PlanDialog.tsx").then((m) => m.PlanDialog));

const PLANS: ListSpec<PlanView> = {
  path: "/plans",
  records: "plans",
  sort: byName,
  testId: "plans",
  search: "platform.plans.search",
  empty: "platform.plans.empty",
  head: [
    "platform.plans.name",
    "platform.plans.value",
    "platform.plans.users",
    "platform.plans.connections",
    "platform.plans.queues",
    // One column lists the plan's features: seven yes/no columns made the table scroll sideways
    // at 1366 px (issue 24 item 7).
    ["platform.plans.features", "col-hide-sm"],
  ],
  remove: { title: "platform.plans.deleteTitle", done: "platform.done" },
};

/**
 * The Planos tab (super users, seeds/001 section 2 'Plans admin'): name, monthly value, the three
 * limits (0 = no limit) and the feature switches. A plan in use cannot be deleted (the server
 * answers ERR_PLAN_IN_USE, shown as a toast).
 */
export function PlansTab() {
  const { t } = useTranslation();
  const page = useRecordPage(PLANS);
  const limit = (n: number) => planLimit(n, t);
  return (
    <PlatformTab page={page} add="platform.plans.add" dialog={<PlanDialog {...page.form} />}>
      {page.list.items.map((p) => (
        <tr key={p.id} data-testid="plan-row" data-plan-id={p.id}>
          <td className="people-name">{p.name}</td>
          <td>{brl(p.value)}</td>
          <td>{limit(p.users)}</td>
          <td>{limit(p.connections)}</td>
          <td>{limit(p.queues)}</td>
          <td className="col-hide-sm">
            <span className="platform-features" data-testid="plan-features">
              {PLAN_SWITCHES.filter((s) => p[s]).map((s) => (
                <span key={s} className="platform-feature">
                  {t(`platform.plans.switches.${s}`)}
                </span>
              ))}
            </span>
          </td>
          <RowActions {...page.actions(p)} />
        </tr>
      ))}
    </PlatformTab>
  );
}
