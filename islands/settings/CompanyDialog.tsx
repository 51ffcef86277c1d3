import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { FormDialog } from "../lib/list/FormDialog.tsx";
import { type RecordDialogProps, useRecordForm } from "../lib/list/record_form.ts";
import type { CompanyView, PlanView } from "../../contract/platform_types.ts";
import { Field } from "../lib/ui/Field.tsx";
import { SelectField } from "../lib/ui/Select.tsx";
import { email, length, LIMITS } from "../../contract/validation.ts";
import { savePlatformRecord } from "./platform_form.ts";

const NO_PLAN = "none";

/**
 * Add or edit a company (seeds/001 sections 2, 5): name, email and plan required; phone; status;
 * campaigns; due date (empty or invalid is sent as null); recurrence, of which the form offers
 * MENSAL (the server accepts the others, and a company already on one keeps it).
 */
export function CompanyDialog(dialog: RecordDialogProps<CompanyView>) {
  const { t } = useTranslation();
  const [plans, setPlans] = useState<PlanView[]>([]);
  const form = useRecordForm(dialog, {
    path: "/companies",
    empty: {
      name: "",
      email: "",
      phone: "",
      planId: NO_PLAN,
      status: "true",
      campaignsEnabled: "true",
      dueDate: "",
      recurrence: "MENSAL",
      password: "",
    },
    values: (c) => ({ dueDate: c.dueDate?.slice(0, 10) ?? "" }),
    onOpen: () => void api.get<PlanView[]>("/plans/all").then(setPlans).catch(() => {}),
    rules: {
      name: length(LIMITS.name),
      email: email(true),
      password: length(LIMITS.password, false),
      planId: (v) => (v === NO_PLAN ? "people.validation.required" : null),
    },
    body: (v) => ({
      name: v.name.trim(),
      email: v.email.trim(),
      phone: v.phone.trim(),
      planId: Number(v.planId),
      status: v.status === "true",
      campaignsEnabled: v.campaignsEnabled === "true",
      dueDate: /^\d{4}-\d{2}-\d{2}$/.test(v.dueDate) ? v.dueDate : null,
      recurrence: v.recurrence,
      ...(dialog.id === null && v.password ? { password: v.password } : {}),
    }),
    save: savePlatformRecord(t("platform.companies.saveFailed")),
    successKey: "platform.done",
    admin: true,
  });
  const yesNo = [
    { value: "true", label: t("common.yes") },
    { value: "false", label: t("common.no") },
  ];
  const recurrences = [...new Set(["MENSAL", form.values.recurrence])].map((r) => ({
    value: r,
    label: t(`platform.recurrences.${r}`, { defaultValue: r }),
  }));
  const label = (key: string) => t(`platform.companies.${key}`);

  return (
    <FormDialog form={form} width={640} texts="platform.companies" id="company">
      <div className="row">
        <Field label={label("name")} {...form.field("name")} autoFocus />
        <Field label={label("email")} type="email" {...form.field("email")} />
      </div>
      <div className="row">
        <Field label={label("phone")} {...form.field("phone")} />
        <SelectField
          label={label("plan")}
          {...form.select("planId")}
          options={[
            { value: NO_PLAN, label: label("selectPlan"), disabled: true },
            ...plans.map((p) => ({ value: String(p.id), label: p.name })),
          ]}
        />
      </div>
      <div className="row">
        <SelectField label={label("status")} {...form.select("status")} options={yesNo} />
        <SelectField
          label={label("campaigns")}
          {...form.select("campaignsEnabled")}
          options={yesNo}
        />
      </div>
      {dialog.id === null
        ? (
          <Field
            label={label("password")}
            type="password"
            autoComplete="new-password"
            hint={label("passwordHint")}
            {...form.field("password")}
          />
        )
        : null}
      <div className="row">
        <Field label={label("dueDate")} type="date" {...form.field("dueDate")} />
        <SelectField
          label={label("recurrence")}
          {...form.select("recurrence")}
          options={recurrences}
        />
      </div>
    </FormDialog>
  );
}
