import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { formatDate } from "./lib/shell/TopBar.tsx";
import { daysUntil, useUser } from "./lib/session.ts";
import { api } from "./lib/api.ts";
import { ApiError } from "./lib/errors.ts";
import { toast } from "./lib/toast.ts";
import { languageOf } from "./lib/i18n.ts";
import { Button } from "./lib/ui/Button.tsx";
import { whenOpen } from "./lib/ui/deferred.tsx";
import type { InvoiceView } from "../contract/billing_types.ts";
import { canSeeBilling } from "../contract/billing_rules.ts";

const CheckoutDialog = whenOpen(() =>
  import("./billing/CheckoutDialog.tsx").then((m) => m.CheckoutDialog)
);

export type SubscriptionPageProps = Record<string, never>;

/** /subscription (seeds/002 section 2.10): the expiration, the billing e-mail, subscribe. */
export default function SubscriptionPage(_props: SubscriptionPageProps) {
  const { t } = useTranslation();
  return (
    <AppShell
      title={t("billing.subscription.title")}
      guard={{ allow: canSeeBilling, message: "errors.accessDenied", redirectTo: "/tickets" }}
    >
      <Subscription />
    </AppShell>
  );
}

type CompanyBilling = { email: string | null; dueDate: string | null };

function Subscription() {
  const { t, i18n } = useTranslation();
  const lng = languageOf(i18n);
  const user = useUser();
  const [company, setCompany] = useState<CompanyBilling | null>(null);
  const [invoiceId, setInvoiceId] = useState<number | null>(null);
  const [opening, setOpening] = useState(false);

  useEffect(() => {
    api.get<CompanyBilling>(`/companies/${user.companyId}`).then(setCompany).catch(() => {});
  }, [user.companyId]);

  // The oldest unpaid invoice, or the current period's (made on the server once).
  const subscribe = async () => {
    setOpening(true);
    try {
      setInvoiceId(
        (await api.post<InvoiceView>("/invoices/current", undefined, { quiet: true })).id,
      );
    } catch (error) {
      // No invoice to make: the company's plan costs nothing (or it has none).
      if (error instanceof ApiError && error.code === "ERR_NO_INVOICE_FOUND") {
        toast.info({ key: "billing.subscription.nothingToPay" });
      } else toast.error(error);
    } finally {
      setOpening(false);
    }
  };

  const dueDate = company?.dueDate ?? user.company.dueDate;
  const days = daysUntil(dueDate);
  return (
    <div className="card subscription-card" data-testid="subscription">
      <label className="field">
        <span>
          {t(
            user.company.trial
              ? "billing.subscription.trialExpiration"
              : "billing.subscription.subscriptionExpiration",
          )}
        </span>
        <input
          className="input"
          readOnly
          value={dueDate ? formatDate(dueDate, lng) : t("billing.subscription.noDueDate")}
        />
      </label>
      <label className="field">
        <span>{t("billing.subscription.billingEmail")}</span>
        <input className="input" readOnly value={company?.email ?? ""} />
      </label>
      <label className="field">
        <span>{t("billing.subscription.daysLeft")}</span>
        <input className="input" readOnly value={days === null ? "-" : String(Math.max(days, 0))} />
      </label>
      <Button variant="primary" onClick={subscribe} loading={opening}>
        {t("billing.subscription.subscribe")}
      </Button>
      <CheckoutDialog
        open={invoiceId !== null}
        invoiceId={invoiceId ?? 0}
        onOpenChange={(open) => !open && setInvoiceId(null)}
      />
    </div>
  );
}
