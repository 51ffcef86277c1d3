import { useTranslation } from "react-i18next";
import ChartBar from "lucide-react/icons/chart-bar";
import CirclePause from "lucide-react/icons/circle-pause";
import RotateCcw from "lucide-react/icons/rotate-ccw";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { CAMPAIGN_GUARD } from "./lib/campaign_guard.ts";
import { api } from "./lib/api.ts";
import { type CampaignView, progressPercent } from "../contract/campaign_types.ts";
import { DeleteDialog } from "./lib/list/DeleteDialog.tsx";
import { useRecordDialogs, useResourceList, useWindowEvent } from "./lib/list/hooks.ts";
import { AddButton, ListSearch, ResourceTable, RowActions } from "./lib/list/ResourceList.tsx";
import { toast } from "./lib/toast.ts";
import { IconButton } from "./lib/ui/Button.tsx";
import { whenOpen } from "./lib/ui/deferred.tsx";

const CampaignDialog = whenOpen(() =>
  import("./campaigns/CampaignDialog.tsx").then((m) => m.CampaignDialog)
);

export type CampaignsPageProps = Record<string, never>;

const OPEN_ADD = "campaigns:add";

/** /campaigns (seeds/002 section 2.2): edit, cancel, restart, delete, report. */
export default function CampaignsPage(_props: CampaignsPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell
      guard={CAMPAIGN_GUARD}
      title={t("campaigns.title")}
      actions={<AddButton event={OPEN_ADD} label={t("campaigns.add")} />}
    >
      <Campaigns />
    </AppShell>
  );
}

const byNewest = (a: CampaignView, b: CampaignView) => b.id - a.id;

function when(iso: string | null) {
  return iso ? new Date(iso).toLocaleString() : "—";
}

function Campaigns() {
  const { t } = useTranslation();
  const list = useResourceList<CampaignView>({
    path: "/campaigns",
    records: "records",
    channel: "campaign",
    sort: byNewest,
  });
  const dialogs = useRecordDialogs<CampaignView>();
  useWindowEvent(OPEN_ADD, dialogs.add);
  // seeds/002 section 8: cancel and restart failures show the error message.
  const act = (c: CampaignView, action: "cancel" | "restart") =>
    api.post<CampaignView>(`/campaigns/${c.id}/${action}`).then((saved) => {
      list.upsert(saved);
      toast.success({ key: action === "cancel" ? "campaigns.cancelled" : "campaigns.restarted" });
    }).catch(() => {});
  return (
    <div className="people-page">
      <ListSearch list={list} placeholder={t("common.search")} testId="campaigns-search" />
      <ResourceTable
        list={list}
        testId="campaigns-list"
        empty={t("campaigns.empty")}
        head={
          <>
            <th>{t("campaigns.name")}</th>
            <th>{t("campaigns.status")}</th>
            <th>{t("campaigns.progress")}</th>
            <th className="col-hide-sm">{t("campaigns.contactList")}</th>
            <th className="col-hide-sm">{t("campaigns.whatsapp")}</th>
            <th className="col-hide-sm">{t("campaigns.scheduledAt")}</th>
            <th className="col-hide-sm">{t("campaigns.completedAt")}</th>
            <th className="col-actions" />
          </>
        }
      >
        {list.items.map((c) => (
          <tr key={c.id} data-testid="campaign-row" data-status={c.status}>
            <td className="people-name">{c.name}</td>
            <td>
              <span className="people-badge">{t(`campaigns.statuses.${c.status}`)}</span>
            </td>
            <td data-testid="campaign-progress">
              {`${c.stats.delivered}/${c.stats.validContacts} (${progressPercent(c.stats)}%)`}
            </td>
            <td className="col-hide-sm">{c.contactList?.name ?? t("campaigns.none")}</td>
            <td className="col-hide-sm">{c.whatsapp?.name ?? "—"}</td>
            <td className="col-hide-sm">{when(c.scheduledAt)}</td>
            <td className="col-hide-sm">{when(c.completedAt)}</td>
            <RowActions
              onEdit={() => dialogs.edit(c.id)}
              onDelete={c.status === "EM_ANDAMENTO" ? undefined : () => dialogs.askDelete(c)}
            >
              {c.status === "EM_ANDAMENTO"
                ? (
                  <IconButton label={t("campaigns.cancel")} onClick={() => act(c, "cancel")}>
                    <CirclePause size={18} aria-hidden="true" />
                  </IconButton>
                )
                : null}
              {c.status === "CANCELADA"
                ? (
                  <IconButton label={t("campaigns.restart")} onClick={() => act(c, "restart")}>
                    <RotateCcw size={18} aria-hidden="true" />
                  </IconButton>
                )
                : null}
              <IconButton
                label={t("campaigns.report")}
                onClick={() => location.assign(`/campaign/${c.id}/report`)}
              >
                <ChartBar size={18} aria-hidden="true" />
              </IconButton>
            </RowActions>
          </tr>
        ))}
      </ResourceTable>
      <CampaignDialog
        open={dialogs.editing !== null}
        campaignId={dialogs.editing?.id ?? null}
        onOpenChange={(open) => !open && dialogs.closeEdit()}
        onSaved={list.upsert}
      />
      <DeleteDialog
        list={list}
        target={dialogs.deleting}
        onClose={dialogs.closeDelete}
        path="/campaigns"
        title={t("campaigns.deleteTitle")}
        successKey="campaigns.deleted"
      />
    </div>
  );
}
