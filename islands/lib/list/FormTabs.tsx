import { useEffect, useState } from "react";
import { Tabs, type TabSpec } from "../ui/Tabs.tsx";
import { tabOfErrors } from "./form_rules.ts";

/** A tab of a form: its content and the names of the fields it holds. */
export type FormTab = TabSpec & { fields?: readonly string[] };

/**
 * The open tab of a form in tabs: a check or a refusal shows the tab of the first field in error;
 * a tab that goes away (e.g. hours no longer managed here) leaves its place to the first.
 */
export function useFormTab(
  errors: Record<string, string>,
  tabs: readonly { value: string; fields?: readonly string[] }[],
) {
  const [tab, setTab] = useState(tabs[0]?.value ?? "");
  useEffect(() => setTab((current) => tabOfErrors(tabs, current, errors)), [errors]);
  const shown = tabs.some((t) => t.value === tab) ? tab : tabs[0]?.value ?? "";
  return [shown, setTab] as const;
}

/** Tabs inside a form dialog: `<FormTabs errors={form.errors} label=... tabs={[...]} />`. */
export function FormTabs(
  { errors, label, tabs }: { errors: Record<string, string>; label: string; tabs: FormTab[] },
) {
  const [tab, setTab] = useFormTab(errors, tabs);
  return <Tabs value={tab} onValueChange={setTab} label={label} tabs={tabs} />;
}
