import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { CAMPAIGN_GUARD } from "./lib/campaign_guard.ts";
import { type CampaignView, progressPercent } from "../contract/campaign_types.ts";
import { useRealtime, useRoomSync } from "./lib/socket.ts";
import { usePageRecord } from "./lib/use_record.ts";
import { useCompanyClock } from "./lib/clock.ts";
import { RecordMissing } from "./lib/ui/RecordMissing.tsx";

export type CampaignReportPageProps = { campaignId: number };

/** seeds/002 section 2.2 / 4: the report reloads 5 seconds after the campaign is FINALIZADA. */
export const RELOAD_AFTER_FINISH_MS = 5000;

/** /campaign/:campaignId/report: status, progress and the four figures, live. */
export default function CampaignReportPage({ campaignId }: CampaignReportPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell
      guard={CAMPAIGN_GUARD}
      title={t("campaigns.reportTitle")}
    >
      <Report campaignId={campaignId} />
    </AppShell>
  );
}

function Report({ campaignId }: CampaignReportPageProps) {
  const { t } = useTranslation();
  // A change told before the socket was ready (the page just opened) never arrives: read again then.
  const markRead = useRoomSync([], () => void found.reload());
  const clock = useCompanyClock();
  const found = usePageRecord<CampaignView>(`/campaigns/${campaignId}`, markRead);
  const campaign = found.record;
  const reload = found.reload;
  useRealtime("campaign", (event) => {
    if (event.action === "reload") return void reload();
    if (event.action !== "delete" && event.record.id === campaignId) found.set(event.record);
  });
  // Only a change seen on this page (not a campaign already FINALIZADA when opened) reloads it.
  const seen = useRef<string | null>(null);
  const status = campaign?.status ?? null;
  useEffect(() => {
    const before = seen.current;
    seen.current = status;
    if (status !== "FINALIZADA" || before === null || before === "FINALIZADA") return;
    const timer = setTimeout(() => location.reload(), RELOAD_AFTER_FINISH_MS);
    return () => clearTimeout(timer);
  }, [status]);
  if (found.missing) return <RecordMissing back="/campaigns" backLabel="campaigns.back" />;
  if (!campaign) return <div className="skeleton" style={{ height: 200 }} />;
  const percent = progressPercent(campaign.stats);
  const when = clock.show;
  const cards: [string, number][] = [
    ["validContacts", campaign.stats.validContacts],
    ["delivered", campaign.stats.delivered],
    ["confirmationRequested", campaign.stats.confirmationRequested],
    ["confirmed", campaign.stats.confirmed],
  ];
  return (
    <div className="campaign-report">
      <h2 data-testid="report-status">
        {campaign.name} — {t(`campaigns.statuses.${campaign.status}`)}
      </h2>
      <div
        className="campaign-progress"
        role="progressbar"
        aria-label={t("campaigns.progress")}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <div className="campaign-progress-bar" style={{ width: `${percent}%` }} />
      </div>
      <p data-testid="report-percent">{percent}%</p>
      <div className="campaign-cards">
        {cards.map(([key, value]) => (
          <div key={key} className="card campaign-card" data-testid={`report-${key}`}>
            <span className="campaign-card-label">{t(`campaigns.${key}`)}</span>
            <strong>{value}</strong>
          </div>
        ))}
      </div>
      <dl className="campaign-facts">
        <dt>{t("campaigns.whatsapp")}</dt>
        <dd>{campaign.whatsapp?.name ?? "—"}</dd>
        <dt>{t("campaigns.contactList")}</dt>
        <dd>{campaign.contactList?.name ?? t("campaigns.none")}</dd>
        <dt>{t("campaigns.scheduledAt")}</dt>
        <dd>{when(campaign.scheduledAt)}</dd>
        <dt>{t("campaigns.completedAt")}</dt>
        <dd data-testid="report-completed">{when(campaign.completedAt)}</dd>
      </dl>
    </div>
  );
}
