import { useTranslation } from "react-i18next";
import { FormDialog } from "../lib/list/FormDialog.tsx";
import { type RecordDialogProps, useRecordForm } from "../lib/list/record_form.ts";
import { PLAN_SWITCHES, type PlanView } from "../../contract/platform_types.ts";
import { Field } from "../lib/ui/Field.tsx";
import { length, LIMITS, type Rule } from "../../contract/validation.ts";
import { savePlatformRecord } from "./platform_form.ts";
import { Check } from "./PlatformTab.tsx";

type Switch = typeof PLAN_SWITCHES[number];
const ALL_ON = Object.fromEntries(PLAN_SWITCHES.map((s) => [s, true])) as Record<Switch, boolean>;
const NUMBERS = ["users", "connections", "queues"] as const;

/** A whole number, not negative (the limits); 0 is allowed and means no limit. */
const wholeNumber: Rule = (
  value,
) => (/^\d+$/.test(value.trim()) ? null : "platform.plans.limitHint");

/** A price: a number, not negative, with a comma or a point. */
const price: Rule = (value) => {
  const n = Number(value.replace(",", "."));
  return Number.isFinite(n) && n >= 0 ? null : "platform.plans.limitHint";
};

/**
 * Add or edit a plan (seeds/001 sections 2, 3, 9): a new plan starts with every switch on and its
 * numbers at 0 (no limit).
 */
export function PlanDialog(dialog: RecordDialogProps<PlanView>) {
  const { t } = useTranslation();
  const form = useRecordForm(dialog, {
    path: "/plans",
    empty: { name: "", value: "0", users: "0", connections: "0", queues: "0", ...ALL_ON },
    rules: {
      name: length(LIMITS.name),
      value: price,
      users: wholeNumber,
      connections: wholeNumber,
      queues: wholeNumber,
    },
    body: (v) => ({
      ...v,
      name: v.name.trim(),
      value: Number(v.value.replace(",", ".")),
      users: Number(v.users),
      connections: Number(v.connections),
      queues: Number(v.queues),
    }),
    save: savePlatformRecord(t("platform.plans.saveFailed")),
    successKey: "platform.done",
    admin: true,
  });
  return (
    <FormDialog form={form} width={640} texts="platform.plans" id="plan">
      <div className="row">
        <Field label={t("platform.plans.name")} {...form.field("name")} autoFocus />
        <Field label={t("platform.plans.value")} inputMode="decimal" {...form.field("value")} />
      </div>
      <div className="row">
        {NUMBERS.map((n) => (
          <Field
            key={n}
            label={t(`platform.plans.${n}`)}
            type="number"
            min={0}
            step={1}
            hint={t("platform.plans.limitHint")}
            {...form.field(n)}
          />
        ))}
      </div>
      <div className="platform-switches" role="group">
        {PLAN_SWITCHES.map((s) => (
          <Check
            key={s}
            name={s}
            label={t(`platform.plans.switches.${s}`)}
            checked={form.values[s]}
            onChange={(on) => form.set(s, on)}
          />
        ))}
      </div>
    </FormDialog>
  );
}
