import { useId } from "react";
import { deferredModule, useDeferred } from "./deferred.tsx";
import { icon } from "./icon.tsx";

const ChevronDown = icon("chevron-down");

export type SelectOption = { value: string; label: string; disabled?: boolean };

export type SelectProps = {
  value: string | undefined;
  onValueChange: (value: string) => void;
  options: SelectOption[];
  /** Accessible name of the trigger when there is no visible <label for>. */
  label?: string;
  placeholder?: string;
  id?: string;
  disabled?: boolean;
};

const parts = deferredModule(() => import("./select_parts.tsx"));

/**
 * A select (radix Select, loaded on first use: deferred.tsx) with the app's look:
 *   <Select label={t("x.queue")} value={v} onValueChange={setV} options={[{ value, label }]} />
 * Radix forbids an empty-string value: use a sentinel such as "none". Until first opened, the
 * trigger is the same combobox button showing the chosen label.
 */
export function Select(props: SelectProps) {
  const select = useDeferred(parts);
  if (select.mod) {
    const { SelectRoot } = select.mod;
    return <SelectRoot {...props} open={select.open} onOpenChange={select.setOpen} />;
  }
  const chosen = props.options.find((o) => o.value === props.value);
  return (
    <button
      type="button"
      role="combobox"
      className="select-trigger"
      aria-label={props.label}
      aria-expanded={false}
      aria-autocomplete="none"
      id={props.id}
      disabled={props.disabled}
      data-placeholder={chosen ? undefined : ""}
      onClick={select.use}
      onKeyDown={(event) => {
        if (event.key === "ArrowDown" || event.key === "ArrowUp") {
          event.preventDefault();
          select.use();
        }
      }}
    >
      <span style={{ pointerEvents: "none" }}>{chosen?.label ?? props.placeholder}</span>
      <span aria-hidden="true">
        <ChevronDown size={16} aria-hidden="true" />
      </span>
    </button>
  );
}

/**
 * A labelled select with its error under it, the counterpart of Field:
 *   <SelectField label={t("x.queue")} options={...} {...form.select("queueId")} />
 */
export function SelectField(
  { label, name, error, ...select }: SelectProps & {
    label: string;
    name?: string;
    error?: string | null;
  },
) {
  const id = useId();
  return (
    <div className="field" data-field={name}>
      <label htmlFor={id}>{label}</label>
      <Select id={id} label={label} {...select} />
      {error ? <span className="field-error">{error}</span> : null}
    </div>
  );
}
