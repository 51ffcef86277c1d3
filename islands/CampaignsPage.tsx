import { useTranslation } from "react-i18next";
import { CAMPAIGN_GUARD } from "./lib/campaign_guard.ts";
import { api } from "./lib/api.ts";
import { type CampaignView, progressPercent } from "../contract/campaign_types.ts";
import { ListPage, type ListSpec, RecordList, useRecordPage } from "./lib/list/RecordPage.tsx";
import { RowActions } from "./lib/list/ResourceList.tsx";
import { toast } from "./lib/toast.ts";
import { IconButton } from "./lib/ui/Button.tsx";
import { useCompanyClock } from "./lib/clock.ts";
import { whenOpen } from "./lib/ui/deferred.tsx";
import { icon } from "./lib/ui/icon.tsx";

const ChartBar = icon("chart-bar");
const CirclePause = icon("circle-pause");
const RotateCcw = icon("rotate-ccw");

const CampaignDialog = whenOpen(() =>
  import("./campaigns/CampaignDialog.tsx").then((m) => m.CampaignDialog)
);

export type CampaignsPageProps = Record<string, never>;

/** /campaigns (seeds/002 section 2.2): edit, cancel, restart, delete, report. */
export default function CampaignsPage(_props: CampaignsPageProps) {
  return (
    <ListPage title="campaigns.title" add="campaigns.add" guard={CAMPAIGN_GUARD}>
      <Campaigns />
    </ListPage>
  );
}

const HIDE_SM = "col-hide-sm";

const CAMPAIGNS: ListSpec<CampaignView> = {
  path: "/campaigns",
  records: "records",
  channel: "campaign",
  sort: (a, b) => b.id - a.id,
  testId: "campaigns",
  search: "common.search",
  empty: "campaigns.empty",
  emptyHint: "campaigns.emptyHint",
  head: [
    "campaigns.name",
    "campaigns.status",
    "campaigns.progress",
    ["campaigns.contactList", HIDE_SM],
    ["campaigns.whatsapp", HIDE_SM],
    ["campaigns.scheduledAt", HIDE_SM],
    ["campaigns.completedAt", HIDE_SM],
  ],
  remove: { title: "campaigns.deleteTitle", done: "campaigns.deleted" },
};

function Campaigns() {
  const { t } = useTranslation();
  const page = useRecordPage(CAMPAIGNS);
  const when = useCompanyClock().show;
  // seeds/002 section 8: cancel and restart failures show the error message.
  const act = (c: CampaignView, action: "cancel" | "restart") =>
    api.post<CampaignView>(`/campaigns/${c.id}/${action}`).then((saved) => {
      page.list.upsert(saved);
      toast.success({ key: action === "cancel" ? "campaigns.cancelled" : "campaigns.restarted" });
    }).catch(() => {});
  return (
    <RecordList page={page} dialog={<CampaignDialog {...page.form} />}>
      {page.list.items.map((c) => (
        <tr key={c.id} data-testid="campaign-row" data-status={c.status}>
          <td className="people-name">{c.name}</td>
          <td>
            <span className="people-badge">{t(`campaigns.statuses.${c.status}`)}</span>
          </td>
          <td data-testid="campaign-progress">
            {`${c.stats.delivered}/${c.stats.validContacts} (${progressPercent(c.stats)}%)`}
          </td>
          <td className={HIDE_SM}>{c.contactList?.name ?? t("campaigns.none")}</td>
          <td className={HIDE_SM}>{c.whatsapp?.name ?? "—"}</td>
          <td className={HIDE_SM}>{when(c.scheduledAt)}</td>
          <td className={HIDE_SM}>{when(c.completedAt)}</td>
          <RowActions {...page.actions(c, { edit: true, remove: c.status !== "EM_ANDAMENTO" })}>
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
    </RecordList>
  );
}
