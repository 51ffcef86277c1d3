import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { api } from "../lib/api.ts";
import { FormDialog, useFormSubmit } from "../lib/list/FormDialog.tsx";
import { PLAN_SWITCHES, type PlanView } from "../../contract/platform_types.ts";
import { Field } from "../lib/ui/Field.tsx";
import { check, length, LIMITS } from "../../contract/validation.ts";
import { savePlatformRecord } from "./platform_form.ts";
import { Check } from "./PlatformTab.tsx";

type Switches = Record<typeof PLAN_SWITCHES[number], boolean>;
const ALL_ON = Object.fromEntries(PLAN_SWITCHES.map((s) => [s, true])) as Switches;
const NUMBERS = ["users", "connections", "queues"] as const;

/** A whole number, not negative (the limits); 0 is allowed and means no limit. */
function wholeNumber(value: string): string | null {
  return /^\d+$/.test(value.trim()) ? null : "platform.plans.limitHint";
}

/**
 * Add or edit a plan (seeds/001 sections 2, 3, 9): a new plan starts with every switch on and its
 * numbers at 0 (no limit).
 */
export function PlanDialog(
  { open, onOpenChange, planId, onSaved }: {
    open: boolean;
    onOpenChange: (open: boolean) => void;
    planId: number | null;
    onSaved: (plan: PlanView) => void;
  },
) {
  const { t } = useTranslation();
  const [name, setName] = useState("");
  const [value, setValue] = useState("0");
  const [numbers, setNumbers] = useState({ users: "0", connections: "0", queues: "0" });
  const [switches, setSwitches] = useState<Switches>(ALL_ON);
  const [loading, setLoading] = useState(false);
  const form = useFormSubmit<PlanView>({
    admin: true,
    validate: () => {
      const errors = check({ name, ...numbers }, {
        name: length(LIMITS.name),
        users: wholeNumber,
        connections: wholeNumber,
        queues: wholeNumber,
      });
      const price = Number(value.replace(",", "."));
      if (!Number.isFinite(price) || price < 0) errors.value = "platform.plans.limitHint";
      return errors;
    },
    send: () =>
      savePlatformRecord<PlanView>("/plans", planId, {
        name: name.trim(),
        value: Number(value.replace(",", ".")),
        users: Number(numbers.users),
        connections: Number(numbers.connections),
        queues: Number(numbers.queues),
        ...switches,
      }, t("platform.plans.saveFailed")),
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
    setValue("0");
    setNumbers({ users: "0", connections: "0", queues: "0" });
    setSwitches(ALL_ON);
    if (planId === null) return;
    setLoading(true);
    api.get<PlanView>(`/plans/${planId}`).then((p) => {
      setName(p.name);
      setValue(String(p.value));
      setNumbers({
        users: String(p.users),
        connections: String(p.connections),
        queues: String(p.queues),
      });
      setSwitches(Object.fromEntries(PLAN_SWITCHES.map((s) => [s, p[s]])) as Switches);
    }).catch(() => onOpenChange(false)).finally(() => setLoading(false));
  }, [open, planId]);

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      width={640}
      title={planId === null ? t("platform.plans.addTitle") : t("platform.plans.editTitle")}
      formId="plan-form"
      form={form}
      submitLabel={planId === null ? t("common.add") : t("common.save")}
      submitTestId="plan-submit"
      disabled={loading}
    >
      <div className="row">
        <Field label={t("platform.plans.name")} {...form.bind("name", name, setName)} autoFocus />
        <Field
          label={t("platform.plans.value")}
          inputMode="decimal"
          {...form.bind("value", value, setValue)}
        />
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
            {...form.bind(n, numbers[n], (v) => setNumbers((old) => ({ ...old, [n]: v })))}
          />
        ))}
      </div>
      <div className="platform-switches" role="group">
        {PLAN_SWITCHES.map((s) => (
          <Check
            key={s}
            name={s}
            label={t(`platform.plans.switches.${s}`)}
            checked={switches[s]}
            onChange={(on) => setSwitches((old) => ({ ...old, [s]: on }))}
          />
        ))}
      </div>
    </FormDialog>
  );
}
