import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { planLimit } from "../lib/plan_limit.ts";
import { api } from "../lib/api.ts";
import { languageOf } from "../lib/i18n.ts";
import { formatDate } from "../lib/shell/TopBar.tsx";
import { useRealtime } from "../lib/socket.ts";
import { Button } from "../lib/ui/Button.tsx";
import { Modal } from "../lib/ui/Modal.tsx";
import { useFormSubmit } from "../lib/list/form_submit.ts";
import { checkoutErrors, CheckoutForm, type CheckoutValues } from "./CheckoutForm.tsx";
import { PixScreen } from "./PixScreen.tsx";
import { PlanChange } from "./PlanChange.tsx";
import { useUser } from "../lib/session.ts";
import { can } from "../lib/permissions.ts";
import { formatBRL } from "./format.ts";
import type { CheckoutAnswer, CheckoutInfo } from "../../contract/billing_types.ts";

/** seeds/001 section 9: after the payment the page returns to / in 4 seconds. */
export const RENEWED_REDIRECT_MS = 4000;

const STEPS = ["data", "customize", "review"] as const;

/**
 * The three-step checkout of an invoice (seeds/001 sections 2 and 4): 'Dados' (billing data,
 * prefilled from the company), 'Personalizar' (the current plan, SELECIONAR), 'Revisar' (PAGAR),
 * then the Pix screen. A `payment` event CONCLUIDA shows the renewal and returns to /.
 */
export function CheckoutDialog(
  { open, onOpenChange, invoiceId }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    invoiceId: number;
  },
) {
  const { t, i18n } = useTranslation();
  const lng = languageOf(i18n);
  const [info, setInfo] = useState<CheckoutInfo | null>(null);
  const [step, setStep] = useState(0);
  const [values, setValues] = useState<CheckoutValues | null>(null);
  const [pix, setPix] = useState<CheckoutAnswer | null>(null);
  const [renewedUntil, setRenewedUntil] = useState<string | null>(null);

  useEffect(() => {
    api.get<CheckoutInfo>(`/invoices/${invoiceId}/checkout`).then((answer) => {
      setInfo(answer);
      setValues({
        name: answer.billing.name,
        country: "BR",
        zipcode: answer.billing.zipcode,
        address: answer.billing.address,
        state: answer.billing.state,
        city: answer.billing.city,
        cpfCnpj: "",
      });
    }).catch(() => onOpenChange(false));
  }, [invoiceId]);
  // After a change of plan in 'Personalizar' the invoice's amount and plan are read again.
  const reload = () =>
    api.get<CheckoutInfo>(`/invoices/${invoiceId}/checkout`).then(setInfo).catch(() => {});
  // Issue 50 item 2: another plan may be chosen here (a late company too) when this invoice is the
  // one a change prices: the period of the company's due date.
  const user = useUser();
  const changeable = info !== null && !user.super && can(user, "plan:change") &&
    info.invoice.dueDate.slice(0, 10) === user.company.dueDate?.slice(0, 10);

  useRealtime("payment", (event) => {
    if (event.action !== "CONCLUIDA") return;
    setRenewedUntil(event.company.dueDate);
    setTimeout(() => location.assign("/"), RENEWED_REDIRECT_MS);
  });

  const form = useFormSubmit<CheckoutAnswer>({
    validate: () => (values ? checkoutErrors(values) : {}),
    send: () =>
      api.post<CheckoutAnswer>("/subscription", {
        firstName: values!.name,
        address2: values!.address,
        city: values!.city,
        state: values!.state,
        zipcode: values!.zipcode,
        country: values!.country,
        cpfCnpj: values!.cpfCnpj || undefined,
        invoiceId,
        price: info!.invoice.value,
        plan: info!.plan,
        users: info!.plan?.users,
        connections: info!.plan?.connections,
      }, { quiet: true }),
    successKey: "billing.checkout.done",
    onDone: setPix,
    admin: true,
  });

  // An error under a 'Dados' field (the server's) brings that step back.
  const fromServer = Object.keys(form.errors).length > 0;
  useEffect(() => {
    if (fromServer && step !== 0) setStep(0);
  }, [fromServer]);

  const next = (event?: FormEvent) => {
    event?.preventDefault();
    if (step === 0 && values) {
      const errors = checkoutErrors(values);
      form.setErrors(errors);
      if (Object.keys(errors).length) return;
    }
    setStep((s) => Math.min(s + 1, STEPS.length - 1));
  };

  const money = (value: number) => formatBRL(value, lng);
  const limit = (value: number | null | undefined) => planLimit(value, t);
  let body;
  if (renewedUntil) {
    body = (
      <p className="checkout-renewed" role="status">
        {t("billing.checkout.renewed", { date: formatDate(renewedUntil, lng) })}
      </p>
    );
  } else if (pix) {
    body = <PixScreen pix={pix} />;
  } else if (!info || !values) {
    body = <p role="status">{t("billing.checkout.loading")}</p>;
  } else {
    body = (
      <>
        <ol className="checkout-steps">
          {STEPS.map((s, i) => (
            <li key={s} aria-current={i === step ? "step" : undefined}>
              {t(`billing.checkout.steps.${s}`)}
            </li>
          ))}
        </ol>
        {step === 0
          ? (
            <CheckoutForm
              values={values}
              onChange={setValues}
              errors={form.errors}
              needsTaxId={info.provider === "asaas"}
              onSubmit={next}
            />
          )
          : null}
        {step === 1
          ? (
            info.plan
              ? (
                <div className="card checkout-plan" data-testid="checkout-plan">
                  <h3>{info.plan.name}</h3>
                  <strong>
                    {t("billing.checkout.perMonth", { value: money(info.plan.value) })}
                  </strong>
                  <span>{t("billing.checkout.planUsers", { limit: limit(info.plan.users) })}</span>
                  <span>
                    {t("billing.checkout.planConnections", {
                      limit: limit(info.plan.connections),
                    })}
                  </span>
                  <span>
                    {t("billing.checkout.planQueues", { limit: limit(info.plan.queues) })}
                  </span>
                  <Button variant="primary" onClick={() => next()}>
                    {t("billing.checkout.select")}
                  </Button>
                </div>
              )
              : <p>{t("billing.checkout.noPlan")}</p>
          )
          : null}
        {step === 1 && changeable
          ? (
            <PlanChange
              currentPlanId={user.company.plan?.id ?? null}
              onInvoice={() => reload()}
            />
          )
          : null}
        {step === 2
          ? (
            <form id="checkout-review" onSubmit={form.onSubmit}>
              <h3>{t("billing.checkout.summary")}</h3>
              <dl className="checkout-summary">
                <dt>{t("billing.checkout.users")}</dt>
                <dd>{limit(info.plan?.users)}</dd>
                <dt>{t("billing.checkout.whatsapps")}</dt>
                <dd>{limit(info.plan?.connections)}</dd>
                <dt>{t("billing.checkout.monthly")}</dt>
                <dd>{info.plan ? money(info.plan.value) : "-"}</dd>
                {info.adjustment !== 0
                  ? (
                    <>
                      <dt>{t("billing.checkout.adjustment")}</dt>
                      <dd data-testid="checkout-adjustment">
                        {`${info.adjustment > 0 ? "+" : "-"}${money(Math.abs(info.adjustment))}`}
                      </dd>
                    </>
                  )
                  : null}
                <dt>{t("billing.checkout.total")}</dt>
                <dd>{money(info.invoice.value)}</dd>
              </dl>
            </form>
          )
          : null}
      </>
    );
  }

  const footer = pix || renewedUntil || !info ? null : (
    <>
      {step > 0
        ? <Button onClick={() => setStep(step - 1)}>{t("billing.checkout.back")}</Button>
        : null}
      {step === 0
        ? <Button variant="primary" onClick={() => next()}>{t("billing.checkout.next")}</Button>
        : null}
      {step === 2
        ? (
          <Button variant="primary" type="submit" form="checkout-review" loading={form.saving}>
            {t("billing.checkout.pay")}
          </Button>
        )
        : null}
    </>
  );

  return (
    <Modal
      open={open}
      onOpenChange={onOpenChange}
      title={t("billing.checkout.title")}
      footer={footer}
      width={560}
    >
      {body}
    </Modal>
  );
}
