import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { languageOf } from "../lib/i18n.ts";
import { loadSession } from "../lib/session.ts";
import { toast } from "../lib/toast.ts";
import { Button } from "../lib/ui/Button.tsx";
import { Select } from "../lib/ui/Select.tsx";
import { whenOpen } from "../lib/ui/deferred.tsx";
import { formatDate } from "../lib/shell/TopBar.tsx";
import type { InvoiceView, PlanChangeQuote as Quote } from "../../contract/billing_types.ts";
import type { PlanView } from "../../contract/platform_types.ts";
import { formatBRL } from "./format.ts";

const ConfirmDialog = whenOpen(() =>
  import("../lib/ui/ConfirmDialog.tsx").then((m) => m.ConfirmDialog)
);

type PlanChangeAnswer = { plan: { id: number; name: string }; invoice: InvoiceView | null };

/**
 * /financeiro: the admin chooses another plan (issue 29 item 3, PUT /api/subscription/plan). The
 * server says what it costs on the next invoice and refuses a plan below the company's usage.
 */
export function PlanChange(
  { currentPlanId, onInvoice }: {
    currentPlanId: number | null;
    onInvoice: (invoice: InvoiceView) => void;
  },
) {
  const { t, i18n } = useTranslation();
  const lng = languageOf(i18n);
  const [plans, setPlans] = useState<PlanView[]>([]);
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const [confirming, setConfirming] = useState(false);
  const [round, setRound] = useState(0);
  useEffect(() => {
    api.get<PlanView[]>("/plans/list", { quiet: true }).then(setPlans).catch(() => {});
  }, []);
  // Issue 50 item 12: what the change costs, read when a plan is chosen, said in the confirmation.
  const [quote, setQuote] = useState<Quote | null>(null);
  useEffect(() => {
    setQuote(null);
    if (chosen === undefined) return;
    api.get<Quote>(`/subscription/plan/${chosen}/quote`, { quiet: true }).then(setQuote)
      .catch(() => {});
  }, [chosen]);
  const others = plans.filter((p) => p.id !== currentPlanId);
  if (others.length === 0) return null;
  const plan = others.find((p) => String(p.id) === chosen);
  // What the invoice becomes, then why: the paid days' difference, or a late period in full.
  const amount = (quote: Quote) => {
    const price = formatBRL(quote.plan.value, lng);
    const value = formatBRL(Math.abs(quote.adjustment), lng);
    const invoice = quote.invoice;
    const total = invoice
      ? { date: formatDate(invoice.dueDate, lng), total: formatBRL(invoice.value, lng) }
      : null;
    if (total && invoice?.late) return t("billing.planChange.confirmLate", total);
    const why = quote.adjustment > 0
      ? t("billing.planChange.confirmCharge", { amount: `+${value}`, price })
      : quote.adjustment < 0
      ? t("billing.planChange.confirmCredit", { amount: value, price })
      : t("billing.planChange.confirmNone", { price });
    return total ? `${t("billing.planChange.confirmInvoice", total)} ${why}` : why;
  };

  const confirm = async () => {
    if (!plan) return;
    const answer = await api.put<PlanChangeAnswer>("/subscription/plan", { planId: plan.id });
    if (answer.invoice) onInvoice(answer.invoice);
    toast.success(t("billing.planChange.done", { name: answer.plan.name }));
    setChosen(undefined);
    // A new select: radix keeps showing a value once chosen (blank when it left the list).
    setRound((n) => n + 1);
    await loadSession().catch(() => {});
  };

  return (
    <div className="plan-change" data-testid="plan-change">
      <Select
        key={round}
        label={t("billing.planChange.label")}
        placeholder={t("billing.planChange.label")}
        value={chosen}
        onValueChange={setChosen}
        options={others.map((p) => ({
          value: String(p.id),
          label: `${p.name} · ${formatBRL(p.value, lng)}`,
        }))}
      />
      <Button variant="secondary" disabled={!plan} onClick={() => setConfirming(true)}>
        {t("billing.planChange.submit")}
      </Button>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={t("billing.planChange.confirmTitle", { name: plan?.name ?? "" })}
        description={`${quote && quote.plan.id === plan?.id ? `${amount(quote)} ` : ""}${
          t("billing.planChange.confirmLimits")
        }`}
        confirmLabel={t("billing.planChange.submit")}
        onConfirm={confirm}
      />
    </div>
  );
}
