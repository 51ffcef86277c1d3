import { useTranslation } from "react-i18next";
import type { TicketReferral } from "../../contract/ticket_types.ts";
import { icon } from "../lib/ui/icon.tsx";

const Megaphone = icon("megaphone");

/**
 * Issue 45: the ad (Click-to-WhatsApp) or post the contact came from, at the top of the chat: the
 * attendant knows what the contact saw before writing (its headline and text, a link to it).
 */
export function ReferralBanner({ referral }: { referral?: TicketReferral | null }) {
  const { t } = useTranslation();
  if (!referral) return null;
  return (
    <aside
      className="tv-summary"
      data-testid="ticket-referral"
      aria-label={t("tickets.referral.label")}
    >
      <Megaphone size={16} aria-hidden="true" />
      <div>
        <strong>
          {t(referral.sourceType === "post" ? "tickets.referral.post" : "tickets.referral.ad")}
        </strong>
        {referral.headline ? <p>{referral.headline}</p> : null}
        {referral.body ? <p className="muted">{referral.body}</p> : null}
      </div>
      {referral.sourceUrl
        ? (
          <a href={referral.sourceUrl} target="_blank" rel="noopener noreferrer">
            {t("tickets.referral.open")}
          </a>
        )
        : null}
    </aside>
  );
}
