import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AppShell } from "./lib/shell/AppShell.tsx";
import { formatDate } from "./lib/shell/TopBar.tsx";
import { useUser } from "./lib/session.ts";
import { can } from "./lib/permissions.ts";
import { api } from "./lib/api.ts";
import { downloadFile } from "./lib/download.ts";
import { languageOf } from "./lib/i18n.ts";
import { toast } from "./lib/toast.ts";
import { Button, IconButton } from "./lib/ui/Button.tsx";
import { whenOpen } from "./lib/ui/deferred.tsx";
import { useResourceList } from "./lib/list/hooks.ts";
import { LabelledCell, ListSearch, ResourceTable } from "./lib/list/ResourceList.tsx";
import type { InvoiceView } from "../contract/billing_types.ts";
import { canSeeBilling, invoiceDisplay, localToday } from "../contract/billing_rules.ts";
import { formatBRL } from "./billing/format.ts";
import { PlanChange } from "./billing/PlanChange.tsx";
import { icon } from "./lib/ui/icon.tsx";

const CheckCheck = icon("check-check");

const ConfirmDialog = whenOpen(() =>
  import("./lib/ui/ConfirmDialog.tsx").then((m) => m.ConfirmDialog)
);
const CheckoutDialog = whenOpen(() =>
  import("./billing/CheckoutDialog.tsx").then((m) => m.CheckoutDialog)
);

export type FinancePageProps = Record<string, never>;

/** /financeiro 'Faturas' (seeds/001 section 2 'Invoices screen'): company admins, super users. */
export default function FinancePage(_props: FinancePageProps) {
  const { t } = useTranslation();
  return (
    <AppShell
      title={t("billing.title")}
      guard={{ allow: canSeeBilling, message: "errors.accessDenied", redirectTo: "/tickets" }}
      actions={
        <a className="btn btn-secondary" href="/subscription">
          {t("billing.subscription.title")}
        </a>
      }
    >
      <Invoices />
    </AppShell>
  );
}

/** GET /api/invoices/all pages, live on company-<id>-invoice. */
const INVOICES = { path: "/invoices/all", records: "invoices", channel: "invoice" as const };

function Invoices() {
  const { t, i18n } = useTranslation();
  const lng = languageOf(i18n);
  const user = useUser();
  const list = useResourceList<InvoiceView>(INVOICES);
  const [paying, setPaying] = useState<number | null>(null);
  const [marking, setMarking] = useState<InvoiceView | null>(null);
  const today = localToday();

  const markPaid = async (invoice: InvoiceView) => {
    const saved = await api.put<InvoiceView>(`/invoices/${invoice.id}/paid`);
    list.upsert({ ...saved, companyName: invoice.companyName });
    toast.success({ key: "billing.markedPaid" });
  };

  return (
    <div className="people-page">
      {!user.super && can(user, "plan:change")
        ? (
          <PlanChange
            currentPlanId={user.company.plan?.id ?? null}
            onInvoice={(invoice) => list.upsert(invoice)}
          />
        )
        : null}
      <ListSearch
        list={list}
        placeholder={t("billing.searchPlaceholder")}
        testId="invoices-search"
      />
      <ResourceTable
        list={list}
        testId="invoices-list"
        // A late company with a plan that costs nothing has no invoice to pay (issue 50 item 2):
        // say so and what to do, not the bare "none found" under a banner that says to pay.
        empty={t(user.restricted === "billing" ? "billing.emptyLate" : "billing.empty")}
        wide
        head={
          <>
            <th>{t("billing.id")}</th>
            {user.super ? <th>{t("billing.company")}</th> : null}
            <th>{t("billing.detail")}</th>
            <th>{t("billing.value")}</th>
            <th>{t("billing.dueDate")}</th>
            <th>{t("billing.status")}</th>
            <th className="col-actions">{t("billing.action")}</th>
          </>
        }
      >
        {list.items.map((invoice) => {
          const display = invoiceDisplay(invoice, today);
          const own = invoice.companyId === user.companyId;
          return (
            <tr
              key={invoice.id}
              className={display === "overdue" ? "invoice-overdue" : undefined}
              data-testid="invoice-row"
              data-status={display}
            >
              <LabelledCell label={t("billing.id")}>{invoice.id}</LabelledCell>
              {user.super
                ? (
                  <LabelledCell label={t("billing.company")}>
                    {invoice.companyName ?? ""}
                  </LabelledCell>
                )
                : null}
              <LabelledCell label={t("billing.detail")}>{invoice.detail}</LabelledCell>
              <LabelledCell label={t("billing.value")}>
                {formatBRL(invoice.value, lng)}
              </LabelledCell>
              <LabelledCell label={t("billing.dueDate")}>
                {formatDate(invoice.dueDate, lng)}
              </LabelledCell>
              <LabelledCell label={t("billing.status")}>
                {t(`billing.statuses.${display}`)}
              </LabelledCell>
              <LabelledCell label={t("billing.action")} className="col-actions">
                {display !== "paid" && own
                  ? (
                    <Button variant="primary" onClick={() => setPaying(invoice.id)}>
                      {t("billing.pay")}
                    </Button>
                  )
                  : null}
                {display === "paid"
                  ? (
                    <Button
                      variant="secondary"
                      data-testid="invoice-receipt"
                      onClick={() =>
                        downloadFile(
                          `/invoices/${invoice.id}/receipt`,
                          `recibo-fatura-${invoice.id}.html`,
                        ).catch((error) => toast.error(error))}
                    >
                      {t("billing.receipt")}
                    </Button>
                  )
                  : null}
                {display !== "paid" && can(user, "invoice:mark-paid")
                  ? (
                    <IconButton label={t("billing.markPaid")} onClick={() => setMarking(invoice)}>
                      <CheckCheck size={18} aria-hidden="true" />
                    </IconButton>
                  )
                  : null}
              </LabelledCell>
            </tr>
          );
        })}
      </ResourceTable>
      <CheckoutDialog
        open={paying !== null}
        invoiceId={paying ?? 0}
        onOpenChange={(open) => !open && setPaying(null)}
      />
      <ConfirmDialog
        open={marking !== null}
        onOpenChange={(open) => !open && setMarking(null)}
        title={t("billing.markPaidTitle", { id: marking?.id ?? "" })}
        description={t("billing.markPaidMessage")}
        confirmLabel={t("billing.markPaid")}
        onConfirm={() => marking && markPaid(marking)}
      />
    </div>
  );
}
