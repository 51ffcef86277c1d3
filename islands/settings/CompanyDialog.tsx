import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { FormDialog, useFormSubmit } from "../lib/list/FormDialog.tsx";
import type { CompanyView, PlanView } from "../../contract/platform_types.ts";
import { Field } from "../lib/ui/Field.tsx";
import { Select } from "../lib/ui/Select.tsx";
import { check, email, length, LIMITS } from "../../contract/validation.ts";
import { savePlatformRecord } from "./platform_form.ts";

const NO_PLAN = "none";

/**
 * Add or edit a company (seeds/001 sections 2, 5): name, email and plan required; phone; status;
 * campaigns; due date (empty or invalid is sent as null); recurrence, of which the form offers
 * MENSAL (the server accepts the others, and a company already on one keeps it).
 */
export function CompanyDialog(
  { open, onOpenChange, companyId, onSaved }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    companyId: number | null;
    onSaved: (company: CompanyView) => void;
  },
) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [mail, setMail] = useState("");
  const [phone, setPhone] = useState("");
  const [planId, setPlanId] = useState(NO_PLAN);
  const [status, setStatus] = useState("true");
  const [campaigns, setCampaigns] = useState("true");
  const [dueDate, setDueDate] = useState("");
  const [recurrence, setRecurrence] = useState("MENSAL");
  const [password, setPassword] = useState("");
  const [plans, setPlans] = useState<PlanView[]>([]);
  const [loading, setLoading] = useState(false);
  const form = useFormSubmit<CompanyView>({
    admin: true,
    validate: () => {
      const errors = check({ name, email: mail, password }, {
        name: length(LIMITS.name),
        email: email(true),
        password: length(LIMITS.password, false),
      });
      if (planId === NO_PLAN) errors.planId = "people.validation.required";
      return errors;
    },
    send: () =>
      savePlatformRecord<CompanyView>("/companies", companyId, {
        name: name.trim(),
        email: mail.trim(),
        phone: phone.trim(),
        planId: Number(planId),
        status: status === "true",
        campaignsEnabled: campaigns === "true",
        dueDate: /^\d{4}-\d{2}-\d{2}$/.test(dueDate) ? dueDate : null,
        recurrence,
        ...(companyId === null && password ? { password } : {}),
      }, t("platform.companies.saveFailed")),
    successKey: "platform.done",
    onDone: (saved) => {
      onSaved(saved);
      onOpenChange(false);
    },
  });

  useEffect(() => {
    if (!open) return;
    form.setErrors({});
    setName("");
    setMail("");
    setPhone("");
    setPlanId(NO_PLAN);
    setStatus("true");
    setCampaigns("true");
    setDueDate("");
    setRecurrence("MENSAL");
    setPassword("");
    api.get<PlanView[]>("/plans/all").then(setPlans).catch(() => {});
    if (companyId === null) return;
    setLoading(true);
    api.get<CompanyView>(`/companies/${companyId}`).then((c) => {
      setName(c.name);
      setMail(c.email ?? "");
      setPhone(c.phone ?? "");
      setPlanId(c.planId === null ? NO_PLAN : String(c.planId));
      setStatus(String(c.status));
      setCampaigns(String(c.campaignsEnabled));
      setDueDate(c.dueDate?.slice(0, 10) ?? "");
      setRecurrence(c.recurrence ?? "MENSAL");
    }).catch(() => onOpenChange(false)).finally(() => setLoading(false));
  }, [open, companyId]);

  const yesNo = [
    { value: "true", label: t("common.yes") },
    { value: "false", label: t("common.no") },
  ];
  const recurrences = [...new Set(["MENSAL", recurrence])].map((r) => ({
    value: r,
    label: t(`platform.recurrences.${r}`, { defaultValue: r }),
  }));

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      width={640}
      title={companyId === null
        ? t("platform.companies.addTitle")
        : t("platform.companies.editTitle")}
      formId="company-form"
      form={form}
      submitLabel={companyId === null ? t("common.add") : t("common.save")}
      submitTestId="company-submit"
      disabled={loading}
    >
      <div className="row">
        <Field
          label={t("platform.companies.name")}
          {...form.bind("name", name, setName)}
          autoFocus
        />
        <Field
          label={t("platform.companies.email")}
          type="email"
          {...form.bind("email", mail, setMail)}
        />
      </div>
      <div className="row">
        <Field label={t("platform.companies.phone")} {...form.bind("phone", phone, setPhone)} />
        <div className="field">
          <label>{t("platform.companies.plan")}</label>
          <Select
            label={t("platform.companies.plan")}
            value={planId}
            onValueChange={setPlanId}
            options={[
              { value: NO_PLAN, label: t("platform.companies.selectPlan"), disabled: true },
              ...plans.map((p) => ({ value: String(p.id), label: p.name })),
            ]}
          />
          {form.errors.planId ? <span className="field-error">{form.errors.planId}</span> : null}
        </div>
      </div>
      <div className="row">
        <div className="field">
          <label>{t("platform.companies.status")}</label>
          <Select
            label={t("platform.companies.status")}
            value={status}
            onValueChange={setStatus}
            options={yesNo}
          />
        </div>
        <div className="field">
          <label>{t("platform.companies.campaigns")}</label>
          <Select
            label={t("platform.companies.campaigns")}
            value={campaigns}
            onValueChange={setCampaigns}
            options={yesNo}
          />
        </div>
      </div>
      {companyId === null
        ? (
          <Field
            label={t("platform.companies.password")}
            type="password"
            autoComplete="new-password"
            hint={t("platform.companies.passwordHint")}
            {...form.bind("password", password, setPassword)}
          />
        )
        : null}
      <div className="row">
        <Field
          label={t("platform.companies.dueDate")}
          type="date"
          {...form.bind("dueDate", dueDate, setDueDate)}
        />
        <div className="field">
          <label>{t("platform.companies.recurrence")}</label>
          <Select
            label={t("platform.companies.recurrence")}
            value={recurrence}
            onValueChange={setRecurrence}
            options={recurrences}
          />
        </div>
      </div>
    </FormDialog>
  );
}
